#pragma once

#include <string>

#include "runner/scenario.h"
#include "runner/scenario_runner.h"

// Plain-text report of a finished run: a per-worker table and the totals, all
// computed by the ledger. Pure function; any thread.
namespace qs::runner {

std::string formatSummary(const Scenario& scenario, const RunResult& result);

}  // namespace qs::runner
