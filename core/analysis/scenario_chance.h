#pragma once

#include <string>

#include "runner/scenario.h"

// What a scenario leaves to chance, so that two runs of it may differ there
// without either being wrong: random failure and crash draws (each worker
// draws from its own generator, so which task fails depends on which worker
// got it), pauses and stops that end a worker's poll in progress (whether a
// message was on its way is a race), and tasks that arrive over time (a
// rate, a delay: how full each poll's batch is depends on the clock).
namespace qs::analysis {

struct ScenarioChance {
    std::string failures;  // why failures (rejects, re-queues) are chance ("" = they are not)
    std::string crashes;   // why crashes are chance
    std::string returns;   // why unsettled returns without a crash are chance
    std::string arrivals;  // why the batches' timing is chance

    bool any() const {
        return !failures.empty() || !crashes.empty() || !returns.empty() || !arrivals.empty();
    }
};

ScenarioChance chanceIn(const runner::Scenario& scenario);

}  // namespace qs::analysis
