#include "runner/scenario_schedule.h"

#include <algorithm>
#include <tuple>

#include "runner/channel_steps.h"
#include "workers/worker_config.h"

namespace qs::runner {

namespace {

ScheduleStep sendTasks(const Scenario& s) {
    std::string label = "send " + std::to_string(s.tasks.count) + " tasks";
    if (s.tasks.rate > 0.0) {
        label += " at " + workers::formatConfigNumber(s.tasks.rate) + "/s";
    }
    return {StepKind::SendTasks, s.tasks.startAt, 0, std::move(label)};
}

ScheduleStep startWorkers(const Scenario& s, std::size_t group) {
    const WorkerGroup& g = s.workers[group];
    return {StepKind::StartWorkers, g.startAt, group,
            "start " + std::to_string(g.count) + " worker(s): " + workers::describe(g.config)};
}

// Ties: the tasks are sent before worker groups start, groups start before
// actions; within a kind the scenario's own order (group, timeline entry).
bool runsBefore(const ScheduleStep& a, const ScheduleStep& b) {
    return std::tie(a.at, a.kind, a.index) < std::tie(b.at, b.kind, b.index);
}

}  // namespace

std::string_view toString(StepKind kind) {
    switch (kind) {
        case StepKind::CreateChannel:
            return "create channel";
        case StepKind::SendTasks:
            return "send tasks";
        case StepKind::StartWorkers:
            return "start workers";
        case StepKind::Action:
            return "action";
        case StepKind::StopProducer:
            return "stop producer";
        case StepKind::StopWorkers:
            return "stop workers";
        case StepKind::DeleteChannel:
            return "delete channel";
    }
    return "?";
}

std::string_view describe(RunEnd end) {
    switch (end) {
        case RunEnd::None:
            return "running";
        case RunEnd::Drained:
            return "every task reached an end state";
        case RunEnd::TimeBound:
            return "time bound reached before the queue drained";
        case RunEnd::RunTimeOver:
            return "run time over";
    }
    return "?";
}

ScenarioSchedule::ScenarioSchedule(const Scenario& scenario, PoolAtEnd pool)
    : untilDrained_(scenario.untilDrained),
      timeBound_(scenario.untilDrained ? scenario.timeoutSeconds : scenario.runForSeconds) {
    if (wantsChannelStep(scenario, ChannelStep::Create)) {
        setup_.push_back({StepKind::CreateChannel, 0.0, 0, "create channel " + scenario.channel});
    }

    timed_.push_back(sendTasks(scenario));
    for (std::size_t g = 0; g < scenario.workers.size(); ++g) {
        timed_.push_back(startWorkers(scenario, g));
    }
    for (std::size_t i = 0; i < scenario.timeline.size(); ++i) {
        const TimelineAction& a = scenario.timeline[i];
        timed_.push_back({StepKind::Action, a.at, i, a.describe(), a.bringsTasksBack()});
    }
    std::sort(timed_.begin(), timed_.end(), runsBefore);

    const bool deletes = wantsChannelStep(scenario, ChannelStep::Delete);
    end_.push_back({StepKind::StopProducer, 0.0, 0, "stop the producer"});
    if (pool == PoolAtEnd::Stop || deletes) {
        end_.push_back({StepKind::StopWorkers, 0.0, 0, "stop the workers"});
    }
    if (deletes) {
        end_.push_back({StepKind::DeleteChannel, 0.0, 0, "delete channel " + scenario.channel});
    }
}

const ScheduleStep* ScenarioSchedule::next() const {
    return next_ < timed_.size() ? &timed_[next_] : nullptr;
}

const ScheduleStep* ScenarioSchedule::takeDue(double t) {
    const ScheduleStep* step = next();
    if (step == nullptr || step->at > t) {
        return nullptr;
    }
    ++next_;
    tasksSent_ = tasksSent_ || step->kind == StepKind::SendTasks;
    return step;
}

std::vector<ScheduleStep> ScenarioSchedule::untaken() const {
    return {timed_.begin() + static_cast<std::ptrdiff_t>(next_), timed_.end()};
}

RunEnd ScenarioSchedule::endAt(double t, bool drained) const {
    const bool held = std::any_of(timed_.begin() + static_cast<std::ptrdiff_t>(next_), timed_.end(),
                                  [](const ScheduleStep& s) { return s.holdsDrainedEnd; });
    if (untilDrained_ && drained && tasksSent_ && !held) {
        return RunEnd::Drained;
    }
    if (t >= timeBound_) {
        return untilDrained_ ? RunEnd::TimeBound : RunEnd::RunTimeOver;
    }
    return RunEnd::None;
}

}  // namespace qs::runner
