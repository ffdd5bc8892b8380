#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace qs::client {

// One direction of a channel's traffic, as in the channel-management list
// contract (spec §2.12).
struct QueueStats {
    std::int64_t messages = 0;
    std::int64_t volume = 0;  // bytes
    std::int64_t waiting = 0;
    std::int64_t expired = 0;
    std::int64_t delayed = 0;
};

// Where a QueueChannelInfo came from.
enum class ChannelInfoSource {
    ChannelManagement,  // list-channels on kubemq.cluster.internal.requests
    QueuesInfo,         // the QueuesInfo RPC (fallback for servers without channel management)
};

// A queue channel and its statistics.
struct QueueChannelInfo {
    std::string name;
    std::string type = "queues";
    std::int64_t lastActivity = 0;  // Unix ms (0 when the source does not report it)
    bool isActive = false;
    QueueStats incoming;  // sent to the channel
    QueueStats outgoing;  // delivered from the channel
    ChannelInfoSource source = ChannelInfoSource::ChannelManagement;
    // Consumers polling the channel at the moment of the list: the list's
    // "clients" key (Queuescope's broker, the KubeMQ dashboard's DTO) or
    // QueuesInfo's Subscribers; -1 = the server does not say.
    std::int64_t clients = -1;
    // Only filled from QueuesInfo (zero otherwise):
    std::int64_t storedMessages = 0;
    std::int64_t storedBytes = 0;
    std::int64_t firstSequence = 0;
    std::int64_t lastSequence = 0;
    std::int64_t subscribers = 0;
};

// Server-wide totals of the QueuesInfo RPC plus the per-queue entries.
struct QueuesInfoSnapshot {
    int totalQueues = 0;
    std::int64_t sent = 0;
    std::int64_t delivered = 0;
    std::int64_t waiting = 0;
    std::vector<QueueChannelInfo> queues;  // source = QueuesInfo
};

}  // namespace qs::client
