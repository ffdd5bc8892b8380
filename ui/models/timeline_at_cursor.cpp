#include "models/timeline_at_cursor.h"

#include <algorithm>

#include "run/leases.h"
#include "run/run.h"

namespace qs::ui {

namespace {
// Retention as the live timeline's, but never shorter than the window shown.
std::int64_t retentionFor(std::int64_t lookBackNs) {
    return std::max<std::int64_t>(180'000'000'000LL, lookBackNs);
}
}  // namespace

TimelineAtCursor::TimelineAtCursor(std::uint64_t checkpointInterval)
    : interval_(std::max<std::uint64_t>(1, checkpointInterval)) {}

void TimelineAtCursor::clear() {
    model_.clear();
    run_ = nullptr;
    runEvents_ = 0;
    timeNs_ = 0;
    windowStartNs_ = 0;
    fromStart_ = false;
    holdsRun_ = false;
    checkpoints_.clear();
    handOuts_.clear();
    lastFed_ = 0;
    incremental_ = false;
}

bool TimelineAtCursor::prepare(const Run& run, std::uint64_t toEvent, std::int64_t lookBackNs,
                               std::uint64_t maxEvents) {
    if (run_ != &run) {
        clear();
    }
    toEvent = std::min<std::uint64_t>(toEvent, run.eventCount());
    if (run_ == nullptr || !holdsRun_ || !fromStart_ || runEvents_ > toEvent ||
        model_.retentionNs() < lookBackNs) {
        run_ = &run;
        startFromRunStart(run, lookBackNs, checkpointFor(toEvent, lookBackNs));
    }
    lastFed_ = 0;
    incremental_ = false;
    feed(run, std::min(toEvent, runEvents_ + maxEvents));
    // The model is the run at its newest event fed (a showAt() there feeds
    // on to the other events of the same instant, if any).
    timeNs_ = runEvents_ == 0 ? windowStartNs_ : run.streamTimeNs(runEvents_ - 1);
    return runEvents_ >= toEvent;
}

void TimelineAtCursor::showAt(const Run& run, std::int64_t timeNs, std::int64_t lookBackNs) {
    if (run_ != &run) {
        clear();
    }
    const std::uint64_t upTo = run.eventCountAt(timeNs);
    const Checkpoint* ahead = checkpointFor(upTo, lookBackNs);
    const bool forward = run_ == &run && holdsRun_ && timeNs >= timeNs_ && upTo >= runEvents_ &&
                         (fromStart_ || timeNs - lookBackNs >= windowStartNs_) &&
                         lookBackNs <= model_.retentionNs() &&
                         (ahead == nullptr || ahead->events <= runEvents_);
    incremental_ = forward;
    lastFed_ = 0;
    if (forward) {
        feed(run, upTo);
        timeNs_ = timeNs;
    } else {
        rebuild(run, timeNs, lookBackNs);
    }
}

void TimelineAtCursor::keepOnlyCheckpoints() {
    model_ = TimelineModel();
    holdsRun_ = false;
    runEvents_ = 0;
    lastFed_ = 0;
}

// The newest checkpoint at or before event upTo that holds a window of lookBackNs.
const TimelineAtCursor::Checkpoint* TimelineAtCursor::checkpointFor(std::uint64_t upTo,
                                                                    std::int64_t lookBackNs) const {
    for (auto it = checkpoints_.rbegin(); it != checkpoints_.rend(); ++it) {
        if (it->events <= upTo && it->model.retentionNs() >= lookBackNs) {
            return &*it;
        }
    }
    return nullptr;
}

void TimelineAtCursor::rebuild(const Run& run, std::int64_t timeNs, std::int64_t lookBackNs) {
    run_ = &run;
    timeNs_ = timeNs;
    const std::uint64_t upTo = run.eventCountAt(timeNs);
    const std::int64_t windowStart = timeNs - lookBackNs;
    const Checkpoint* from = checkpointFor(upTo, lookBackNs);
    const std::uint64_t fromStartCost = upTo - (from != nullptr ? from->events : 0);
    const bool windowBeforeRun = run.eventCount() == 0 || windowStart < run.streamTimeNs(0);
    if (windowBeforeRun || fromStartCost <= upTo - run.eventCountAt(windowStart)) {
        startFromRunStart(run, lookBackNs, from);
    } else {
        startFromWindow(run, lookBackNs);
    }
    feed(run, upTo);
}

void TimelineAtCursor::startFromRunStart(const Run& run, std::int64_t lookBackNs,
                                         const Checkpoint* from) {
    fromStart_ = true;
    holdsRun_ = true;
    windowStartNs_ = run.eventCount() == 0 ? 0 : run.streamTimeNs(0);
    if (from != nullptr) {
        model_ = from->model;
        model_.rebuildSpans();
        runEvents_ = from->events;
        sincePrune_ = from->sincePrune;
        return;
    }
    model_.clear();
    model_.setRetentionNs(retentionFor(lookBackNs));
    runEvents_ = 0;
    sincePrune_ = 0;
}

// The lanes and open hand-outs at the window start come from the Run's state
// there (a checkpoint and a short replay), the rest from its events.
void TimelineAtCursor::startFromWindow(const Run& run, std::int64_t lookBackNs) {
    fromStart_ = false;
    holdsRun_ = true;
    model_.clear();
    model_.setRetentionNs(retentionFor(lookBackNs));
    windowStartNs_ = timeNs_ - lookBackNs;
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
}

// Pruned as the live timeline is (it prunes every few batches), so a long
// playback keeps the retention window, not the whole run.
void TimelineAtCursor::feed(const Run& run, std::uint64_t toEvent) {
    lastFed_ += toEvent - std::min(runEvents_, toEvent);
    while (runEvents_ < toEvent) {
        if (!TimelineModel::reads(run.eventKind(runEvents_))) {
            model_.noteTime(run.eventTimeNs(runEvents_));  // not decoded: nothing else changes
        } else if (fromStart_) {
            const Event& e = run.event(runEvents_);
            model_.applyEvent(e, e.kind == EventKind::MessageAssigned &&
                                     handOuts_.handedOutBefore(run, runEvents_, e));
        } else {
            model_.applyEvent(run.event(runEvents_));
        }
        ++runEvents_;
        if (++sincePrune_ == kPruneEvery) {
            sincePrune_ = 0;
            model_.prune();
        }
        if (fromStart_ && runEvents_ % interval_ == 0) {
            takeCheckpoint();
        }
    }
}

void TimelineAtCursor::takeCheckpoint() {
    if (!checkpoints_.empty() && checkpoints_.back().events >= runEvents_) {
        return;  // taken on an earlier way here
    }
    checkpoints_.push_back({runEvents_, sincePrune_, model_});
    checkpoints_.back().model.dropSpans();  // nobody paints a checkpoint
    if (checkpoints_.size() > kMaxCheckpoints) {
        // Every other one goes: those left are every 2 * interval_ events.
        std::vector<Checkpoint> kept;
        kept.reserve(kMaxCheckpoints);
        for (Checkpoint& c : checkpoints_) {
            if (c.events % (2 * interval_) == 0) {
                kept.push_back(std::move(c));
            }
        }
        checkpoints_ = std::move(kept);
        interval_ *= 2;
    }
}

}  // namespace qs::ui
