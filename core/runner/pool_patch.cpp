#include "runner/pool_patch.h"

#include "workers/worker_pool.h"

namespace qs::runner {

workers::WorkerConfig applyPoolWidePatch(workers::WorkerPool& pool, const ConfigPatch& patch,
                                         std::vector<std::string>* problems) {
    const workers::WorkerConfig before = pool.config();
    for (const auto& id : pool.workerIds()) {
        auto own = pool.workerConfig(id);
        if (!own || *own == before)
            continue;  // follows the shared configuration
        patch.applyTo(*own);
        std::string error;
        if (!pool.setWorkerConfig(id, *own, &error) && problems != nullptr)
            problems->push_back(id + ": " + error);
    }
    workers::WorkerConfig after = before;
    patch.applyTo(after);
    return after;
}

}  // namespace qs::runner
