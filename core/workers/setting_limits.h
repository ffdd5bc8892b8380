#pragma once

#include "common/limit.h"
#include "common/protocol_limits.h"

// The range and default of every pool and producer setting, once: the
// configuration checks (WorkerConfig, WorkProfile, TaskSpec, WorkerPool), the
// scenario JSON, the headless command line and its usage text, and the
// console's sliders and spin boxes all read them from here. Constant data.
namespace qs::workers::limits {

// A poll's MaxItems, kept within the pull limit of the protocol: the server
// would serve a bigger downstream Get, but the client refuses one
// (client::checkMaxMessages) as the Python SDK does.
inline constexpr Limit<int> kBatchSize{"batch size", 1, protocol::kMaxNumberOfMessages.max, 1};

// A poll's wait. The client refuses more than the protocol's maximum wait;
// the broker raises anything under 1 s to 1 s (kept: it is the server's
// behaviour, not a limit of the setting).
inline constexpr Limit<int> kWaitMs{"wait timeout", 0, protocol::kWaitTimeSeconds.max * 1000, 1000,
                                    "ms"};

// A v1-stream worker's visibility timeout: how long the broker hides a
// message it handed out before taking it back. The protocol's range without
// its 0 (= the server's 60 s), which a worker never sends.
inline constexpr Limit<int> kVisibilitySeconds{"visibility timeout", 1,
                                               protocol::kVisibilitySeconds.max, 30, "s"};

// Simulated work per message. 24 h, the cap of every duration in a scenario,
// also keeps the duration's nanoseconds far inside 64 bits.
inline constexpr Limit<double> kWorkMs{"work duration", 0.0, 86'400'000.0, 100.0, "ms"};

// Probabilities per message.
inline constexpr Limit<double> kFailureRate{"failure rate", 0.0, 1.0, 0.0};
inline constexpr Limit<double> kCrashRate{"crash rate", 0.0, 1.0, 0.0};

// Polls before a worker stops by itself; 0 = never. Fits an int.
inline constexpr Limit<int> kMaxPolls{"max polls", 0, 1'000'000'000, 0};

// Delay before a crashed worker restarts; a negative value (the default)
// means it stays crashed. 24 h, like every duration in a scenario.
inline constexpr Limit<int> kRestartDelayMs{"restart delay", 0, 86'400'000, -1, "ms"};

// Workers in one pool: each is a thread and a connection of its own.
inline constexpr Limit<int> kWorkerCount{"worker count", 0, 1000, 3};

// Tasks one producer sends (task numbers 1..count; poison numbers likewise).
inline constexpr Limit<int> kTaskCount{"task count", 0, 100'000'000, 10};

// Steady sending rate; 0 = all at once. At the top the producer paces 10 µs
// apart, which is a burst in all but name: send at 0 for more.
inline constexpr Limit<double> kProducerRate{"rate", 0.0, 100'000.0, 0.0, "tasks/s"};

// The message policy the producer sends is the protocol's own
// (protocol::kDelaySeconds, kExpirationSeconds, kMaxReceiveCount).

}  // namespace qs::workers::limits
