#include "client/stream_message.h"

#include "client/message_stream_session.h"
#include "client/argument_checks.h"

namespace qs::client {

using detail::MessageStreamSession;

namespace {

// How much sooner than this client's estimate the server's visibility timer
// may fire: the receive's answer is read within that of being sent.
constexpr auto kServerTimerLead = std::chrono::seconds(1);

}  // namespace

StreamMessage::StreamMessage(std::shared_ptr<MessageStreamSession> session, QueueMessage message,
                             std::string receiveRequestId, Clock::time_point visibleUntil)
    : session_(std::move(session)),
      message_(std::move(message)),
      receiveRequestId_(std::move(receiveRequestId)),
      visibleUntil_(visibleUntil) {}

StreamMessage::StreamMessage(StreamMessage&&) noexcept = default;
StreamMessage& StreamMessage::operator=(StreamMessage&&) noexcept = default;
StreamMessage::~StreamMessage() = default;

Result<void> StreamMessage::ack() {
    return settle(kubemq::AckMessage, "v1 ack");
}

Result<void> StreamMessage::reject() {
    return settle(kubemq::RejectMessage, "v1 reject");
}

Result<void> StreamMessage::resend(const std::string& channel) {
    if (session_->core().options.validateArguments) {
        if (auto error = checkChannelName(channel, "resend channel")) {
            return *error;
        }
    }
    return settle(kubemq::ResendMessage, "v1 resend", channel);
}

Result<void> StreamMessage::settle(int type, const char* what, const std::string& channel) {
    if (settled_) {
        return invalidArgument(std::string(what) + ": the message is already settled");
    }
    detail::ClientCore& core = session_->core();
    kubemq::StreamQueueMessagesRequest request;
    request.set_clientid(core.options.clientId);
    request.set_streamrequesttypedata(static_cast<kubemq::StreamRequestType>(type));
    request.set_refsequence(sequence());
    request.set_channel(channel);
    const auto deadline = Clock::now() + core.options.callTimeout;
    auto answer = session_->call(std::move(request), deadline, core.cancelEpoch.load(), what);
    if (!answer.ok() && !answerLostAfterSuccess(answer.error())) {
        return answer.error();
    }
    if (answer.ok() && answer->iserror()) {
        return Error{ErrorCategory::ServerError, answer->error(), 0};
    }
    settled_ = true;
    return {};
}

// KubeMQ v2.4.0 queues the answer of a settlement that ends a v1 stream and
// then cancels the stream; under load the cancel can win, and the stream ends
// with status OK and no answer (pkg/client/queue.go, StreamQueueMessage). Its
// other clean ends come from its timers, and a refused settlement keeps the
// stream open, so a clean end well before the visibility timer is the
// settlement's success.
bool StreamMessage::answerLostAfterSuccess(const Error& error) const {
    return error.category == ErrorCategory::StreamLost && error.grpcCode == 0 &&
           Clock::now() + kServerTimerLead < visibleUntil_;
}

Result<void> StreamMessage::extendVisibility(std::chrono::seconds visibility) {
    if (auto error = checkVisibility(visibility)) {
        return *error;
    }
    if (settled_) {
        return invalidArgument("v1 extend visibility: the message is already settled");
    }
    detail::ClientCore& core = session_->core();
    kubemq::StreamQueueMessagesRequest request;
    request.set_clientid(core.options.clientId);
    request.set_streamrequesttypedata(kubemq::ModifyVisibility);
    request.set_visibilityseconds(static_cast<int>(visibility.count()));
    const auto sent = Clock::now();
    auto answer = session_->call(std::move(request), sent + core.options.callTimeout,
                                 core.cancelEpoch.load(), "v1 extend visibility");
    if (!answer.ok()) {
        return answer.error();
    }
    if (answer->iserror()) {
        return Error{ErrorCategory::ServerError, answer->error(), 0};
    }
    visibleUntil_ = sent + visibility;
    return {};
}

}  // namespace qs::client
