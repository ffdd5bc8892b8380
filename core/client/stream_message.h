#pragma once

#include <chrono>
#include <cstdint>
#include <memory>

#include "client/queue_message.h"
#include "client/result.h"

namespace qs::client {

namespace detail {
class MessageStreamSession;
}

// One message received on a v1 StreamQueueMessage stream of its own
// (QueuesClient::receiveStreamMessage, spec §2.11). The server hides it from
// other consumers until its visibility timer runs out, then takes it back
// (tail of the queue, receive count + 1) and ends the stream. Settling it
// (ack / reject) ends the stream too: one message per stream.
//
// Settlements wait for the server's answer (unlike the downstream API), so a
// late ack is known at once: VisibilityExpired when the timer fired first
// (the message is back in the queue, or dead-lettered), InvalidArgument when
// already settled, ServerError for the server's in-band error (verbatim),
// StreamLost when the stream broke otherwise, Cancelled on the client's
// cancel() / shutdown() / abandon(), Timeout when no answer came within the
// client's call timeout.
//
// Ownership: move-only; it shares its client's connection and may outlive
// the QueuesClient (later calls then answer Cancelled). Destroying it
// unsettled cancels the stream, which the server treats like a reject (tail,
// receive count + 1): unlike a downstream batch, nothing goes back unchanged.
// Threading: one thread at a time per StreamMessage; different ones are
// independent. The client's cancel() / abandon() may interrupt it from any
// thread.
class StreamMessage {
public:
    using Clock = std::chrono::steady_clock;

    StreamMessage(StreamMessage&&) noexcept;
    StreamMessage& operator=(StreamMessage&&) noexcept;
    ~StreamMessage();

    const QueueMessage& message() const { return message_; }
    std::uint64_t sequence() const { return message_.attributes.sequence; }
    // The RequestID of the ReceiveMessage that brought it: the embedded broker
    // names the hand-out by it (its events' transaction), like a downstream
    // TransactionId.
    const std::string& receiveRequestId() const { return receiveRequestId_; }
    // When the server will take the message back unless it is settled or
    // extended first: this client's estimate (the answer's arrival plus the
    // visibility), on the steady clock.
    Clock::time_point visibleUntil() const { return visibleUntil_; }

    Result<void> ack();     // AckMessage
    Result<void> reject();  // RejectMessage: tail, receive count + 1 (or dead-letter)
    // ResendMessage: a copy goes to `channel` (receive count 0), the original
    // is acked: the v1 form of a re-queue.
    Result<void> resend(const std::string& channel);
    // ModifyVisibility: the timer restarts at `visibility` from now (it does
    // not add), 1..43200 s.
    Result<void> extendVisibility(std::chrono::seconds visibility);

    // Acked, rejected or resent through this handle.
    bool isSettled() const { return settled_; }

private:
    friend class QueuesClient;
    StreamMessage(std::shared_ptr<detail::MessageStreamSession> session, QueueMessage message,
                  std::string receiveRequestId, Clock::time_point visibleUntil);
    Result<void> settle(int type, const char* what, const std::string& channel = {});
    bool answerLostAfterSuccess(const Error& error) const;

    std::shared_ptr<detail::MessageStreamSession> session_;
    QueueMessage message_;
    std::string receiveRequestId_;
    Clock::time_point visibleUntil_;
    bool settled_ = false;
};

}  // namespace qs::client
