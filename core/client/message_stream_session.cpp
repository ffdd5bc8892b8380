#include "client/message_stream_session.h"

#include "client/proto_convert.h"
#include "common/ids.h"

namespace qs::client::detail {

bool isVisibilityExpiry(std::string_view serverError) {
    return serverError.starts_with("Error 129");
}

MessageStreamSession::MessageStreamSession(std::shared_ptr<ClientCore> core)
    : core_(std::move(core)),
      stream_(*core_, &kubemq::kubemq::Stub::StreamQueueMessage,
              [this](const kubemq::StreamQueueMessagesResponse& response) {
                  handleUnmatched(response);
              }) {}

MessageStreamSession::~MessageStreamSession() {
    stream_.end(StreamEndReason::Cancelled);
    stream_.join();  // before the members its reader uses go
}

void MessageStreamSession::end(StreamEndReason reason) {
    stream_.end(reason);
}

void MessageStreamSession::handleUnmatched(const kubemq::StreamQueueMessagesResponse& response) {
    if (response.iserror() && isVisibilityExpiry(response.error())) {
        std::lock_guard lock(mutex_);
        expired_ = response.error();
    }
}

Result<kubemq::StreamQueueMessagesResponse> MessageStreamSession::call(
    kubemq::StreamQueueMessagesRequest request, std::chrono::steady_clock::time_point deadline,
    std::uint64_t epoch, std::string_view what) {
    {
        std::lock_guard lock(mutex_);
        if (!expired_.empty()) {
            return expiredError(what);
        }
    }
    if (core_->isCancelled(epoch)) {
        return core_->cancelledError(what);
    }
    if (request.requestid().empty()) {
        request.set_requestid(newUuid());
    }
    stream_.sendRequest(request);  // a failed write shows as the stream's end
    auto reply = stream_.awaitAnswer(request.requestid(), deadline,
                                     [this, epoch] { return core_->isCancelled(epoch); });
    if (reply.response) {
        if (reply.response->iserror() && isVisibilityExpiry(reply.response->error())) {
            std::lock_guard lock(mutex_);
            expired_ = reply.response->error();
            return expiredError(what);
        }
        return std::move(*reply.response);
    }
    return failure(reply.state, epoch, what);
}

Error MessageStreamSession::expiredError(std::string_view what) const {
    return Error{ErrorCategory::VisibilityExpired,
                 std::string(what) + ": " + expired_ +
                     " (the server took the message back: receive count + 1)",
                 0};
}

Error MessageStreamSession::failure(const StreamState& state, std::uint64_t epoch,
                                    std::string_view what) {
    {
        std::lock_guard lock(mutex_);
        if (!expired_.empty()) {
            return expiredError(what);
        }
    }
    if (core_->isCancelled(epoch) || state.reason == StreamEndReason::Cancelled ||
        state.reason == StreamEndReason::Abandoned) {
        return core_->cancelledError(what);
    }
    if (!state.dead) {
        stream_.end(StreamEndReason::Poisoned);
        return Error{ErrorCategory::Timeout,
                     std::string(what) + ": no answer in time; the v1 stream was closed (a "
                                         "message it held goes back with receive count + 1)",
                     static_cast<int>(grpc::StatusCode::DEADLINE_EXCEEDED)};
    }
    const grpc::Status& status = state.status;
    if (!status.ok() && !(state.answered && status.error_code() == grpc::StatusCode::UNAVAILABLE)) {
        return fromStatus(status, false, what);
    }
    std::string text(what);
    text += status.ok() ? ": the v1 stream was ended by the server"
                        : ": v1 stream lost (" + status.error_message() + ")";
    text += "; a message it held goes back with receive count + 1";
    return Error{ErrorCategory::StreamLost, std::move(text), static_cast<int>(status.error_code())};
}

}  // namespace qs::client::detail
