#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/charts_model.h"
#include "models/hand_out_history.h"
#include "run/run_state.h"

namespace qs {
class Run;
}

// The charts' per-second buckets as they were at an instant t, rebuilt from
// the core Run (docs/ui.md, "Time travel"): a ChartsModel fed the Run's
// events up to t, a second at a time, with the work queue's depth sampled
// after each second from the Run's state then (Run::advance, no copy of the
// messages per second) and at t itself, so the newest bucket is the one
// holding t. A redelivery is a hand-out of a message the Run shows handed
// out before in the same channel (hand_out_history.h).
//
// A move back, or forward past a checkpoint, restarts from the newest
// checkpoint at or before t (the model as a feed from the run's start had it
// every `checkpointInterval` events, copied then: a few kB each, since the
// model keeps no set of messages here) and feeds at most that many events;
// a move forward by less feeds only the events in between. Checkpoints are
// taken on the way, so the first move to a late instant feeds every event
// before it once, unless prepare() took them beforehand (a recording takes
// them while it is opened).
//
// Threading: UI thread (that of the Run, which it reads but does not own).
namespace qs::ui {

class ChartsAtCursor {
public:
    static constexpr std::uint64_t kDefaultCheckpointInterval = 16384;

    explicit ChartsAtCursor(std::uint64_t checkpointInterval = kDefaultCheckpointInterval);

    // The acked events' latency (as the live charts', ChartsModel::setLatencyLookup).
    void setLatencyLookup(std::function<std::int64_t(const Event&)> fn);
    // Shows `run` at stream time `timeNs`, the depth of `channel` (the work
    // queue). `run` must outlive the next showAt() or clear().
    void showAt(const Run& run, const std::string& channel, std::int64_t timeNs);
    // Feeds `run` from its first event towards event `toEvent` (exclusive),
    // at most `maxEvents` of them per call, taking the checkpoints a feed
    // from the run's start takes: call it until it returns true (all fed),
    // e.g. in slices while a recording is opened. The second holding the
    // newest event fed stays open (no depth sampled at a cursor), so the
    // model stays what a feed from the start holds and a later showAt()
    // goes on from it; a showAt() in between is fine (the next call starts
    // again from the newest checkpoint).
    bool prepare(const Run& run, const std::string& channel, std::uint64_t toEvent,
                 std::uint64_t maxEvents);
    void clear();

    const ChartsModel& model() const { return model_; }
    std::int64_t timeNs() const { return timeNs_; }
    // How the last showAt() got there: stepped forward from the previous
    // instant (true), or restarted from a checkpoint or the run's start.
    bool lastWasIncremental() const { return incremental_; }
    // Events the last showAt() fed to the model.
    std::uint64_t lastFedEvents() const { return lastFed_; }
    // The run's first eventsFed() events are in the model.
    std::uint64_t eventsFed() const { return fed_; }
    std::size_t checkpointCount() const { return checkpoints_.size(); }

private:
    // The model as a feed from the run's start had it after `events` events,
    // inside the second that began at secondStartNs (the Run's state at the
    // second's start: stateEvents).
    struct Checkpoint {
        std::uint64_t events = 0;
        std::uint64_t stateEvents = 0;
        std::int64_t secondStartNs = 0;
        ChartsModel model;
    };

    const Checkpoint* checkpointAtOrBefore(std::uint64_t events) const;  // null = none
    void restart(const Run& run, std::uint64_t upTo);
    void useRun(const Run& run, const std::string& channel);
    void feed(const Run& run, std::uint64_t toEvent);
    // Feeds the open second (starting one at event fed_ if none is) up to
    // toEvent or its end, whichever comes first, taking checkpoints.
    void feedInSecond(const Run& run, std::uint64_t toEvent);
    void endSecond(const Run& run);
    void moveState(const Run& run, std::uint64_t events);  // state_ to after `events`
    void applyEvent(const Run& run, std::uint64_t index);
    void sampleDepth(std::int64_t timeNs);

    const std::uint64_t interval_;
    std::function<std::int64_t(const Event&)> latency_;
    ChartsModel model_;
    const Run* run_ = nullptr;
    std::string channel_;
    RunState state_;         // the Run's state at the start of the second being fed
    std::uint64_t fed_ = 0;  // events fed to the model
    std::int64_t secondStartNs_ = 0;
    bool inSecond_ = false;
    // True while the model is what a feed from the run's start would hold
    // (no depth sampled at a cursor, no second cut short by one): only then
    // are checkpoints taken.
    bool fromStart_ = false;
    std::vector<Checkpoint> checkpoints_;  // by events, every interval_ events
    HandOutMarks handOuts_;                // which hand-outs were redeliveries
    std::int64_t timeNs_ = 0;
    std::uint64_t lastFed_ = 0;
    bool incremental_ = false;
};

}  // namespace qs::ui
