#include "broker/channel_management.h"

#include <nlohmann/json.hpp>

#include "broker/channel_name.h"
#include "broker/kubemq_errors.h"
#include "common/clock.h"

namespace qs::broker {

namespace {
constexpr std::int64_t kActiveWindowMs = 300000;

std::string tag(const kubemq::Request& request, const std::string& key) {
    auto it = request.tags().find(key);
    return it == request.tags().end() ? std::string() : it->second;
}

nlohmann::json statsObject(std::uint64_t messages, std::uint64_t volume,
                           const ChannelStats& stats) {
    return nlohmann::json{{"messages", messages},
                          {"volume", volume},
                          {"waiting", stats.readyMessages},
                          {"expired", stats.expiredMessages},
                          {"delayed", stats.delayedMessages}};
}

std::string listChannels(QueueEngine& engine, const std::string& filter) {
    const std::int64_t nowMs = unixNanos() / 1000000;
    nlohmann::json list = nlohmann::json::array();
    for (const auto& channel : engine.channels()) {
        if (!filter.empty() && channel->name().find(filter) == std::string::npos)
            continue;
        const ChannelStats stats = channel->stats();
        list.push_back(nlohmann::json{
            {"name", channel->name()},
            {"type", "queues"},
            {"lastActivity", stats.lastActivityMs},
            {"isActive", stats.consumers > 0 || nowMs - stats.lastActivityMs < kActiveWindowMs},
            // An extra key of the KubeMQ dashboard's channel DTO (SDKs ignore
            // it): the consumers polling now, as QueuesInfo's Subscribers.
            {"clients", stats.consumers},
            {"incoming", statsObject(stats.sentMessages, stats.sentBytes, stats)},
            {"outgoing", statsObject(stats.deliveredMessages, stats.deliveredBytes, stats)},
        });
    }
    return list.dump();
}
}  // namespace

kubemq::Response handleChannelManagement(QueueEngine& engine, const kubemq::Request& request) {
    kubemq::Response response;
    response.set_clientid(request.clientid());
    response.set_requestid(request.requestid());
    response.set_timestamp(unixNanos());
    auto fail = [&](std::string error) {
        response.set_executed(false);
        response.set_error(std::move(error));
        return response;
    };

    const std::string& operation = request.metadata();
    const std::string type = tag(request, "channel_type");
    const bool queues = type == "queues";
    if (operation == "list-channels") {
        std::string filter = tag(request, "channel_search");
        if (filter.empty())
            filter = tag(request, "search");
        if (!queues && type != "events" && type != "events_store" && type != "commands" &&
            type != "queries")
            return fail("invalid channel type '" + type + "'");
        // This broker serves queues only; the other kinds are always empty.
        response.set_body(queues ? listChannels(engine, filter) : std::string("[]"));
        response.set_executed(true);
        return response;
    }
    if (operation != "create-channel" && operation != "delete-channel")
        return fail("unknown channel management request '" + operation + "'");
    if (!queues)
        return fail("channel type '" + type + "' is not supported by this broker (queues only)");
    const std::string name = tag(request, "channel");
    if (operation == "create-channel") {
        if (checkChannelName(name) != ChannelNameCheck::Valid)
            return fail(errors::kQueueName);
        engine.channel(name);
    } else if (!engine.deleteChannel(name)) {
        return fail("queue channel '" + name + "' not found");
    }
    response.set_executed(true);
    return response;
}

}  // namespace qs::broker
