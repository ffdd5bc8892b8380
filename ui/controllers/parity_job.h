#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <atomic>
#include <cstdint>
#include <optional>
#include <thread>

#include "analysis/parity_check.h"
#include "controllers/recording_comparer.h"

// Run → Parity check… (docs/ui.md, "Parity check"): one parity check of a
// server against the embedded broker, as `queuescope parity` runs it
// (analysis::checkParity: both runs recorded, then compared by the core), on a
// thread of its own.
//
// Threading: created, started, stopped and destroyed on the UI thread; the
// signals reach UI-thread receivers queued. stop() lands within a few
// milliseconds (the run under way ends and tears down as at its end); the
// destructor stops and joins.
namespace qs::ui {

// What came of a parity check, for the dialog and the comparison window.
struct ParityReport {
    QString scenario;
    QString server;    // the address checked
    QString embedded;  // where the embedded broker ran
    analysis::ParityOutcome outcome = analysis::ParityOutcome::BadInput;
    std::uint64_t seed = 0;  // both runs'
    int exitCode = 2;     // what `queuescope parity` exits with for it
    bool stopped = false; // stopped on request: nothing compared
    QString problem;      // why nothing was compared ("" when compared)
    QString recordDir;
    QStringList recordings;  // the recordings made (a stop may leave one or none)
    std::optional<ComparisonResult> comparison;  // A = embedded, B = server
};

class ParityJob : public QObject {
    Q_OBJECT
public:
    explicit ParityJob(QObject* parent = nullptr);
    ~ParityJob() override;

    // Starts the check of `scenario` (a bundled name) against `address`. The
    // problem with the scenario or the address is returned and nothing
    // starts. One check per job.
    QString start(const QString& scenario, const QString& address, const QString& authToken);
    void stop() { stop_.store(true); }
    bool isRunning() const { return running_; }

    // The verdict in words, as `queuescope parity`'s exit code means it: the
    // same, only allowed differences, real differences, could not run (why),
    // or stopped on request.
    static QString verdict(const ParityReport& report);

Q_SIGNALS:
    // A progress line of the runs ("t=1.20s crash worker-2"); `side` 1 = the
    // embedded broker, 2 = the server.
    void progressed(int side, const QString& line);
    void finished(const qs::ui::ParityReport& report);

private:
    std::atomic<bool> stop_{false};
    bool running_ = false;
    std::thread thread_;
};

// The whole report of a check the core made (ParityJob's thread runs it).
ParityReport reportOf(const QString& scenario, const analysis::ParityResult& result);

}  // namespace qs::ui

Q_DECLARE_METATYPE(qs::ui::ParityReport)
