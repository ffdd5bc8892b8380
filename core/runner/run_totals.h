#pragma once

#include <string>

#include "events/ledger.h"
#include "runner/scenario_runner.h"

// What a run's summary reports that the ledger decides: the totals, the
// per-worker rows, the tasks moved and lost. One function, called by
// ScenarioRunner at the end of a run and by `queuescope summary` on a ledger
// replayed from the run's recording, so the two print the same numbers.
namespace qs::runner {

// Fills result.totals, workers, tasksMoved, tasksLost, lostMessageIds (the
// first 100 by send time) and, with keepMessageRecords, messages. Reads
// result.producer (and result.pool without events), so set those first.
// `homeChannel` is the scenario's channel: a task waiting in another one was
// moved there (re-queued), not lost.
void computeLedgerTotals(const Ledger& ledger, const std::string& homeChannel, bool recordEvents,
                         bool keepMessageRecords, RunResult& result);

}  // namespace qs::runner
