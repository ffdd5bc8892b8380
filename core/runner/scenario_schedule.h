#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "runner/scenario.h"

// The steps of one scenario, in order, with their times and the rule that ends
// the run — whoever drives the clock. The headless runner drives it from its
// own thread with a steady clock, the console's scenario player from a QTimer
// on the UI thread; both apply each step with the shared step functions
// (runChannelStep, Scenario::taskSpec / groupOverride, applyTimelineAction),
// so a scenario takes the same steps in the same order in both.
//
// The schedule has three parts:
//  - setup, before the clock starts: create the channel when the scenario asks
//    (time 0 is that step's answer);
//  - timed steps, on the scenario's clock: send the tasks, start each worker
//    group, each timeline action. At equal times the tasks are sent first,
//    then worker groups in group order, then actions in timeline order;
//  - end steps, at the natural end (drained, time bound, run time over) or
//    after a failed step: stop the producer, stop the workers, delete the
//    channel when the scenario asks (nothing sends to or polls it any more).
//
// Plain values, no clock of its own. Threading: one thread at a time (the one
// driving the run).
namespace qs::runner {

enum class StepKind {
    CreateChannel,  // setup
    SendTasks,      // timed: start the producer (all at once or at the scenario's rate)
    StartWorkers,   // timed: one worker group
    Action,         // timed: one timeline action
    StopProducer,   // end
    StopWorkers,    // end
    DeleteChannel,  // end
};

std::string_view toString(StepKind kind);

struct ScheduleStep {
    StepKind kind = StepKind::SendTasks;
    double at = 0.0;        // seconds on the scenario's clock (timed steps; 0 otherwise)
    std::size_t index = 0;  // StartWorkers: the group; Action: the timeline entry
    // What the step does, the same words in the runner's log and the console:
    // "send 80 tasks at 20/s", "start 2 worker(s): batch=5 …", an action's
    // describe(), "stop the producer", "delete channel tasks".
    std::string label;
    // An action that brings tasks back (a redrive): a drained run does not end
    // before it is taken.
    bool holdsDrainedEnd = false;
};

// Whether the driver's pool stops at the end.
enum class PoolAtEnd {
    Stop,  // the headless runner: the run is over, its totals are final
    // The console: the workers stay in view for the user to go on with, unless
    // the channel is deleted (nothing may poll a deleted channel).
    KeepUnlessChannelDeleted,
};

enum class RunEnd {
    None,         // the run goes on
    Drained,      // every task reached an end state ("until": "drained")
    TimeBound,    // "drained" run, timeoutSeconds reached first
    RunTimeOver,  // "time" run, runForSeconds reached
};

std::string_view describe(RunEnd end);

class ScenarioSchedule {
public:
    // `scenario` should be valid (Scenario::validate()); only its times, counts
    // and labels are kept.
    explicit ScenarioSchedule(const Scenario& scenario, PoolAtEnd pool = PoolAtEnd::Stop);

    const std::vector<ScheduleStep>& setupSteps() const { return setup_; }
    const std::vector<ScheduleStep>& timedSteps() const { return timed_; }
    const std::vector<ScheduleStep>& endSteps() const { return end_; }

    // The next timed step not taken yet; nullptr when every one was taken.
    const ScheduleStep* next() const;
    // Takes the next timed step if it is due at elapsed time `t` (its `at` <=
    // t) and returns it; nullptr when none is due. Call it until nullptr to
    // take every step due at `t`, in order.
    const ScheduleStep* takeDue(double t);
    // The timed steps not taken (a run that ended first did not reach them).
    std::vector<ScheduleStep> untaken() const;
    bool tasksSent() const { return tasksSent_; }

    // Whether the run ends at elapsed time `t`. `drained` is the driver's own
    // finding that every task was sent and reached an end state; it counts only
    // once the tasks' step was taken. A drained run ends at once, even with
    // timed steps left (they are not reached), unless one of them brings
    // tasks back (holdsDrainedEnd): then it waits for that step. The driver's
    // `drained` must also be false while a step it took is still bringing
    // tasks back (a redrive under way).
    RunEnd endAt(double t, bool drained) const;
    // When the run ends at the latest: timeoutSeconds or runForSeconds.
    double timeBound() const { return timeBound_; }

private:
    std::vector<ScheduleStep> setup_;
    std::vector<ScheduleStep> timed_;
    std::vector<ScheduleStep> end_;
    std::size_t next_ = 0;
    bool tasksSent_ = false;
    bool untilDrained_ = true;
    double timeBound_ = 0.0;
};

}  // namespace qs::runner
