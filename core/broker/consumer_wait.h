#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

#include "broker/queue_engine.h"

namespace qs::broker {

// Long-poll helpers shared by the receive paths. They block the calling
// (gRPC handler) thread until the consumer has what it asked for, the
// deadline passes, the engine stops, `cancelled()` turns true (polled every
// 100 ms) or the channel is deleted.
using Deadline = std::chrono::steady_clock::time_point;

CollectResult collectWaiting(QueueEngine& engine, QueueChannel& channel, int max,
                             const CollectOptions& options, Deadline deadline,
                             const std::function<bool()>& cancelled,
                             std::vector<StoredMessage>& out, const Actor& actor);

// The auto-ack consumer of AckAllQueueMessages: consumes every ready message
// until the deadline. Returns how many it consumed.
std::size_t purgeWaiting(QueueEngine& engine, QueueChannel& channel, Deadline deadline,
                         const std::function<bool()>& cancelled, const Actor& actor);

}  // namespace qs::broker
