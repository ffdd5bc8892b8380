#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runner/scenario.h"
#include "workers/worker_config.h"

namespace qs::workers {
class WorkerPool;
}

// One timeline action of a scenario (crash, restart, stop, pause, resume,
// slowdown, set, scale) applied to a worker pool. The headless runner and the
// console's scenario player both apply their actions through here, so a
// scenario does the same in both and its problems are worded the same way.
namespace qs::runner {

struct TimelineStepResult {
    // What did not happen as asked, one line each and without the action's own
    // description ("no worker worker-9", "worker-2: <error>", a scale error):
    // the runner reports "<describe()>: <warning>", the console appends
    // " (<warning>)". Whatever else the action asked for is still done.
    std::vector<std::string> warnings;
    // After a pool-wide "set" the pool accepted: its new shared configuration,
    // already installed, for a caller that mirrors it (the console's sliders).
    std::optional<workers::WorkerConfig> sharedConfig;
    // A "scale" added or removed workers (views listing them must refresh).
    bool workersChanged = false;
};

// Applies `action` to `pool` now (its `at` is the caller's business).
// Threading: the thread that drives the run (the runner's thread, the
// console's UI thread); the pool itself is thread-safe. Returns without
// waiting for a poll or a work step, except "stop" and a "scale" down, which
// cancel the stopped workers' polls and join their threads (bounded by
// cancellation, not by the poll's wait), and a "scale" up, which creates the
// new workers' clients.
TimelineStepResult applyTimelineAction(workers::WorkerPool& pool, const TimelineAction& action);

}  // namespace qs::runner
