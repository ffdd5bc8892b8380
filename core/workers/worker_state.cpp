#include "workers/worker_state.h"

namespace qs::workers {

std::string_view toString(WorkerState state) {
    switch (state) {
        case WorkerState::Starting:
            return "starting";
        case WorkerState::Polling:
            return "polling";
        case WorkerState::Waiting:
            return "waiting";
        case WorkerState::Processing:
            return "processing";
        case WorkerState::Idle:
            return "idle";
        case WorkerState::Paused:
            return "paused";
        case WorkerState::Crashed:
            return "crashed";
        case WorkerState::Stopped:
            return "stopped";
    }
    return "unknown";
}

std::string_view toString(ItemStatus status) {
    switch (status) {
        case ItemStatus::Pending:
            return "pending";
        case ItemStatus::Working:
            return "working";
        case ItemStatus::Done:
            return "done";
        case ItemStatus::Acked:
            return "acked";
        case ItemStatus::Rejected:
            return "rejected";
        case ItemStatus::Requeued:
            return "requeued";
        case ItemStatus::AutoAcked:
            return "auto-acked";
        case ItemStatus::Abandoned:
            return "abandoned";
        case ItemStatus::VisibilityExpired:
            return "visibility expired";
    }
    return "unknown";
}

}  // namespace qs::workers
