#pragma once

// Private: one v1 StreamQueueMessage stream (spec §2.11): a receive, then the
// settlements of the one message it brought.
#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "client/client_core.h"
#include "client/request_stream.h"
#include "client/result.h"
#include "kubemq.grpc.pb.h"

namespace qs::client::detail {

// Sends a request and waits for its answer, translating how the stream ended
// into an Error. The server's visibility expiry (Error 129) names the last
// request it processed, which is already answered, so it arrives as an
// unmatched frame: it is remembered, and every later request answers
// VisibilityExpired at once.
//
// Threading: every method may be called from any thread; ClientCore::
// cancelAll / abandonStreams end it from theirs. The destructor cancels the
// stream (the server rejects a message still held) and joins the reader.
class MessageStreamSession {
public:
    explicit MessageStreamSession(std::shared_ptr<ClientCore> core);
    ~MessageStreamSession();
    MessageStreamSession(const MessageStreamSession&) = delete;
    MessageStreamSession& operator=(const MessageStreamSession&) = delete;

    // The answer to `request` (a fresh RequestID is set when empty), or the
    // Error that replaced it. A success may still carry an in-band error
    // (IsError): the caller decides what it means. `what` names the call in
    // errors ("v1 receive", "v1 ack"...); `epoch` is the client's cancel epoch
    // when the call began.
    Result<kubemq::StreamQueueMessagesResponse> call(kubemq::StreamQueueMessagesRequest request,
                                                      std::chrono::steady_clock::time_point deadline,
                                                      std::uint64_t epoch, std::string_view what);

    void end(StreamEndReason reason);
    ClientCore& core() { return *core_; }

private:
    void handleUnmatched(const kubemq::StreamQueueMessagesResponse& response);
    Error expiredError(std::string_view what) const;  // mutex_ held
    Error failure(const StreamState& state, std::uint64_t epoch, std::string_view what);

    std::shared_ptr<ClientCore> core_;
    mutable std::mutex mutex_;
    std::string expired_;  // the server's Error 129 text, once seen
    // Last: its reader calls handleUnmatched, which uses the members above.
    MessageStream stream_;
};

// True for the server's "Error 129: current visibility timer expired".
bool isVisibilityExpiry(std::string_view serverError);

}  // namespace qs::client::detail
