#include "broker/broker_metrics.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string_view>

namespace qs::broker {

namespace {

using metrics::MetricFamily;
using metrics::MetricType;

constexpr std::string_view kPrefix = "queuescope_broker_";

struct ChannelMetric {
    std::string_view name;  // after the prefix
    MetricType type;
    std::string_view help;
    std::function<double(const ChannelStats&)> value;
};

double count(std::uint64_t value) {
    return static_cast<double>(value);
}

const std::array<ChannelMetric, 11>& channelMetrics() {
    static const std::array<ChannelMetric, 11> all{{
        {"channel_messages_sent_total", MetricType::Counter,
         "Messages sent to the queue channel: sends, re-queues from other channels and v1 "
         "modified messages, delayed ones included.",
         [](const ChannelStats& s) { return count(s.acceptedMessages); }},
        {"channel_messages_delivered_total", MetricType::Counter,
         "Messages handed out to consumers (peeks and AckAllQueueMessages not included).",
         [](const ChannelStats& s) { return count(s.handedOutMessages); }},
        {"channel_messages_acked_total", MetricType::Counter,
         "Handed-out messages acked (auto-ack included), or replaced by a v1 modified message.",
         [](const ChannelStats& s) { return count(s.ackedMessages); }},
        {"channel_messages_rejected_total", MetricType::Counter,
         "Handed-out messages rejected (NAck, v1 reject, v1 visibility timeout or stream end).",
         [](const ChannelStats& s) { return count(s.rejectedMessages); }},
        {"channel_messages_expired_total", MetricType::Counter,
         "Messages removed because their expiration passed before a consumer got them.",
         [](const ChannelStats& s) { return count(s.expiredMessages); }},
        {"channel_messages_dead_lettered_total", MetricType::Counter,
         "Messages over their MaxReceiveCount: moved to their dead-letter channel, or dropped "
         "when they name none.",
         [](const ChannelStats& s) { return count(s.deadLetteredMessages); }},
        {"channel_messages_purged_total", MetricType::Counter,
         "Waiting messages removed by AckAllQueueMessages.",
         [](const ChannelStats& s) { return count(s.purgedMessages); }},
        {"channel_messages_waiting", MetricType::Gauge,
         "Messages ready to be handed out.",
         [](const ChannelStats& s) { return count(s.readyMessages); }},
        {"channel_messages_in_flight", MetricType::Gauge,
         "Messages handed out and neither acked nor rejected yet.",
         [](const ChannelStats& s) {
             return count(s.storedMessages > s.readyMessages ? s.storedMessages - s.readyMessages
                                                             : 0);
         }},
        {"channel_messages_delayed", MetricType::Gauge,
         "Messages sent with a delay that is not over yet.",
         [](const ChannelStats& s) { return count(s.delayedMessages); }},
        {"channel_consumers", MetricType::Gauge,
         "Consumers waiting on the channel now: long polls and open v1 streams.",
         [](const ChannelStats& s) { return static_cast<double>(s.consumers); }},
    }};
    return all;
}

MetricFamily family(std::string_view name, MetricType type, std::string_view help) {
    return MetricFamily{std::string(kPrefix) + std::string(name), std::string(help), type, {}};
}

}  // namespace

std::string grpcStatusCodeName(int code) {
    static constexpr std::array<std::string_view, 17> kNames{
        "OK",        "CANCELLED",          "UNKNOWN",           "INVALID_ARGUMENT",
        "DEADLINE_EXCEEDED", "NOT_FOUND",  "ALREADY_EXISTS",    "PERMISSION_DENIED",
        "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
        "UNIMPLEMENTED", "INTERNAL",       "UNAVAILABLE",       "DATA_LOSS",
        "UNAUTHENTICATED"};
    if (code >= 0 && code < static_cast<int>(kNames.size()))
        return std::string(kNames[static_cast<std::size_t>(code)]);
    return std::to_string(code);
}

std::vector<MetricFamily> brokerMetricFamilies(const std::vector<ChannelFigures>& channels,
                                               const RpcCounters::Figures& rpcs) {
    std::vector<MetricFamily> families;
    for (const ChannelMetric& metric : channelMetrics()) {
        MetricFamily& out = families.emplace_back(family(metric.name, metric.type, metric.help));
        for (const ChannelFigures& channel : channels)
            out.samples.push_back({{{"channel", channel.channel}}, metric.value(channel.stats)});
    }
    MetricFamily& requests = families.emplace_back(
        family("rpc_requests_total", MetricType::Counter,
               "gRPC calls received, by method (service kubemq.kubemq)."));
    for (const auto& [method, calls] : rpcs.requests)
        requests.samples.push_back({{{"method", method}}, count(calls)});
    MetricFamily& errors = families.emplace_back(family(
        "rpc_errors_total", MetricType::Counter,
        "gRPC calls that ended with a status other than OK, by method and status code. Errors "
        "KubeMQ answers inside an OK reply (IsError) are not counted here."));
    for (const auto& [key, calls] : rpcs.errors)
        errors.samples.push_back(
            {{{"method", key.first}, {"code", grpcStatusCodeName(key.second)}}, count(calls)});
    return families;
}

}  // namespace qs::broker
