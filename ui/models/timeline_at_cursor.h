#pragma once

#include <cstdint>

#include "models/timeline_model.h"

namespace qs {
class Run;
}

// The assignment timeline as it was at an instant t, projected from the core
// Run (docs/ui.md, "Time travel"): a TimelineModel fed the Run's own events
// from a window start up to t, after the hand-outs still open at the window
// start (leasesAt(Run::stateAt(start))) and the lanes of the workers then.
// Nothing after t is in it: a hand-out settled after t is still open, one
// begun after t is absent. It keeps no record of its own between moves:
// a move back, or one past the window, rebuilds it from the Run; a move
// forward feeds only the events in between (playback at 16x).
//
// Threading: UI thread (that of the Run, which it reads but does not own).
namespace qs::ui {

class TimelineAtCursor {
public:
    // Shows `run` at stream time `timeNs`, from at least `lookBackNs` before
    // it (the view's window). `run` must outlive the next showAt() or clear().
    void showAt(const Run& run, std::int64_t timeNs, std::int64_t lookBackNs);
    // Forgets the run (call when the run is reset or replaced).
    void clear();

    const TimelineModel& model() const { return model_; }
    std::int64_t timeNs() const { return timeNs_; }
    std::int64_t windowStartNs() const { return windowStartNs_; }
    // How the last showAt() got there: false = rebuilt from the Run's state
    // at the window start, true = stepped forward from the previous instant.
    bool lastWasIncremental() const { return incremental_; }

private:
    void rebuild(const Run& run, std::int64_t timeNs, std::int64_t lookBackNs);
    void feed(const Run& run, std::uint64_t toEvent);

    static constexpr std::uint32_t kPruneEvery = 16384;  // events fed between prunes

    TimelineModel model_;
    const Run* run_ = nullptr;
    std::uint32_t sincePrune_ = 0;
    std::uint64_t runEvents_ = 0;  // events fed: the run's first runEvents_ (by index)
    std::int64_t timeNs_ = 0;
    std::int64_t windowStartNs_ = 0;
    bool incremental_ = false;
};

}  // namespace qs::ui
