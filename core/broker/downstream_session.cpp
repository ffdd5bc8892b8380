#include "broker/downstream_session.h"

#include <google/protobuf/arena.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "broker/channel_name.h"
#include "broker/consumer_wait.h"
#include "broker/kubemq_errors.h"
#include "broker/message_codec.h"
#include "common/ids.h"
#include "common/protocol_limits.h"

namespace qs::broker {

namespace {
constexpr const char* kNotFound = "transaction is completed or transaction id not found";
}

DownstreamSession::DownstreamSession(ServiceContext& context, grpc::ServerContext& server,
                                     Stream& stream)
    : context_(context), server_(server), stream_(stream) {}

DownstreamSession::~DownstreamSession() {
    closeAll();
}

grpc::Status DownstreamSession::run() {
    bool announced = false;
    kubemq::QueuesDownstreamRequest request;
    while (!broken_ && stream_.Read(&request)) {
        if (!announced) {
            clientId_ = request.clientid();
            context_.clientEvent(true, clientId_, server_.peer(), "QueuesDownstream");
            announced = true;
        }
        handle(request);
    }
    // Client half-close, cancel, or broker stop: in-flight work was answered
    // (requests run one at a time), so end the RPC (spec §5.3).
    closeAll();
    if (!announced)
        context_.clientEvent(true, {}, server_.peer(), "QueuesDownstream");
    context_.clientEvent(false, clientId_, server_.peer(), "QueuesDownstream");
    return grpc::Status::OK;
}

void DownstreamSession::handle(const kubemq::QueuesDownstreamRequest& request) {
    if (request.requesttypedata() == kubemq::Get)
        get(request);
    else
        settle(request);
}

void DownstreamSession::get(const kubemq::QueuesDownstreamRequest& request) {
    const std::string transactionId = newUuid();
    if (request.clientid().empty())
        return sendError(request, transactionId, kubemq::Get, errors::kClientId);
    const auto nameCheck = checkChannelName(request.channel());
    if (nameCheck == ChannelNameCheck::Invalid)
        return sendError(request, transactionId, kubemq::Get, errors::kQueueName);
    if (nameCheck != ChannelNameCheck::Valid)
        return sendError(request, transactionId, kubemq::Get, errors::kSubscribe);

    // No upper bound on either, as on the real server (spec §2.8.2): MaxItems
    // 1025 and more are served, unlike a pull's MaxNumberOfMessages.
    const int waitMs = std::max(request.waittimeout(), protocol::kDownstreamMinWaitMs);
    const int maxItems =
        request.maxitems() <= 0 ? protocol::kDownstreamDefaultMaxItems : request.maxitems();
    auto channel = context_.engine.channel(request.channel());
    const Actor actor{request.clientid(), transactionId};
    std::vector<StoredMessage> messages;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(waitMs);
    collectWaiting(
        context_.engine, *channel, maxItems, CollectOptions{CheckOrder::ExpiryFirst, true},
        deadline, [this] { return server_.IsCancelled(); }, messages, actor);

    if (server_.IsCancelled() || context_.engine.stopping()) {
        // Nobody will read the response: return what was collected (an
        // improvement over v2.4.0, which finished the wait first).
        for (const auto& message : messages)
            context_.engine.giveBack(*channel, message.sequence, actor);
        broken_ = true;
        return;
    }

    Transaction transaction;
    transaction.channel = channel;
    transaction.clientId = request.clientid();
    // One arena for the whole response: a Get of many messages would otherwise
    // cost several allocations per message.
    google::protobuf::Arena arena;
    auto& response =
        *google::protobuf::Arena::CreateMessage<kubemq::QueuesDownstreamResponse>(&arena);
    response.set_transactionid(transactionId);
    response.set_refrequestid(request.requestid());
    response.set_requesttypedata(kubemq::Get);
    response.mutable_messages()->Reserve(static_cast<int>(messages.size()));
    std::optional<EventSink::Group> autoAcks;  // the auto-acks' events in one hand-over
    std::optional<QueueEngine::CommitScope> autoAckCommit;  // and records in one write
    if (request.autoack()) {
        autoAckCommit.emplace(context_.engine);
        autoAcks.emplace(context_.events);
    }
    for (const auto& message : messages) {
        decodeMessage(message, channel->name(), response.add_messages());
        if (request.autoack())
            context_.engine.ack(*channel, message.sequence, actor);
        else
            transaction.unsettled.insert(transaction.unsettled.end(), message.sequence);
    }
    autoAcks.reset();
    autoAckCommit.reset();
    transaction.closed = transaction.unsettled.empty();
    if (transaction.closed)
        transaction.channel.reset();
    transactions_.emplace(transactionId, std::move(transaction));
    write(response);
}

void DownstreamSession::settle(const kubemq::QueuesDownstreamRequest& request) {
    const std::string& id = request.reftransactionid();
    const auto type = request.requesttypedata();
    auto it = transactions_.find(id);
    if (it == transactions_.end())
        return sendError(request, id, type, kNotFound);
    Transaction& transaction = it->second;
    const Actor actor{transaction.clientId, id};
    QueueEngine& engine = context_.engine;
    // A range settles many messages: their events reach the observer at once,
    // their records reach the store in one write.
    const QueueEngine::CommitScope commit(context_.engine);
    const EventSink::Group group(context_.events);
    const auto& range = request.sequencerange();

    auto invalid = [&](const char* what, std::int64_t sequence) {
        sendError(request, id, type,
                  std::string("invalid ") + what + " sequence id " + std::to_string(sequence));
    };
    auto take = [&](std::int64_t sequence) {
        return sequence > 0 &&
               transaction.unsettled.erase(static_cast<std::uint64_t>(sequence)) > 0;
    };
    auto closeIfDone = [&] {
        if (transaction.unsettled.empty())
            closeTransaction(id, transaction);
    };

    switch (type) {
        case kubemq::AckAll:
            if (transaction.closed)
                return sendError(request, id, type, "cannot ack messages with closed response ");
            for (auto sequence : transaction.unsettled)
                engine.ack(*transaction.channel, sequence, actor);
            transaction.unsettled.clear();
            return closeTransaction(id, transaction);
        case kubemq::AckRange:
            if (transaction.closed)
                return sendError(request, id, type, "cannot ack messages with closed response ");
            if (range.empty())
                return sendError(request, id, type, "cannot ack empty list of of offsets");
            for (auto sequence : range) {
                if (!take(sequence)) {
                    invalid("ack", sequence);
                    break;
                }
                engine.ack(*transaction.channel, static_cast<std::uint64_t>(sequence), actor);
            }
            return closeIfDone();
        case kubemq::NAckAll:
            if (transaction.closed)
                return sendError(request, id, type, "cannot nack messages with closed response ");
            for (auto sequence : transaction.unsettled)
                engine.nack(*transaction.channel, sequence, actor);
            transaction.unsettled.clear();
            return closeTransaction(id, transaction);
        case kubemq::NAckRange:
            if (transaction.closed)
                return sendError(request, id, type, "cannot nack messages with closed response ");
            if (range.empty())
                return sendError(request, id, type, "cannot nack empty list of of offsets");
            for (auto sequence : range) {
                if (!take(sequence)) {
                    invalid("nack", sequence);
                    break;
                }
                engine.nack(*transaction.channel, static_cast<std::uint64_t>(sequence), actor);
            }
            return closeIfDone();
        case kubemq::ReQueueAll:
        case kubemq::ReQueueRange: {
            const bool all = type == kubemq::ReQueueAll;
            if (transaction.closed)
                return sendError(request, id, type,
                                 all ? "cannot ack messages with closed response "
                                     : "cannot requeue messages with closed response ");
            if (request.requeuechannel().empty())
                return sendError(request, id, type,
                                 "cannot requeue messages with empty channel destination ");
            if (!all && range.empty())
                return sendError(request, id, type, "cannot requeue empty list of of offsets");
            std::vector<std::int64_t> targets;
            if (all)
                targets.assign(transaction.unsettled.begin(), transaction.unsettled.end());
            else
                targets.assign(range.begin(), range.end());
            for (auto sequence : targets) {
                if (!all && (sequence <= 0 || !transaction.unsettled.contains(
                                                  static_cast<std::uint64_t>(sequence)))) {
                    invalid("ack", sequence);
                    break;
                }
                const auto error =
                    engine.requeue(*transaction.channel, static_cast<std::uint64_t>(sequence),
                                   request.requeuechannel(), actor);
                if (error) {
                    sendError(request, id, type,
                              "re-queue message with seq " + std::to_string(sequence) +
                                  " failed, " + *error);
                    break;
                }
                transaction.unsettled.erase(static_cast<std::uint64_t>(sequence));
            }
            return closeIfDone();
        }
        case kubemq::ActiveOffsets: {
            if (transaction.closed)
                return sendError(request, id, type,
                                 "cannot get active offsets with closed response ");
            kubemq::QueuesDownstreamResponse response;
            response.set_transactionid(id);
            response.set_refrequestid(request.requestid());
            response.set_requesttypedata(kubemq::ActiveOffsets);
            for (auto sequence : transaction.unsettled)
                response.add_activeoffsets(static_cast<std::int64_t>(sequence));
            return write(response);
        }
        case kubemq::CloseByClient:
            return closeTransaction(id, transaction);
        default:
            return sendError(request, id, kubemq::PollRequestTypeUnknown, "request unknown");
    }
}

void DownstreamSession::closeTransaction(const std::string& id, Transaction& transaction) {
    if (transaction.closed)
        return;
    const Actor actor{transaction.clientId, id};
    for (auto sequence : transaction.unsettled)
        context_.engine.giveBack(*transaction.channel, sequence, actor);
    transaction.unsettled.clear();
    transaction.closed = true;
    transaction.channel.reset();
}

void DownstreamSession::closeAll() {
    for (auto& [id, transaction] : transactions_)
        closeTransaction(id, transaction);
}

void DownstreamSession::sendError(const kubemq::QueuesDownstreamRequest& request,
                                  const std::string& transactionId,
                                  kubemq::QueuesDownstreamRequestType type,
                                  std::string_view error) {
    kubemq::QueuesDownstreamResponse response;
    response.set_transactionid(transactionId);
    response.set_refrequestid(request.requestid());
    response.set_requesttypedata(type);
    response.set_iserror(true);
    response.set_error(std::string(error));
    context_.logError("QueuesDownstream", clientId_, error);
    write(response);
}

void DownstreamSession::write(const kubemq::QueuesDownstreamResponse& response) {
    if (broken_)
        return;
    if (!stream_.Write(response))
        broken_ = true;
}

}  // namespace qs::broker
