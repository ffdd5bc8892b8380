#include "models/charts_at_cursor.h"

#include <algorithm>

#include "run/run.h"

namespace qs::ui {

namespace {
constexpr std::int64_t kSecondNs = 1'000'000'000LL;
}

ChartsAtCursor::ChartsAtCursor(std::uint64_t checkpointInterval)
    : interval_(std::max<std::uint64_t>(1, checkpointInterval)) {}

void ChartsAtCursor::setLatencyLookup(std::function<std::int64_t(const Event&)> fn) {
    latency_ = std::move(fn);
    model_.setLatencyLookup(latency_);
    checkpoints_.clear();  // their latency bins came from the previous lookup
}

void ChartsAtCursor::clear() {
    model_.clear();
    run_ = nullptr;
    state_ = RunState{};
    fed_ = 0;
    inSecond_ = false;
    fromStart_ = false;
    checkpoints_.clear();
    handOuts_.clear();
    timeNs_ = 0;
    lastFed_ = 0;
    incremental_ = false;
}

void ChartsAtCursor::useRun(const Run& run, const std::string& channel) {
    if (run_ != &run || channel != channel_) {
        clear();
        run_ = &run;
        channel_ = channel;
    }
}

void ChartsAtCursor::showAt(const Run& run, const std::string& channel, std::int64_t timeNs) {
    const std::uint64_t upTo = run.eventCountAt(timeNs);
    useRun(run, channel);
    // Forward from here, unless a checkpoint past here is nearer to t.
    const Checkpoint* nearest = checkpointAtOrBefore(upTo);
    const bool checkpointAhead = nearest != nullptr && nearest->events > fed_;
    incremental_ = timeNs >= timeNs_ && upTo >= fed_ && fed_ > 0 && !checkpointAhead;
    if (!incremental_) {
        restart(run, upTo);
    }
    const std::uint64_t before = fed_;
    feed(run, upTo);
    lastFed_ = fed_ - before;
    // The second cut short at t and the depth sampled at t are the cursor's,
    // not a feed from the start's: no checkpoint from here on.
    fromStart_ = false;
    moveState(run, upTo);
    timeNs_ = timeNs;
    sampleDepth(timeNs);
}

bool ChartsAtCursor::prepare(const Run& run, const std::string& channel, std::uint64_t toEvent,
                             std::uint64_t maxEvents) {
    useRun(run, channel);
    toEvent = std::min<std::uint64_t>(toEvent, run.eventCount());
    if (!fromStart_ || fed_ > toEvent) {
        restart(run, toEvent);
    }
    const std::uint64_t before = fed_;
    const std::uint64_t to = std::min(toEvent, fed_ + maxEvents);
    while (fed_ < to) {
        feedInSecond(run, to);
        if (fed_ < to) {
            endSecond(run);  // the next event is in a later second
        }
    }
    lastFed_ = fed_ - before;
    incremental_ = false;
    timeNs_ = fed_ == 0 ? 0 : run.streamTimeNs(fed_ - 1);
    return fed_ >= toEvent;
}

const ChartsAtCursor::Checkpoint* ChartsAtCursor::checkpointAtOrBefore(std::uint64_t events) const {
    const auto after =
        std::upper_bound(checkpoints_.begin(), checkpoints_.end(), events,
                         [](std::uint64_t n, const Checkpoint& c) { return n < c.events; });
    return after == checkpoints_.begin() ? nullptr : &*std::prev(after);
}

// From the newest checkpoint at or before `upTo`, or from the run's start.
void ChartsAtCursor::restart(const Run& run, std::uint64_t upTo) {
    const Checkpoint* from = checkpointAtOrBefore(upTo);
    fromStart_ = true;
    if (from == nullptr) {
        model_.clear();
        state_ = run.stateAfter(0);
        fed_ = 0;
        inSecond_ = false;
        // Seconds count from the run's first event, as the transport bar's time does.
        if (run.eventCount() > 0) {
            model_.setOriginNs(run.eventTimeNs(0));
        }
        return;
    }
    model_.restore(from->model);
    state_ = run.stateAfter(from->stateEvents);
    fed_ = from->events;
    secondStartNs_ = from->secondStartNs;
    inSecond_ = true;
}

// The events a second at a time, as the pump hands them to the live charts,
// the depth sampled after each second as the live console samples it; the
// second holding event toEvent - 1 ends there (also when a checkpoint left
// off exactly at toEvent, inside that second).
void ChartsAtCursor::feed(const Run& run, std::uint64_t toEvent) {
    while (fed_ < toEvent || inSecond_) {
        feedInSecond(run, toEvent);
        endSecond(run);
    }
}

void ChartsAtCursor::feedInSecond(const Run& run, std::uint64_t toEvent) {
    if (!inSecond_) {
        secondStartNs_ = run.eventTimeNs(fed_);
        inSecond_ = true;
    }
    while (fed_ < toEvent && run.eventTimeNs(fed_) - secondStartNs_ < kSecondNs) {
        applyEvent(run, fed_);
        ++fed_;
        if (fromStart_ && fed_ % interval_ == 0 &&
            (checkpoints_.empty() || checkpoints_.back().events < fed_)) {
            checkpoints_.push_back({fed_, state_.events, secondStartNs_, model_});
        }
    }
}

// The depth sampled after the second, as the live console samples it.
void ChartsAtCursor::endSecond(const Run& run) {
    moveState(run, fed_);
    sampleDepth(run.eventTimeNs(fed_ - 1));
    inSecond_ = false;
}

// Forward by replaying the changes in between, or, when that is more than
// the Run keeps between its own checkpoints (a dense second restarted from
// its start), from the Run's nearest checkpoint: the same state either way.
void ChartsAtCursor::moveState(const Run& run, std::uint64_t events) {
    if (events > state_.events + run.options().checkpointInterval) {
        state_ = run.stateAfter(events);
    } else {
        run.advance(state_, events);
    }
}

void ChartsAtCursor::applyEvent(const Run& run, std::uint64_t index) {
    if (!ChartsModel::reads(run.eventKind(index))) {
        return;  // not decoded: it would change nothing
    }
    const Event& e = run.event(index);
    model_.applyEvent(
        e, e.kind == EventKind::MessageAssigned && handOuts_.handedOutBefore(run, index, e));
}

void ChartsAtCursor::sampleDepth(std::int64_t timeNs) {
    const ChannelAt* c = state_.channel(channel_);
    model_.sampleDepth(timeNs, c ? static_cast<qint64>(c->count(MessageState::Waiting)) : 0,
                       c ? static_cast<qint64>(c->count(MessageState::InFlight)) : 0);
}

}  // namespace qs::ui
