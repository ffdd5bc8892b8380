#include "client/queues_client.h"

#include <algorithm>
#include <climits>

#include "client/argument_checks.h"
#include "client/client_core.h"
#include "client/downstream_session.h"
#include "client/message_stream_session.h"
#include "client/proto_convert.h"
#include "client/transaction.h"
#include "client/upstream_session.h"
#include "common/ids.h"

namespace qs::client {

using detail::ClientCore;
using detail::DownstreamSession;

namespace {

int wholeSecondsRoundedUp(std::chrono::milliseconds wait) {
    const auto ms = std::max<std::int64_t>(wait.count(), 0);
    return static_cast<int>(std::min<std::int64_t>((ms + 999) / 1000, INT_MAX));
}

void recordFailure(ClientCore& core) {
    std::lock_guard lock(core.downstreamMutex);
    core.consecutiveFailures = std::min(core.consecutiveFailures + 1, 30);
    auto delay = core.options.reconnectBackoffInitial;
    for (int i = 1; i < core.consecutiveFailures && delay < core.options.reconnectBackoffMax; ++i) {
        delay *= 2;
    }
    delay = std::min(delay, core.options.reconnectBackoffMax);
    core.nextAttempt = std::chrono::steady_clock::now() + delay;
}

void resetFailures(ClientCore& core) {
    std::lock_guard lock(core.downstreamMutex);
    core.consecutiveFailures = 0;
    core.nextAttempt = {};
}

}  // namespace

Result<std::unique_ptr<QueuesClient>> QueuesClient::create(ClientOptions options) {
    auto core = detail::makeClientCore(std::move(options));
    if (!core.ok()) {
        return core.error();
    }
    return std::unique_ptr<QueuesClient>(new QueuesClient(std::move(core).value()));
}

QueuesClient::QueuesClient(std::shared_ptr<ClientCore> core) : core_(std::move(core)) {}

QueuesClient::~QueuesClient() {
    shutdown();
    std::shared_ptr<DownstreamSession> session;
    {
        std::lock_guard lock(core_->downstreamMutex);
        session = std::move(core_->downstream);
    }
    if (session) {
        session->join();
    }
}

const ClientOptions& QueuesClient::options() const {
    return core_->options;
}

Result<ServerInfo> QueuesClient::ping() {
    auto response = detail::unaryCall<kubemq::PingResult>(
        *core_, "ping", core_->options.callTimeout, false,
        [](kubemq::kubemq::Stub& stub, grpc::ClientContext* context, kubemq::PingResult* out) {
            return stub.Ping(context, kubemq::Empty(), out);
        });
    if (!response.ok()) {
        return response.error();
    }
    return detail::fromProto(response.value());
}

Result<SendResult> QueuesClient::send(QueueMessage message) {
    if (message.clientId.empty()) {
        message.clientId = core_->options.clientId;
    }
    if (core_->options.validateArguments) {
        if (auto error = checkMessage(message)) {
            return *error;
        }
    }
    kubemq::QueueMessage request;
    detail::toProto(message, &request);
    auto response = detail::unaryCall<kubemq::SendQueueMessageResult>(
        *core_, "send", core_->options.callTimeout, true,
        [&](kubemq::kubemq::Stub& stub, grpc::ClientContext* context,
            kubemq::SendQueueMessageResult* out) {
            return stub.SendQueueMessage(context, request, out);
        });
    if (!response.ok()) {
        return response.error();
    }
    return detail::fromProto(response.value());
}

Result<BatchSendResult> QueuesClient::sendBatch(std::vector<QueueMessage> messages,
                                                std::string batchId) {
    if (core_->options.validateArguments && messages.empty()) {
        return Error{ErrorCategory::InvalidArgument, "batch is empty: no messages to send", 0};
    }
    kubemq::QueueMessagesBatchRequest request;
    request.set_batchid(batchId.empty() ? newUuid() : batchId);
    for (std::size_t i = 0; i < messages.size(); ++i) {
        QueueMessage& message = messages[i];
        if (message.clientId.empty()) {
            message.clientId = core_->options.clientId;
        }
        if (core_->options.validateArguments) {
            if (auto error = checkMessage(message)) {
                error->message = "batch message " + std::to_string(i) + ": " + error->message;
                return *error;
            }
        }
        detail::toProto(message, request.add_messages());
    }
    auto response = detail::unaryCall<kubemq::QueueMessagesBatchResponse>(
        *core_, "send batch", core_->options.callTimeout, true,
        [&](kubemq::kubemq::Stub& stub, grpc::ClientContext* context,
            kubemq::QueueMessagesBatchResponse* out) {
            return stub.SendQueueMessagesBatch(context, request, out);
        });
    if (!response.ok()) {
        return response.error();
    }
    BatchSendResult out;
    out.batchId = response->batchid();
    out.haveErrors = response->haveerrors();
    for (const auto& result : response->results()) {
        out.results.push_back(detail::fromProto(result));
    }
    return out;
}

std::unique_ptr<QueueUpstream> QueuesClient::openUpstream() {
    auto session = std::make_shared<detail::UpstreamSession>(core_);
    {
        std::lock_guard lock(core_->upstreamMutex);
        auto& list = core_->upstreams;
        list.erase(std::remove_if(list.begin(), list.end(),
                                  [](const auto& weak) { return weak.expired(); }),
                   list.end());
        list.push_back(session);
    }
    return std::unique_ptr<QueueUpstream>(new QueueUpstream(std::move(session)));
}

Result<ReceivedBatch> QueuesClient::receive(const std::string& channel, int maxMessages,
                                            std::chrono::milliseconds waitTimeout, bool autoAck) {
    const std::uint64_t epoch = core_->cancelEpoch.load();
    if (core_->shutdown.load()) {
        return core_->cancelledError("receive");
    }
    if (core_->options.validateArguments) {
        if (auto error = checkChannelName(channel)) {
            return *error;
        }
        if (auto error = checkMaxMessages(maxMessages)) {
            return *error;
        }
        if (auto error = checkWaitTimeout(waitTimeout)) {
            return *error;
        }
    }
    std::unique_lock receiveLock(core_->receiveMutex);
    if (core_->isCancelled(epoch)) {
        return core_->cancelledError("receive");
    }

    std::shared_ptr<DownstreamSession> session;
    std::shared_ptr<DownstreamSession> finished;
    std::chrono::steady_clock::time_point nextAttempt;
    {
        std::lock_guard lock(core_->downstreamMutex);
        if (core_->downstream && core_->downstream->isEnded()) {
            finished = std::move(core_->downstream);
        }
        session = core_->downstream;
        nextAttempt = core_->nextAttempt;
    }
    if (finished) {
        finished->join();
        finished.reset();
    }
    bool fresh = false;
    if (!session) {
        if (std::chrono::steady_clock::now() < nextAttempt &&
            !core_->sleepUntil(nextAttempt, epoch)) {
            return core_->cancelledError("receive");
        }
        if (auto connected = core_->ensureConnected(epoch); !connected.ok()) {
            if (connected.error().category == ErrorCategory::Unavailable) {
                recordFailure(*core_);
            }
            return connected.error();
        }
        session = std::make_shared<DownstreamSession>(*core_, core_->errors);
        {
            std::lock_guard lock(core_->downstreamMutex);
            core_->downstream = session;
        }
        fresh = true;
        if (core_->isCancelled(epoch)) {
            session->end(detail::StreamEndReason::Cancelled);
            return core_->cancelledError("receive");
        }
    }

    kubemq::QueuesDownstreamRequest request;
    request.set_requestid(newUuid());
    request.set_clientid(core_->options.clientId);
    request.set_requesttypedata(kubemq::Get);
    request.set_channel(channel);
    request.set_maxitems(maxMessages);
    const auto waitMs = std::clamp<std::int64_t>(waitTimeout.count(), 0, INT_MAX);
    request.set_waittimeout(static_cast<int>(waitMs));  // milliseconds on the wire
    request.set_autoack(autoAck);

    // The server waits at least 1 s whatever was asked.
    const auto serverWait = std::max<std::chrono::milliseconds>(std::chrono::milliseconds(waitMs),
                                                                std::chrono::seconds(1));
    const auto deadline = std::chrono::steady_clock::now() + serverWait + core_->options.pollGrace;
    auto response = session->get(request, deadline, fresh);
    if (!response.ok()) {
        const ErrorCategory category = response.error().category;
        if (category == ErrorCategory::StreamLost || category == ErrorCategory::Unavailable ||
            category == ErrorCategory::Timeout) {
            recordFailure(*core_);
        }
        return response.error();
    }
    resetFailures(*core_);
    if (response->iserror()) {
        return Error{ErrorCategory::ServerError, response->error(), 0};
    }
    return detail::Transaction::makeBatch(session, response.value(), channel,
                                          core_->options.clientId, autoAck,
                                          core_->options.validateArguments);
}

Result<StreamMessage> QueuesClient::receiveStreamMessage(const std::string& channel,
                                                         std::chrono::milliseconds waitTimeout,
                                                         std::chrono::seconds visibility) {
    constexpr std::string_view what = "v1 receive";
    const std::uint64_t epoch = core_->cancelEpoch.load();
    if (core_->shutdown.load()) {
        return core_->cancelledError(what);
    }
    if (core_->options.validateArguments) {
        if (auto error = checkChannelName(channel)) {
            return *error;
        }
        if (auto error = checkWaitTimeout(waitTimeout)) {
            return *error;
        }
        if (auto error = checkVisibility(visibility)) {
            return *error;
        }
    }
    if (auto connected = core_->ensureConnected(epoch); !connected.ok()) {
        return connected.error();
    }
    auto session = std::make_shared<detail::MessageStreamSession>(core_);
    core_->registerMessageStream(session);
    kubemq::StreamQueueMessagesRequest request;
    std::string requestId = newUuid();
    request.set_requestid(requestId);
    request.set_clientid(core_->options.clientId);
    request.set_streamrequesttypedata(kubemq::ReceiveMessage);
    request.set_channel(channel);
    request.set_waittimeseconds(wholeSecondsRoundedUp(waitTimeout));
    request.set_visibilityseconds(static_cast<int>(visibility.count()));
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::seconds(std::max(request.waittimeseconds(), 1)) +
                          core_->options.pollGrace;
    auto answer = session->call(std::move(request), deadline, epoch, what);
    const auto arrived = std::chrono::steady_clock::now();
    if (!answer.ok()) {
        // KubeMQ v2.4.0 can lose its Error 138 as it loses a settlement's
        // answer (StreamMessage::answerLostAfterSuccess): a clean end with no
        // answer is a receive that got nothing.
        const Error& error = answer.error();
        if (error.category == ErrorCategory::StreamLost && error.grpcCode == 0) {
            return Error{ErrorCategory::Timeout,
                         std::string(what) + ": the server ended the stream unanswered: no message",
                         0};
        }
        return error;
    }
    if (answer->iserror()) {
        // Error 138 (nothing within the wait) ends the stream: an empty poll.
        const bool nothing = answer->error().starts_with("Error 138");
        return Error{nothing ? ErrorCategory::Timeout : ErrorCategory::ServerError,
                     answer->error(), 0};
    }
    if (!answer->has_message()) {
        return Error{ErrorCategory::ServerError, "v1 receive: the answer carries no message", 0};
    }
    return StreamMessage(std::move(session), detail::fromProto(answer->message()),
                         std::move(requestId), arrived + visibility);
}

namespace {

Result<PullResult> receiveUnary(ClientCore& core, const std::string& channel, int maxMessages,
                                std::chrono::milliseconds waitTimeout, bool peek) {
    std::string_view what = peek ? "peek" : "pull";
    if (core.options.validateArguments) {
        if (auto error = checkChannelName(channel)) {
            return *error;
        }
        if (auto error = checkMaxMessages(maxMessages)) {
            return *error;
        }
        if (auto error = checkWaitTimeout(waitTimeout)) {
            return *error;
        }
    }
    kubemq::ReceiveQueueMessagesRequest request;
    request.set_requestid(newUuid());
    request.set_clientid(core.options.clientId);
    request.set_channel(channel);
    request.set_maxnumberofmessages(maxMessages);
    request.set_waittimeseconds(wholeSecondsRoundedUp(waitTimeout));
    request.set_ispeak(peek);
    const auto timeout =
        std::chrono::seconds(std::max(request.waittimeseconds(), 1)) + core.options.pollGrace;
    auto response = detail::unaryCall<kubemq::ReceiveQueueMessagesResponse>(
        core, what, timeout, true,
        [&](kubemq::kubemq::Stub& stub, grpc::ClientContext* context,
            kubemq::ReceiveQueueMessagesResponse* out) {
            return stub.ReceiveQueueMessages(context, request, out);
        });
    if (!response.ok()) {
        return response.error();
    }
    if (response->iserror()) {
        return Error{ErrorCategory::ServerError, response->error(), 0};
    }
    PullResult out;
    out.isPeek = response->ispeak();
    out.messagesReceived = response->messagesreceived();
    out.messagesExpired = response->messagesexpired();
    for (const auto& message : response->messages()) {
        out.messages.push_back(detail::fromProto(message));
    }
    return out;
}

}  // namespace

Result<PullResult> QueuesClient::peek(const std::string& channel, int maxMessages,
                                      std::chrono::milliseconds waitTimeout) {
    return receiveUnary(*core_, channel, maxMessages, waitTimeout, true);
}

Result<PullResult> QueuesClient::pull(const std::string& channel, int maxMessages,
                                      std::chrono::milliseconds waitTimeout) {
    return receiveUnary(*core_, channel, maxMessages, waitTimeout, false);
}

Result<std::uint64_t> QueuesClient::ackAllQueueMessages(const std::string& channel,
                                                        std::chrono::milliseconds waitTimeout,
                                                        const std::string& requestId) {
    if (core_->options.validateArguments) {
        if (auto error = checkChannelName(channel)) {
            return *error;
        }
        if (auto error = checkWaitTimeout(waitTimeout)) {
            return *error;
        }
    }
    kubemq::AckAllQueueMessagesRequest request;
    request.set_requestid(requestId.empty() ? newUuid() : requestId);
    request.set_clientid(core_->options.clientId);
    request.set_channel(channel);
    request.set_waittimeseconds(wholeSecondsRoundedUp(waitTimeout));
    const auto timeout =
        std::chrono::seconds(std::max(request.waittimeseconds(), 1)) + core_->options.pollGrace;
    auto response = detail::unaryCall<kubemq::AckAllQueueMessagesResponse>(
        *core_, "ack all", timeout, true,
        [&](kubemq::kubemq::Stub& stub, grpc::ClientContext* context,
            kubemq::AckAllQueueMessagesResponse* out) {
            return stub.AckAllQueueMessages(context, request, out);
        });
    if (!response.ok()) {
        return response.error();
    }
    if (response->iserror()) {
        return Error{ErrorCategory::ServerError, response->error(), 0};
    }
    return static_cast<std::uint64_t>(response->affectedmessages());
}

Result<std::uint64_t> QueuesClient::purgeQueue(const std::string& name,
                                               std::chrono::milliseconds waitTimeout,
                                               const std::string& requestId) {
    return ackAllQueueMessages(name, waitTimeout, requestId);
}

void QueuesClient::setSettlementErrorHandler(std::function<void(const SettlementError&)> handler) {
    core_->errors->setHandler(std::move(handler));
}

std::vector<SettlementError> QueuesClient::takeSettlementErrors() {
    return core_->errors->take();
}

void QueuesClient::cancel() {
    core_->cancelAll();
}

void QueuesClient::shutdown() {
    core_->shutdown.store(true);
    core_->closeDownstreamGracefully();
    core_->cancelAll();
}

bool QueuesClient::isShutdown() const {
    return core_->shutdown.load();
}

void QueuesClient::abandon() {
    core_->abandonStreams();
}

}  // namespace qs::client
