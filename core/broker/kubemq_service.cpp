#include "broker/kubemq_service.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "broker/channel_management.h"
#include "broker/channel_name.h"
#include "broker/consumer_wait.h"
#include "broker/downstream_session.h"
#include "broker/kubemq_errors.h"
#include "broker/message_codec.h"
#include "broker/stream_message_session.h"
#include "broker/upstream_session.h"
#include "common/clock.h"
#include "common/ids.h"
#include "common/protocol_limits.h"

namespace qs::broker {

namespace {
grpc::Status unsupported(std::string_view what) {
    return grpc::Status(
        grpc::StatusCode::UNIMPLEMENTED,
        std::string(what) + " is not supported: queuescope-broker serves the queues API only");
}

// Channel-level check shared by the receive paths: 120, then 121.
std::string_view receiveChannelError(const std::string& channel) {
    switch (checkChannelName(channel)) {
        case ChannelNameCheck::Valid:
            return {};
        case ChannelNameCheck::Invalid:
            return errors::kQueueName;
        case ChannelNameCheck::PublishRejected:
        case ChannelNameCheck::ReceiveRejected:
            return errors::kSubscribe;
    }
    return {};
}

// The request checks ReceiveQueueMessages and AckAllQueueMessages share, in the
// order the server applies them: client id, channel name, max messages (pulls
// only), wait time, then the channel's receive restrictions. Empty = passed.
std::string_view pullRequestError(const std::string& clientId, const std::string& channel,
                                  std::optional<int> maxMessages, int waitSeconds) {
    if (clientId.empty())
        return errors::kClientId;
    if (checkChannelName(channel) == ChannelNameCheck::Invalid)
        return errors::kQueueName;
    if (maxMessages && !protocol::kMaxNumberOfMessages.contains(*maxMessages))
        return errors::kMaxMessages;
    if (!protocol::kWaitTimeSeconds.contains(waitSeconds))
        return errors::kWaitTimeout;
    return receiveChannelError(channel);
}

// The start of every RPC but Ping (and StreamQueueMessage, whose reactor checks
// for itself): the auth check of spec §2.16, metadata `authorization`. A refused
// caller gets the gate's status and `body` never runs.
template <typename Body>
grpc::Status authorized(const ServiceContext& context, const grpc::ServerContextBase& server,
                        Body&& body) {
    if (auto status = context.authorize(server); !status.ok())
        return status;
    return std::forward<Body>(body)();
}

// The start the two pull RPCs share once authorized: the reply echoes the
// RequestID (a fresh NUID when empty, spec §2.10), then pullRequestError()'s
// checks run; a failed check is answered in-band (IsError, Error) and logged.
// True when the request may go on.
template <typename Request, typename Reply>
bool acceptPull(const ServiceContext& context, std::string_view rpc, const Request& request,
                std::optional<int> maxMessages, Reply& reply) {
    reply.set_requestid(request.requestid().empty() ? newNuid() : request.requestid());
    const std::string_view error = pullRequestError(request.clientid(), request.channel(),
                                                    maxMessages, request.waittimeseconds());
    if (error.empty())
        return true;
    reply.set_iserror(true);
    reply.set_error(std::string(error));
    context.logError(rpc, request.clientid(), error);
    return false;
}
}  // namespace

std::string pingHostName(std::string hostName) {
    std::replace(hostName.begin(), hostName.end(), '.', '_');
    if (!hostName.empty() && std::isdigit(static_cast<unsigned char>(hostName.front())) != 0)
        hostName = "kubemq-" + hostName;
    return hostName;
}

KubemqService::KubemqService(ServiceContext& context) : context_(context) {
    if (!context_.options.hostName.empty()) {
        host_ = context_.options.hostName;
    } else {
        char buffer[256] = {};
        if (gethostname(buffer, sizeof(buffer) - 1) != 0)
            buffer[0] = '\0';
        host_ = pingHostName(buffer[0] != '\0' ? std::string(buffer) : std::string("localhost"));
    }
}

grpc::Status KubemqService::Ping(grpc::ServerContext*, const kubemq::Empty*,
                                 kubemq::PingResult* reply) {
    reply->set_host(host_);
    reply->set_version(context_.options.version);
    reply->set_serverstarttime(context_.startUnixSeconds);
    reply->set_serveruptimeseconds(unixSeconds() - context_.startUnixSeconds);
    return grpc::Status::OK;
}

grpc::Status KubemqService::SendQueueMessage(grpc::ServerContext* server,
                                             const kubemq::QueueMessage* request,
                                             kubemq::SendQueueMessageResult* reply) {
    return authorized(context_, *server, [&] {
        QueueEngine::DeferredCommit commit(context_.engine);
        *reply = context_.sender.send(*request);
        if (!context_.engine.commit(commit.take()) && !reply->iserror()) {
            reply->set_iserror(true);
            reply->set_error(errors::kSendFailed);  // the store failed to write or fsync
        }
        if (reply->iserror())
            context_.logError("SendQueueMessage", request->clientid(), reply->error());
        return grpc::Status::OK;
    });
}

grpc::Status KubemqService::SendQueueMessagesBatch(grpc::ServerContext* server,
                                                   const kubemq::QueueMessagesBatchRequest* request,
                                                   kubemq::QueueMessagesBatchResponse* reply) {
    return authorized(context_, *server, [&] {
        if (request->messages().empty())
            return grpc::Status(grpc::StatusCode::UNKNOWN, "empty messages batch");
        reply->set_batchid(request->batchid());
        reply->mutable_results()->Reserve(request->messages_size());
        bool brokerFailure = false;
        const EventSink::Group group(context_.events);  // the batch's events in one hand-over
        QueueEngine::DeferredCommit commit(context_.engine);  // and one write / fsync
        for (const auto& message : request->messages())
            *reply->add_results() = context_.sender.send(message, &brokerFailure);
        const bool stored = context_.engine.commit(commit.take());
        for (int i = 0; i < reply->results_size(); ++i) {
            auto& result = *reply->mutable_results(i);
            if (!stored && !result.iserror()) {
                result.set_iserror(true);
                result.set_error(errors::kSendFailed);  // the store failed to write or fsync
                brokerFailure = true;
            }
            if (result.iserror())
                context_.logError("SendQueueMessagesBatch", request->messages(i).clientid(),
                                  result.error());
        }
        // Validation failures leave HaveErrors false (spec §2.10).
        reply->set_haveerrors(brokerFailure);
        return grpc::Status::OK;
    });
}

grpc::Status KubemqService::ReceiveQueueMessages(grpc::ServerContext* server,
                                                 const kubemq::ReceiveQueueMessagesRequest* request,
                                                 kubemq::ReceiveQueueMessagesResponse* reply) {
    return authorized(context_, *server, [&] {
        reply->set_ispeak(request->ispeak());
        if (!acceptPull(context_, "ReceiveQueueMessages", *request, request->maxnumberofmessages(),
                        *reply))
            return grpc::Status::OK;
        const int wait = std::max(request->waittimeseconds(),
                                  protocol::kWaitTimeSeconds.defaultValue);  // 0 = 1 s

        auto channel = context_.engine.channel(request->channel());
        const Actor actor{request->clientid(), reply->requestid()};
        std::vector<StoredMessage> messages;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(wait);
        const CollectResult result = collectWaiting(
            context_.engine, *channel, request->maxnumberofmessages(),
            CollectOptions{CheckOrder::PolicyFirst, false, request->ispeak()}, deadline,
            [server] { return server->IsCancelled(); }, messages, actor);
        const bool gone = server->IsCancelled();
        const QueueEngine::CommitScope commit(context_.engine);  // the acks in one write / fsync
        for (const auto& message : messages) {
            // Peeked messages, and pulled ones nobody will receive, go back to
            // their place (v2.4.0 loses the latter; spec §5.9). A peek was
            // reported as one (BrokerPeeked): its give-back is no event.
            if (request->ispeak() || gone)
                context_.engine.giveBack(*channel, message.sequence, actor, request->ispeak());
            else
                context_.engine.ack(*channel, message.sequence, actor);
        }
        if (gone)
            return grpc::Status(grpc::StatusCode::CANCELLED, "client cancelled");
        reply->mutable_messages()->Reserve(static_cast<int>(messages.size()));
        for (const auto& message : messages)
            decodeMessage(message, channel->name(), reply->add_messages());
        reply->set_messagesreceived(static_cast<int>(messages.size()));
        reply->set_messagesexpired(result.expired);
        return grpc::Status::OK;
    });
}

grpc::Status KubemqService::AckAllQueueMessages(grpc::ServerContext* server,
                                                const kubemq::AckAllQueueMessagesRequest* request,
                                                kubemq::AckAllQueueMessagesResponse* reply) {
    return authorized(context_, *server, [&] {
        if (!acceptPull(context_, "AckAllQueueMessages", *request, std::nullopt, *reply))
            return grpc::Status::OK;
        const int wait = std::max(request->waittimeseconds(),
                                  protocol::kWaitTimeSeconds.defaultValue);  // 0 = 1 s
        auto channel = context_.engine.channel(request->channel());
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(wait);
        const std::size_t affected = purgeWaiting(
            context_.engine, *channel, deadline, [server] { return server->IsCancelled(); },
            Actor{request->clientid(), reply->requestid()});
        reply->set_affectedmessages(affected);
        return grpc::Status::OK;
    });
}

grpc::Status KubemqService::QueuesInfo(grpc::ServerContext* server,
                                       const kubemq::QueuesInfoRequest* request,
                                       kubemq::QueuesInfoResponse* reply) {
    return authorized(context_, *server, [&] {
        reply->set_refrequestid(request->requestid());
        std::set<std::string, std::less<>> wanted;
        const std::string& names = request->queuename();
        for (std::size_t start = 0; start <= names.size();) {
            const std::size_t end = std::min(names.find(';', start), names.size());
            if (end > start)
                wanted.emplace(names.substr(start, end - start));
            start = end + 1;
        }
        auto* info = reply->mutable_info();
        for (const auto& channel : context_.engine.channels()) {
            if (!wanted.empty() && !wanted.contains(channel->name()))
                continue;
            const ChannelStats stats = channel->stats();
            auto* queue = info->add_queues();
            queue->set_name(channel->name());
            queue->set_messages(static_cast<std::int64_t>(stats.storedMessages));
            queue->set_bytes(static_cast<std::int64_t>(stats.storedBytes));
            queue->set_firstsequence(static_cast<std::int64_t>(stats.firstSequence));
            queue->set_lastsequence(static_cast<std::int64_t>(stats.lastSequence));
            queue->set_sent(static_cast<std::int64_t>(stats.sentMessages));
            queue->set_delivered(static_cast<std::int64_t>(stats.deliveredMessages));
            queue->set_waiting(static_cast<std::int64_t>(stats.readyMessages));
            queue->set_subscribers(stats.consumers);
            info->set_sent(info->sent() + queue->sent());
            info->set_delivered(info->delivered() + queue->delivered());
            info->set_waiting(info->waiting() + queue->waiting());
        }
        info->set_totalqueue(info->queues_size());
        return grpc::Status::OK;
    });
}

grpc::Status KubemqService::SendRequest(grpc::ServerContext* server, const kubemq::Request* request,
                                        kubemq::Response* reply) {
    return authorized(context_, *server, [&] {
        if (request->channel() != kChannelManagementChannel)
            return unsupported("SendRequest to channel '" + request->channel() +
                               "' (commands and queries)");
        *reply = handleChannelManagement(context_.engine, *request);
        if (!reply->error().empty())
            context_.log("channel management error: " + reply->error());
        return grpc::Status::OK;
    });
}

grpc::Status KubemqService::QueuesDownstream(
    grpc::ServerContext* server,
    grpc::ServerReaderWriter<kubemq::QueuesDownstreamResponse, kubemq::QueuesDownstreamRequest>*
        stream) {
    return authorized(context_, *server, [&] {
        DownstreamSession session(context_, *server, *stream);
        return session.run();
    });
}

grpc::Status KubemqService::QueuesUpstream(
    grpc::ServerContext* server,
    grpc::ServerReaderWriter<kubemq::QueuesUpstreamResponse, kubemq::QueuesUpstreamRequest>*
        stream) {
    return authorized(context_, *server, [&] { return runUpstream(context_, *server, *stream); });
}

grpc::ServerBidiReactor<kubemq::StreamQueueMessagesRequest, kubemq::StreamQueueMessagesResponse>*
KubemqService::StreamQueueMessage(grpc::CallbackServerContext* server) {
    return new StreamMessageSession(context_, server);
}

grpc::Status KubemqService::SendEvent(grpc::ServerContext* server, const kubemq::Event*,
                                      kubemq::Result*) {
    return authorized(context_, *server, [] { return unsupported("SendEvent (events)"); });
}

grpc::Status KubemqService::SendEventsStream(
    grpc::ServerContext* server, grpc::ServerReaderWriter<kubemq::Result, kubemq::Event>*) {
    return authorized(context_, *server, [] { return unsupported("SendEventsStream (events)"); });
}

grpc::Status KubemqService::SubscribeToEvents(grpc::ServerContext* server, const kubemq::Subscribe*,
                                              grpc::ServerWriter<kubemq::EventReceive>*) {
    return authorized(context_, *server, [] { return unsupported("SubscribeToEvents (events)"); });
}

grpc::Status KubemqService::SubscribeToRequests(grpc::ServerContext* server,
                                                const kubemq::Subscribe*,
                                                grpc::ServerWriter<kubemq::Request>*) {
    return authorized(context_, *server,
                      [] { return unsupported("SubscribeToRequests (commands and queries)"); });
}

grpc::Status KubemqService::SendResponse(grpc::ServerContext* server, const kubemq::Response*,
                                         kubemq::Empty*) {
    return authorized(context_, *server,
                      [] { return unsupported("SendResponse (commands and queries)"); });
}

}  // namespace qs::broker
