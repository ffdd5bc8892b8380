#pragma once

#include <string>
#include <vector>

#include "runner/scenario.h"
#include "workers/worker_config.h"

namespace qs::workers {
class WorkerPool;
}

// A scenario's pool-wide "set" step. The shared configuration is what workers
// without their own start from; a worker given its own configuration earlier
// (a per-worker "set") gets the same patch applied to it, so a pool-wide
// change reaches every worker. The headless runner and the console's scenario
// player both take it from here, so a scenario behaves the same in both.
namespace qs::runner {

// Patches the workers that have their own configuration and returns the
// patched shared configuration, which the caller installs (the runner with
// WorkerPool::setConfig, the console through its run controller, which also
// moves its sliders). A worker that refuses its patched configuration is
// reported in `problems` ("worker-2: <error>") and keeps its old one.
// Threading: whatever thread may call the pool's setters (they do not block).
workers::WorkerConfig applyPoolWidePatch(workers::WorkerPool& pool, const ConfigPatch& patch,
                                         std::vector<std::string>* problems);

}  // namespace qs::runner
