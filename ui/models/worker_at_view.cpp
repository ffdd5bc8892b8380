#include "models/worker_at_view.h"

#include <string>

#include "run/run.h"

namespace qs::ui {

using workers::WorkerState;

WorkerState workerStateAt(const WorkerAt& worker) {
    if (!worker.lifecycle) {
        return worker.holding > 0 ? WorkerState::Processing : WorkerState::Starting;
    }
    switch (*worker.lifecycle) {
        case EventKind::WorkerPaused:
            return WorkerState::Paused;
        case EventKind::WorkerCrashed:
            return WorkerState::Crashed;
        case EventKind::WorkerStopped:
            return WorkerState::Stopped;
        default:  // started, resumed, reconnected
            return worker.holding > 0 ? WorkerState::Processing : WorkerState::Idle;
    }
}

namespace {

workers::WorkerCounters countersOf(const WorkerAt& w) {
    workers::WorkerCounters c;
    c.polls = static_cast<std::uint64_t>(w.count(WorkerCounter::Polls));
    c.emptyPolls = static_cast<std::uint64_t>(w.count(WorkerCounter::EmptyPolls));
    c.received = static_cast<std::uint64_t>(w.count(WorkerCounter::Received));
    c.redelivered = static_cast<std::uint64_t>(w.count(WorkerCounter::Redelivered));
    c.acked = static_cast<std::uint64_t>(w.count(WorkerCounter::Acked));
    c.rejected = static_cast<std::uint64_t>(w.count(WorkerCounter::Rejected));
    c.requeued = static_cast<std::uint64_t>(w.count(WorkerCounter::Requeued));
    c.abandoned = static_cast<std::uint64_t>(w.count(WorkerCounter::Returned));
    c.crashes = static_cast<std::uint64_t>(w.count(WorkerCounter::Crashes));
    c.errors = static_cast<std::uint64_t>(w.count(WorkerCounter::Errors));
    c.busyNs = w.count(WorkerCounter::BusyNs);
    return c;
}

}  // namespace

std::vector<workers::WorkerSnapshot> workerSnapshotsAt(const Run& run, const RunState& state) {
    std::vector<workers::WorkerSnapshot> out;
    out.reserve(state.workers.size());
    for (const WorkerAt& w : state.workers) {
        workers::WorkerSnapshot s;
        s.id = std::string(w.worker.view());
        s.state = workerStateAt(w);
        s.counters = countersOf(w);
        out.push_back(std::move(s));
    }
    // The tasks each one held then: its batch as the card draws it.
    for (std::uint32_t i = 0; i < state.messages.size(); ++i) {
        const MessageAt& m = state.messages[i];
        if (m.state != MessageState::InFlight) {
            continue;
        }
        for (workers::WorkerSnapshot& s : out) {
            if (s.id == m.worker.view()) {
                workers::BatchItem item;
                item.messageId = std::string(run.messageId(i));
                item.receiveCount = m.receiveCount;
                item.redelivered = m.deliveries > 1;
                s.batch.push_back(std::move(item));
                break;
            }
        }
    }
    return out;
}

}  // namespace qs::ui
