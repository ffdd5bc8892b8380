#include "controllers/time_cursor.h"

#include <algorithm>

#include "controllers/console_run.h"
#include "run/run.h"

namespace qs::ui {

TimeCursor::TimeCursor(const ConsoleRun* run, QObject* parent) : QObject(parent), run_(run) {
    connect(run_, &ConsoleRun::appended, this, &TimeCursor::runAppended);
    connect(run_, &ConsoleRun::wasReset, this, &TimeCursor::runReset);
}

std::int64_t TimeCursor::startNs() const {
    const Run& run = run_->run();
    return run.eventCount() == 0 ? 0 : run.streamTimeNs(0);
}

std::int64_t TimeCursor::headNs() const {
    const Run& run = run_->run();
    return run.eventCount() == 0 ? 0 : run.streamTimeNs(run.eventCount() - 1);
}

std::int64_t TimeCursor::timeNs() const {
    return fixedNs_.value_or(headNs());
}

std::uint64_t TimeCursor::eventCount() const {
    const Run& run = run_->run();
    return fixedNs_ ? run.eventCountAt(*fixedNs_) : run.eventCount();
}

const RunState& TimeCursor::state() const {
    if (!state_) {
        const Run& run = run_->run();
        state_ = fixedNs_ ? run.stateAt(*fixedNs_) : run.head();
    }
    return *state_;
}

void TimeCursor::moveTo(std::int64_t timeNs) {
    const std::int64_t t = std::clamp(timeNs, startNs(), std::max(startNs(), headNs()));
    const bool wasLive = isLive();
    if (fixedNs_ == t) {
        return;
    }
    fixedNs_ = t;
    state_.reset();
    if (wasLive) {
        Q_EMIT liveChanged(false);
    }
    Q_EMIT moved();
}

void TimeCursor::goLive() {
    if (isLive()) {
        return;
    }
    fixedNs_.reset();
    state_.reset();
    Q_EMIT liveChanged(true);
    Q_EMIT moved();
}

bool TimeCursor::jump(Landmark landmark, bool forward) {
    const Run& run = run_->run();
    const std::int64_t t = timeNs();
    // Forward: the first landmark after every event shown; back: the last one
    // whose stream time is before t (the one at t is where the cursor is).
    const std::optional<std::uint64_t> found =
        forward ? nextLandmark(run, eventCount(), landmark)
                : previousLandmark(run, run.eventCountAt(t - 1), landmark);
    if (!found || run.eventCount() == 0) {
        return false;
    }
    moveTo(run.streamTimeNs(*found));
    return true;
}

void TimeCursor::runAppended() {
    Q_EMIT rangeChanged();
    if (isLive()) {
        state_.reset();
        Q_EMIT moved();
    }
}

void TimeCursor::runReset() {
    const bool wasLive = isLive();
    fixedNs_.reset();
    state_.reset();
    if (!wasLive) {
        Q_EMIT liveChanged(true);
    }
    Q_EMIT rangeChanged();
    Q_EMIT moved();
}

}  // namespace qs::ui
