#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "models/charts_model.h"
#include "run/run_state.h"

namespace qs {
class Run;
}

// The charts' per-second buckets as they were at an instant t, rebuilt from
// the core Run (docs/ui.md, "Time travel"): a ChartsModel fed the Run's
// events up to t, a second at a time, with the work queue's depth sampled
// after each second from the Run's state then (Run::advance, no copy of the
// messages per second) and at t itself, so the newest bucket is the one
// holding t. A move back rebuilds it; a move forward feeds only the events
// in between.
//
// Threading: UI thread (that of the Run, which it reads but does not own).
namespace qs::ui {

class ChartsAtCursor {
public:
    // The acked events' latency (as the live charts', ChartsModel::setLatencyLookup).
    void setLatencyLookup(std::function<std::int64_t(const Event&)> fn);
    // Shows `run` at stream time `timeNs`, the depth of `channel` (the work
    // queue). `run` must outlive the next showAt() or clear().
    void showAt(const Run& run, const std::string& channel, std::int64_t timeNs);
    void clear();

    const ChartsModel& model() const { return model_; }
    std::int64_t timeNs() const { return timeNs_; }
    bool lastWasIncremental() const { return incremental_; }

private:
    void feed(const Run& run, std::uint64_t toEvent);
    void sampleDepth(std::int64_t timeNs);

    std::function<std::int64_t(const Event&)> latency_;
    ChartsModel model_;
    const Run* run_ = nullptr;
    std::string channel_;
    RunState state_;  // the Run's state after the events fed so far
    std::int64_t timeNs_ = 0;
    bool incremental_ = false;
};

}  // namespace qs::ui
