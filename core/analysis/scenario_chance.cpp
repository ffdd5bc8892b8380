#include "analysis/scenario_chance.h"

namespace qs::analysis {

namespace {

void note(std::string& why, const std::string& text) {
    if (why.empty()) {
        why = text;
    }
}

void seeConfig(const workers::WorkerConfig& c, const std::string& where, ScenarioChance& out) {
    if (c.failureRate > 0.0) {
        note(out.failures, "random failures (" + where + ")");
    }
    if (c.crashRate > 0.0) {
        note(out.crashes, "random crashes (" + where + ")");
    }
}

}  // namespace

ScenarioChance chanceIn(const runner::Scenario& s) {
    ScenarioChance out;
    for (const runner::WorkerGroup& g : s.workers) {
        seeConfig(g.config, "worker settings", out);
    }
    for (const runner::TimelineAction& a : s.timeline) {
        const std::string at = a.describe();
        if (a.kind == runner::ActionKind::Set) {
            if (a.patch.failureRate.value_or(0.0) > 0.0) {
                note(out.failures, "random failures (" + at + ")");
            }
            if (a.patch.crashRate.value_or(0.0) > 0.0) {
                note(out.crashes, "random crashes (" + at + ")");
            }
        } else if (a.kind == runner::ActionKind::Pause || a.kind == runner::ActionKind::Stop ||
                   a.kind == runner::ActionKind::Scale) {
            note(out.returns, "a poll in progress ended by a step (" + at + ")");
        }
    }
    if (s.tasks.rate > 0.0) {
        note(out.arrivals, "tasks arrive over time (rate)");
    }
    if (s.tasks.policy.delaySeconds > 0) {
        note(out.arrivals, "tasks arrive over time (delay)");
    }
    return out;
}

}  // namespace qs::analysis
