#pragma once

#include <QObject>
#include <cstdint>
#include <optional>

#include "run/run_landmarks.h"
#include "run/run_state.h"

// The instant the console shows: the run's head (live, the default) or a
// fixed stream time t (Run::streamTimeNs). A fixed cursor stays at t while
// the run goes on; every view reads the core state there (Run::stateAt) and
// keeps no copy of its own. Going live shows the head again.
//
// Threading: UI thread only (it reads the ConsoleRun's Run).
namespace qs::ui {

class ConsoleRun;

class TimeCursor : public QObject {
    Q_OBJECT
public:
    // `run` is not owned and must outlive the cursor.
    explicit TimeCursor(const ConsoleRun* run, QObject* parent = nullptr);

    bool isLive() const { return !fixedNs_.has_value(); }
    // The stream time shown: the fixed t, or the newest event's (0 = no event).
    std::int64_t timeNs() const;
    // Events shown: those with stream time <= t (all of them when live).
    std::uint64_t eventCount() const;
    // The state at the cursor (a copy of the run's messages, made once per
    // move, or once per append for the head: live views read the head in place).
    const RunState& state() const;
    // The run's first and newest stream times (0 = no event yet).
    std::int64_t startNs() const;
    std::int64_t headNs() const;

public Q_SLOTS:
    // Fixes the cursor at t, clamped to the run's start and head.
    void moveTo(std::int64_t timeNs);
    void goLive();
    // To the next (later than t) / previous (earlier than t) `landmark`;
    // false, and the cursor stays, when there is none.
    bool jump(qs::Landmark landmark, bool forward);

Q_SIGNALS:
    void moved();          // the state shown changed (a move, or the head grew while live)
    void liveChanged(bool live);
    void rangeChanged();   // the run grew or was reset: startNs() / headNs() changed

private:
    void runAppended();
    void runReset();

    const ConsoleRun* run_;
    std::optional<std::int64_t> fixedNs_;
    mutable std::optional<RunState> state_;  // of the cursor now; reset when it moves
};

}  // namespace qs::ui
