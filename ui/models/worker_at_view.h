#pragma once

#include <vector>

#include "run/run_state.h"
#include "workers/worker_state.h"

namespace qs {
class Run;
}

// What a worker card shows of a worker at a past instant (or of a recorded
// run), read from the core state at the time cursor: its lifecycle, its
// counters then, and the tasks it held then as its batch. The same value
// the live pool hands the cards (workers::WorkerSnapshot), so one card draws both.
namespace qs::ui {

// The card's state word for a worker at an instant: its last lifecycle event,
// "processing" while it held tasks, "idle" between batches.
workers::WorkerState workerStateAt(const WorkerAt& worker);

// Every worker of `state` (of `run`), first seen first.
std::vector<workers::WorkerSnapshot> workerSnapshotsAt(const Run& run, const RunState& state);

}  // namespace qs::ui
