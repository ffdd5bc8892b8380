#pragma once

#include <QString>
#include <optional>
#include <vector>

#include "events/event.h"
#include "events/ledger.h"

// Reads a recording (*.qsrun) for the console to show: every event the
// run's replay applies, in order, and the ledger options the run used, read
// with the core's own replay (runner::replayRecording), so the console's Run
// decides what `queuescope summary` decides. A file that is not a readable
// recording is refused with the core's message ("PATH: why"); nothing is
// changed then. Runs on the calling thread (the console's UI thread;
// docs/ui.md has what it costs).
namespace qs::ui {

struct LoadedRecording {
    QString path;
    QString name;     // the scenario's name, or the manual run's
    QString channel;  // the work queue it ran on
    LedgerOptions ledgerOptions;
    std::vector<Event> events;
    bool finished = false;  // the run ended and wrote its outcome
};

// nullopt with *error set when `path` is not a readable recording.
std::optional<LoadedRecording> loadRecording(const QString& path, QString* error);

}  // namespace qs::ui
