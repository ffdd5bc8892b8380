#pragma once

#include <string>
#include <utility>
#include <vector>

#include "broker/queue_channel.h"
#include "broker/rpc_counters.h"
#include "metrics/exposition.h"

namespace qs::broker {

// One channel's figures as read at one instant.
struct ChannelFigures {
    std::string channel;
    ChannelStats stats;
};

// The broker's metric families (docs/broker.md, Metrics): per channel the
// message counters and the waiting / in-flight / delayed / consumer gauges,
// per RPC method the requests and the errors by gRPC status code. Every
// family is present, with no samples when there is nothing to show. Pure:
// the caller gathers the figures.
std::vector<metrics::MetricFamily> brokerMetricFamilies(const std::vector<ChannelFigures>& channels,
                                                        const RpcCounters::Figures& rpcs);

// A gRPC status code's canonical name ("INVALID_ARGUMENT"), or its number
// when it is not one of the 17 codes.
std::string grpcStatusCodeName(int code);

}  // namespace qs::broker
