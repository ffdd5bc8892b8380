#include "models/charts_at_cursor.h"

#include "run/run.h"

namespace qs::ui {

namespace {
constexpr std::int64_t kSecondNs = 1'000'000'000LL;
}

void ChartsAtCursor::setLatencyLookup(std::function<std::int64_t(const Event&)> fn) {
    latency_ = std::move(fn);
    model_.setLatencyLookup(latency_);
}

void ChartsAtCursor::clear() {
    model_.clear();
    run_ = nullptr;
    state_ = RunState{};
    timeNs_ = 0;
    incremental_ = false;
}

void ChartsAtCursor::showAt(const Run& run, const std::string& channel, std::int64_t timeNs) {
    const std::uint64_t upTo = run.eventCountAt(timeNs);
    incremental_ =
        run_ == &run && channel == channel_ && timeNs >= timeNs_ && upTo >= state_.events;
    if (!incremental_) {
        model_.clear();
        run_ = &run;
        channel_ = channel;
        state_ = run.stateAfter(0);
        // Seconds count from the run's first event, as the transport bar's time does.
        if (run.eventCount() > 0) {
            model_.setOriginNs(run.event(0).timeNs);
        }
    }
    feed(run, upTo);
    timeNs_ = timeNs;
    sampleDepth(timeNs);
}

// The events a second at a time, as the pump hands them to the live charts,
// the depth sampled after each second as the live console samples it.
void ChartsAtCursor::feed(const Run& run, std::uint64_t toEvent) {
    std::uint64_t next = state_.events;
    while (next < toEvent) {
        const std::int64_t secondStart = run.event(next).timeNs;
        std::uint64_t end = next;
        while (end < toEvent && run.event(end).timeNs - secondStart < kSecondNs) {
            model_.applyEvent(run.event(end));
            ++end;
        }
        run.advance(state_, end);
        sampleDepth(run.event(end - 1).timeNs);
        next = end;
    }
}

void ChartsAtCursor::sampleDepth(std::int64_t timeNs) {
    const ChannelAt* c = state_.channel(channel_);
    model_.sampleDepth(timeNs, c ? static_cast<qint64>(c->count(MessageState::Waiting)) : 0,
                       c ? static_cast<qint64>(c->count(MessageState::InFlight)) : 0);
}

}  // namespace qs::ui
