#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "client/queue_message.h"
#include "client/result.h"

namespace qs::client {

namespace detail {
class Transaction;
}

// A settlement the client sent on a downstream stream.
enum class SettleOp { Ack, Reject, Requeue, AckAll, RejectAll, RequeueAll, Close };

std::string_view toString(SettleOp op);

// An error frame the server sent back for a settlement. Successful settlements
// get no answer at all (spec §2.8.1), so settlements are sent fire-and-forget
// and only failures arrive later, matched to their request by RefRequestId.
struct SettlementError {
    std::string transactionId;
    std::string requestId;
    SettleOp operation = SettleOp::Ack;
    std::vector<std::uint64_t> sequences;  // the messages concerned; empty for *All / Close
    std::string message;                   // the server's text, verbatim
};

// One message of a ReceivedBatch. Copyable handle: copies share the batch's
// state, so settling through any copy settles the message once.
//
// Settlement methods return as soon as the request is written to the stream;
// they fail locally with InvalidArgument (already settled, auto-acked batch,
// bad requeue channel) or StreamLost (the stream broke: the message will be
// redelivered, nothing was settled). Server-side failures arrive later as a
// SettlementError (see QueuesClient::setSettlementErrorHandler).
// Thread-safe: may be settled from any thread.
class ReceivedMessage {
public:
    const QueueMessage& message() const { return message_; }
    std::uint64_t sequence() const { return message_.attributes.sequence; }

    Result<void> ack();                                // AckRange [sequence]
    Result<void> reject();                             // NAckRange [sequence]
    Result<void> requeue(const std::string& channel);  // ReQueueRange [sequence] to channel

    // True once this message was settled through this handle or its batch.
    bool isSettled() const;

private:
    friend class detail::Transaction;
    ReceivedMessage(std::shared_ptr<detail::Transaction> txn, QueueMessage message);

    std::shared_ptr<detail::Transaction> txn_;
    QueueMessage message_;
};

// The answer to one QueuesClient::receive(): one server transaction.
//
// Messages stay reserved to this client until they are settled, the batch is
// closed, or the downstream stream ends (then the server returns them to the
// queue, same sequence, receive count unchanged). Destroying the batch does
// NOT settle anything. Batch-wide operations settle every message not yet
// settled; on an empty or auto-acked batch they are local no-ops that succeed.
// Thread-safe like ReceivedMessage.
class ReceivedBatch {
public:
    ReceivedBatch() = default;

    const std::string& transactionId() const { return transactionId_; }
    const std::string& channel() const { return channel_; }
    bool autoAck() const { return autoAck_; }

    std::vector<ReceivedMessage>& messages() { return messages_; }
    const std::vector<ReceivedMessage>& messages() const { return messages_; }
    bool empty() const { return messages_.empty(); }
    std::size_t size() const { return messages_.size(); }

    // One Range request for several messages of this batch (by sequence):
    // the wire form of settling each of them, in one write. Every sequence must
    // belong to this batch, be unsettled and appear once; otherwise
    // InvalidArgument and nothing is sent. An empty list is InvalidArgument.
    Result<void> ackRange(std::span<const std::uint64_t> sequences);     // AckRange
    Result<void> rejectRange(std::span<const std::uint64_t> sequences);  // NAckRange
    Result<void> requeueRange(std::span<const std::uint64_t> sequences,
                              const std::string& channel);  // ReQueueRange

    Result<void> ackAll();                                // AckAll
    Result<void> rejectAll();                             // NAckAll
    Result<void> requeueAll(const std::string& channel);  // ReQueueAll
    // CloseByClient: unsettled messages go back to the queue at their position.
    Result<void> close();

    // Messages not settled yet (and the stream still alive).
    std::size_t unsettledCount() const;

private:
    friend class detail::Transaction;

    std::shared_ptr<detail::Transaction> txn_;
    std::string transactionId_;
    std::string channel_;
    bool autoAck_ = false;
    std::vector<ReceivedMessage> messages_;
};

}  // namespace qs::client
