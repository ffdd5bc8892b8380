#pragma once

#include "common/limit.h"

// The limits of the KubeMQ queues protocol, as kubemq-community v2.4.0
// applies them with its default configuration (spec §2.15, §2.3, §2.8.2,
// §2.10, §2.11). The embedded broker enforces them with the real server's
// error texts; the client checks them before sending, as the official SDKs
// do; the pool and producer settings are built on them
// (workers/setting_limits.h).
namespace qs::protocol {

// ReceiveQueueMessages (pull / peek) MaxNumberOfMessages: Error 122 outside.
// Not applied by the server to a QueuesDownstream Get's MaxItems, which has
// no maximum (spec §2.8.2; a real v2.4.0 served Gets of MaxItems 1025 and
// 2000). Clients keep their Gets within it, as the Python SDK does.
inline constexpr Limit<int> kMaxNumberOfMessages{"max messages", 1, 1024, 1};

// Wait of pull / peek / AckAll / v1 ReceiveMessage in seconds: Error 136
// outside; 0 means 1 s. A downstream Get's WaitTimeout (ms) has no maximum.
inline constexpr Limit<int> kWaitTimeSeconds{"wait timeout", 0, 3600, 1, "seconds"};

// Message policy (spec §2.3): Error 133 / 135 / 134 outside. A max receive
// count of 0 means the server's maximum, 1024 (spec §2.7).
inline constexpr Limit<int> kExpirationSeconds{"expiration seconds", 0, 43200, 0};
inline constexpr Limit<int> kDelaySeconds{"delay seconds", 0, 43200, 0};
inline constexpr Limit<int> kMaxReceiveCount{"max receive count", 0, 1024, 0};
inline constexpr int kDefaultMaxReceiveCount = kMaxReceiveCount.max;

// v1 StreamQueueMessage visibility in seconds: Error 127 outside; 0 means 60.
inline constexpr Limit<int> kVisibilitySeconds{"visibility seconds", 0, 43200, 60};

// QueuesDownstream Get: a WaitTimeout under 1000 ms becomes 1000; a MaxItems
// <= 0 becomes 200000 (spec §2.8.2).
inline constexpr int kDownstreamMinWaitMs = 1000;
inline constexpr int kDownstreamDefaultMaxItems = 200000;

}  // namespace qs::protocol
