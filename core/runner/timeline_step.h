#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runner/redrive.h"
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
// A "redrive" is not the pool's business: it moves messages between
// channels with a client, blocking for seconds, so each driver runs it where
// it may wait (the runner's thread, a thread of the console's) with these
// options (the action's channels and policy; cancel, progress and report are
// the caller's), and reports each move into the run (RedriveOptions::report).
// Here it only warns.
TimelineStepResult applyTimelineAction(workers::WorkerPool& pool, const TimelineAction& action);

RedriveOptions redriveOptionsFor(const TimelineAction& action);

// Messages per receive for a redrive of exactly `ids`: all of them at once
// (a receive returns when its batch is full, else after its wait).
int redriveBatchFor(const std::vector<std::string>& ids);

}  // namespace qs::runner
