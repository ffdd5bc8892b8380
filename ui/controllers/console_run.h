#pragma once

#include <QObject>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "events/event.h"
#include "events/ledger.h"
#include "run/run.h"

// The run the console shows: one core qs::Run, fed by the event pump before
// any view, so the message table, the history pane, the counters and the
// scenario's end check all read the same truth the headless runner reads.
// Replaced by an empty run when the console's run is reset.
//
// Threading: UI thread only (the Run is not thread-safe).
namespace qs::ui {

class ConsoleRun : public QObject {
    Q_OBJECT
public:
    explicit ConsoleRun(QObject* parent = nullptr);
    // `spillFolder`: see setSpillFolder ("" keeps everything in RAM).
    ConsoleRun(const QString& spillFolder, QObject* parent);
    ~ConsoleRun() override;

    const Run& run() const { return *run_; }

    // Appends a batch (stream order). Then touchedByLastAppend() lists the
    // messages it touched, each once; appended() fires.
    void append(const std::vector<Event>& batch);
    const std::vector<std::uint32_t>& touchedByLastAppend() const { return touched_; }
    // Time the core's Run::append took in the last append(), without the views
    // that hear appended() (benchmarks, diagnostics).
    std::int64_t lastCoreAppendNs() const { return lastCoreAppendNs_; }
    // The messages a worker's crash or stop in the last append returned (it
    // names none itself), by the event's index in the run; empty for others.
    std::vector<std::uint32_t> messagesReturnedBy(std::uint64_t event) const;

    // Starts an empty run whose ledger uses `options` (a scenario's
    // MaxReceiveCount lets the ledger see a dead-lettering no broker reports).
    void reset(const LedgerOptions& options);
    void reset() { reset(defaultLedgerOptions()); }
    static LedgerOptions defaultLedgerOptions();

    // Where the run's old events, change lists and trail go once they leave
    // RAM (a nameless spill file, docs/run.md "A flat live run"); "" keeps
    // everything in RAM. Takes effect at the next reset.
    // Default: QStandardPaths::CacheLocation.
    static QString defaultSpillFolder();
    void setSpillFolder(const QString& folder) { spillFolder_ = folder; }
    QString spillFolder() const { return spillFolder_; }

Q_SIGNALS:
    void appended();
    void wasReset();
    // Once per run: its old detail stays in RAM after all (Run::spillProblem()).
    void spillProblemFound(const QString& why);

private:
    void checkSpill();

    std::unique_ptr<Run> run_;
    QString spillFolder_;
    bool spillChecked_ = false;  // this run's problem, if any, was told
    std::vector<std::uint32_t> touched_;
    std::int64_t lastCoreAppendNs_ = 0;
    std::vector<std::pair<std::uint64_t, std::vector<std::uint32_t>>> returnedBy_;
};

}  // namespace qs::ui
