#include "client/upstream_session.h"

#include "client/argument_checks.h"
#include "client/proto_convert.h"
#include "common/ids.h"

namespace qs::client::detail {

UpstreamSession::UpstreamSession(std::shared_ptr<ClientCore> core) : core_(std::move(core)) {}

UpstreamSession::~UpstreamSession() {
    close();
}

void UpstreamSession::cancel() {
    std::shared_ptr<UpstreamStream> stream;
    {
        std::lock_guard lock(mutex_);
        stream = stream_;
    }
    if (stream) {
        stream->end(StreamEndReason::Cancelled);
    }
}

void UpstreamSession::close() {
    std::shared_ptr<UpstreamStream> stream;
    {
        std::lock_guard lock(mutex_);
        closed_ = true;
        stream = std::move(stream_);
    }
    if (stream) {
        stream->end(StreamEndReason::Cancelled);
    }
}

std::shared_ptr<UpstreamStream> UpstreamSession::current(Error* error) {
    std::shared_ptr<UpstreamStream> old;  // joined when the last sender lets go of it
    std::lock_guard lock(mutex_);
    if (closed_ || core_->shutdown.load()) {
        *error = core_->cancelledError("upstream send");
        return nullptr;
    }
    if (stream_ && !stream_->isEnded()) {
        return stream_;
    }
    old = std::move(stream_);
    stream_ = std::make_shared<UpstreamStream>(*core_, &kubemq::kubemq::Stub::QueuesUpstream);
    return stream_;
}

Result<std::vector<SendResult>> UpstreamSession::send(std::vector<QueueMessage> messages,
                                                      std::chrono::milliseconds timeout) {
    const std::uint64_t epoch = core_->cancelEpoch.load();
    kubemq::QueuesUpstreamRequest request;
    request.set_requestid(newUuid());
    for (QueueMessage& message : messages) {
        if (message.clientId.empty()) {
            message.clientId = core_->options.clientId;
        }
        if (core_->options.validateArguments) {
            if (auto error = checkMessage(message)) {
                return *error;
            }
        }
        toProto(message, request.add_messages());
    }
    if (core_->options.validateArguments && messages.empty()) {
        return Error{ErrorCategory::InvalidArgument, "no messages to send", 0};
    }
    Error error;
    std::shared_ptr<UpstreamStream> stream = current(&error);
    if (!stream) {
        return error;
    }
    stream->sendRequest(request);  // a failed write shows as the stream's end
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    auto reply = stream->awaitAnswer(request.requestid(), deadline,
                                     [this, epoch] { return core_->isCancelled(epoch); });
    if (!reply.response) {
        return failure(reply.state, epoch, timeout);
    }
    if (reply.response->iserror()) {
        return Error{ErrorCategory::ServerError, reply.response->error(), 0};
    }
    std::vector<SendResult> results;
    results.reserve(static_cast<std::size_t>(reply.response->results_size()));
    for (const auto& result : reply.response->results()) {
        results.push_back(fromProto(result));
    }
    return results;
}

Error UpstreamSession::failure(const StreamState& state, std::uint64_t epoch,
                               std::chrono::milliseconds timeout) const {
    if (core_->isCancelled(epoch) || state.endRequested) {
        return core_->cancelledError("upstream send");
    }
    if (state.dead) {
        Error failed = fromStatus(state.status, false, "upstream stream");
        if (failed.category == ErrorCategory::Unavailable && state.answered) {
            failed.message += " (stream lost; whether the server stored the messages is unknown)";
        }
        return failed;
    }
    return Error{ErrorCategory::Timeout,
                 "no upstream response within " + std::to_string(timeout.count()) +
                     " ms; whether the server stored the messages is unknown",
                 static_cast<int>(grpc::StatusCode::DEADLINE_EXCEEDED)};
}

}  // namespace qs::client::detail
