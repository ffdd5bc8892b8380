#include "models/timeline_at_cursor.h"

#include <algorithm>

#include "run/leases.h"
#include "run/run.h"

namespace qs::ui {

void TimelineAtCursor::clear() {
    model_.clear();
    run_ = nullptr;
    runEvents_ = 0;
    timeNs_ = 0;
    windowStartNs_ = 0;
    incremental_ = false;
}

void TimelineAtCursor::showAt(const Run& run, std::int64_t timeNs, std::int64_t lookBackNs) {
    const std::uint64_t upTo = run.eventCountAt(timeNs);
    const bool forward = run_ == &run && timeNs >= timeNs_ && upTo >= runEvents_ &&
                         timeNs - lookBackNs >= windowStartNs_;
    incremental_ = forward;
    if (!forward) {
        rebuild(run, timeNs, lookBackNs);
        return;
    }
    feed(run, upTo);
    timeNs_ = timeNs;
}

// The lanes and open hand-outs at the window start come from the Run's state
// there (a checkpoint and a short replay), the rest from its events.
void TimelineAtCursor::rebuild(const Run& run, std::int64_t timeNs, std::int64_t lookBackNs) {
    model_.clear();
    // Retention as the live timeline's, but never shorter than the window shown.
    model_.setRetentionNs(std::max<std::int64_t>(180'000'000'000LL, lookBackNs));
    run_ = &run;
    timeNs_ = timeNs;
    windowStartNs_ = timeNs - lookBackNs;
    sincePrune_ = 0;
    const RunState start = run.stateAt(windowStartNs_);
    for (const WorkerAt& w : start.workers) {
        model_.addLane(w.worker.view(), w.lifecycle == EventKind::WorkerPaused,
                       w.lifecycle == EventKind::WorkerCrashed);
    }
    // Each hand-out still open at the window start, as its own event said it.
    for (const Lease& lease : leasesAt(run, start)) {
        Event e;
        e.timeNs = lease.handedOutNs > 0 ? lease.handedOutNs : windowStartNs_;  // 0 = unseen
        e.kind = EventKind::MessageAssigned;
        e.source = EventSource::Worker;
        e.actor = lease.worker;
        e.channel = lease.channel;
        e.messageId = run.messageId(lease.message);
        e.receiveCount = lease.receiveCount;
        e.transaction = lease.transaction;
        model_.applyEvent(e);
    }
    runEvents_ = start.events;
    feed(run, run.eventCountAt(timeNs));
}

// Pruned as the live timeline is (it prunes every few batches), so a long
// playback keeps the retention window, not the whole run.
void TimelineAtCursor::feed(const Run& run, std::uint64_t toEvent) {
    for (; runEvents_ < toEvent; ++runEvents_) {
        model_.applyEvent(run.event(runEvents_));
        if (++sincePrune_ == kPruneEvery) {
            sincePrune_ = 0;
            model_.prune();
        }
    }
}

}  // namespace qs::ui
