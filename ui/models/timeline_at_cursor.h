#pragma once

#include <cstdint>
#include <vector>

#include "models/hand_out_history.h"
#include "models/timeline_model.h"

namespace qs {
class Run;
}

// The assignment timeline as it was at an instant t, projected from the core
// Run (docs/ui.md, "Time travel"): a TimelineModel fed the Run's own events
// up to t. Nothing after t is in it: a hand-out settled after t is still
// open, one begun after t is absent. It keeps no record of its own between
// moves; a move forward feeds only the events in between (playback at 16x).
//
// A move back, or one past what it holds, starts again by the cheaper of:
//  - the newest checkpoint at or before t: the model as a feed from the
//    run's first event had it every `checkpointInterval` events (copied
//    then; the model keeps no count of hand-outs here, hand_out_history.h),
//    then at most that many events. Checkpoints are taken on the way of a
//    feed from the run's start, so the first move to a late instant feeds
//    every event before it once, unless prepare() took them beforehand (a
//    recording takes them while it is opened); past kMaxCheckpoints every
//    other one goes and the interval doubles, so they never hold more than
//    that many copies (each about the bars of the retention window);
//  - a window start `lookBack` before t: the hand-outs still open there
//    (leasesAt(Run::stateAt(start))) and the lanes of the workers then,
//    then the events of the window. When the window starts before the run
//    does, both are a feed from the run's first event.
//
// Threading: UI thread (that of the Run, which it reads but does not own).
namespace qs::ui {

class TimelineAtCursor {
public:
    static constexpr std::uint64_t kDefaultCheckpointInterval = 131072;
    static constexpr std::size_t kMaxCheckpoints = 16;

    explicit TimelineAtCursor(std::uint64_t checkpointInterval = kDefaultCheckpointInterval);

    // Shows `run` at stream time `timeNs`, from at least `lookBackNs` before
    // it (the view's window). `run` must outlive the next showAt() or clear().
    void showAt(const Run& run, std::int64_t timeNs, std::int64_t lookBackNs);
    // Feeds `run` from its first event towards event `toEvent` (exclusive),
    // at most `maxEvents` of them per call, taking the checkpoints on the way
    // that the first move to a late instant would otherwise take: call it
    // until it returns true (all fed), e.g. in slices while a recording is
    // opened. The model is then the run up to there, as showAt() would have
    // it; a showAt() in between is fine (the next call starts again from the
    // newest checkpoint). `lookBackNs` as showAt()'s.
    bool prepare(const Run& run, std::uint64_t toEvent, std::int64_t lookBackNs,
                 std::uint64_t maxEvents);
    // Frees the model and keeps the checkpoints (after prepare(), while the
    // cursor is live: the model is not shown then); the next showAt() starts
    // again from a checkpoint.
    void keepOnlyCheckpoints();
    // Forgets the run (call when the run is reset or replaced).
    void clear();

    const TimelineModel& model() const { return model_; }
    std::int64_t timeNs() const { return timeNs_; }
    // The earliest instant the model holds the run from (the run's first
    // event's for a feed from the start).
    std::int64_t windowStartNs() const { return windowStartNs_; }
    // How the last showAt() got there: false = started again (a checkpoint,
    // the run's start or a window start), true = stepped forward from the
    // previous instant.
    bool lastWasIncremental() const { return incremental_; }
    // Events the last showAt() fed to the model.
    std::uint64_t lastFedEvents() const { return lastFed_; }
    // The run's first eventsFed() events are in the model.
    std::uint64_t eventsFed() const { return runEvents_; }
    std::size_t checkpointCount() const { return checkpoints_.size(); }

private:
    struct Checkpoint {
        std::uint64_t events = 0;
        std::uint32_t sincePrune = 0;
        TimelineModel model;
    };

    const Checkpoint* checkpointFor(std::uint64_t upTo, std::int64_t lookBackNs) const;
    void rebuild(const Run& run, std::int64_t timeNs, std::int64_t lookBackNs);
    void startFromRunStart(const Run& run, std::int64_t lookBackNs, const Checkpoint* from);
    void startFromWindow(const Run& run, std::int64_t lookBackNs);
    void feed(const Run& run, std::uint64_t toEvent);
    void takeCheckpoint();

    static constexpr std::uint32_t kPruneEvery = 16384;  // events fed between prunes

    std::uint64_t interval_;
    TimelineModel model_;
    const Run* run_ = nullptr;
    std::uint32_t sincePrune_ = 0;
    std::uint64_t runEvents_ = 0;  // events fed: the run's first runEvents_ (by index)
    std::int64_t timeNs_ = 0;
    std::int64_t windowStartNs_ = 0;
    // The model is a feed from the run's first event (no window seeded):
    // its redeliveries come from the Run, and checkpoints are taken.
    bool fromStart_ = false;
    bool holdsRun_ = false;                // the model is the run up to runEvents_ (not freed)
    std::vector<Checkpoint> checkpoints_;  // by events, every interval_ events
    HandOutMarks handOuts_;                // which hand-outs were redeliveries
    std::uint64_t lastFed_ = 0;
    bool incremental_ = false;
};

}  // namespace qs::ui
