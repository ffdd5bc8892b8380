#include "runner/timeline_step.h"

#include <algorithm>
#include <cmath>

#include "common/protocol_limits.h"
#include "runner/pool_patch.h"
#include "workers/worker_pool.h"

namespace qs::runner {

namespace {

std::string noWorker(const std::string& id) {
    return "no worker " + id;
}

// Why `id` did not restart: it is alive (polling, paused, waiting for its
// automatic restart...) or its new client could not be created.
std::string restartRefused(const workers::WorkerPool& pool, const std::string& id) {
    const auto snap = pool.workerSnapshot(id);
    if (!snap) {
        return noWorker(id);
    }
    if (snap->state != workers::WorkerState::Crashed &&
        snap->state != workers::WorkerState::Stopped) {
        return id + " was not restarted: it is " + std::string(workers::toString(snap->state));
    }
    return id + " was not restarted: " +
           (snap->lastError.empty() ? std::string("it did not start") : snap->lastError);
}

void applySet(workers::WorkerPool& pool, const TimelineAction& action, TimelineStepResult& out) {
    std::string error;
    if (!action.worker.empty()) {
        auto current = pool.workerConfig(action.worker);
        if (!current) {
            out.warnings.push_back(noWorker(action.worker));
            return;
        }
        action.patch.applyTo(*current);
        if (!pool.setWorkerConfig(action.worker, *current, &error)) {
            out.warnings.push_back(error);
        }
        return;
    }
    const workers::WorkerConfig after = applyPoolWidePatch(pool, action.patch, &out.warnings);
    if (pool.setConfig(after, &error)) {
        out.sharedConfig = after;
    } else {
        out.warnings.push_back(error);
    }
}

}  // namespace

TimelineStepResult applyTimelineAction(workers::WorkerPool& pool, const TimelineAction& action) {
    TimelineStepResult out;
    const std::string& id = action.worker;
    auto check = [&](bool found, const std::string& who) {
        if (!found) {
            out.warnings.push_back(noWorker(who));
        }
    };
    const bool needsWorker = action.kind == ActionKind::Crash ||
                             action.kind == ActionKind::Restart || action.kind == ActionKind::Stop;
    if (needsWorker && id.empty()) {
        out.warnings.push_back("'" + std::string(toString(action.kind)) + "' needs a worker");
        return out;
    }
    switch (action.kind) {
        case ActionKind::Crash:
            check(pool.crash(id), id);
            break;
        case ActionKind::Restart:
            if (!pool.restart(id)) {
                out.warnings.push_back(restartRefused(pool, id));
            }
            break;
        case ActionKind::Stop:
            check(pool.stopWorker(id), id);
            break;
        case ActionKind::Pause:
            if (id.empty()) {
                pool.pauseAll();
            } else {
                check(pool.pause(id), id);
            }
            break;
        case ActionKind::Resume:
            if (id.empty()) {
                pool.resumeAll();
            } else {
                check(pool.resume(id), id);
            }
            break;
        case ActionKind::Slowdown:
            if (!(std::isfinite(action.factor) && action.factor > 0.0)) {
                out.warnings.push_back("factor must be a number > 0");
                break;
            }
            // Every worker of the pool at this moment, or the one named.
            for (const auto& target : id.empty() ? pool.workerIds() : std::vector{id}) {
                check(pool.setSlowdown(target, action.factor), target);
            }
            break;
        case ActionKind::Set:
            applySet(pool, action, out);
            break;
        case ActionKind::Redrive:
            out.warnings.push_back("a redrive is run by the scenario's driver, not the pool");
            break;
        case ActionKind::Scale: {
            const int before = pool.size();
            std::string error;
            if (!pool.scaleTo(action.count, &error)) {
                if (error.empty()) {
                    error = "the pool did not reach " + std::to_string(action.count) + " workers";
                }
                out.warnings.push_back(error);
            }
            // A failed growth may still have started some of the workers.
            out.workersChanged = pool.size() != before;
            break;
        }
    }
    return out;
}

RedriveOptions redriveOptionsFor(const TimelineAction& action) {
    RedriveOptions options;
    options.from = action.from;
    options.to = action.to;
    options.maxReceiveCount = action.maxReceiveCount;
    return options;
}

int redriveBatchFor(const std::vector<std::string>& ids) {
    return std::clamp(static_cast<int>(ids.size()), 1, protocol::kMaxNumberOfMessages.max);
}

}  // namespace qs::runner
