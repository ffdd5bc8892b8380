#pragma once

#include <QEvent>
#include <QObject>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "events/event.h"
#include "events/ledger.h"
#include "run/run.h"
#include "run/run_ingest.h"

// The run the console shows: one core qs::Run, fed by the event pump before
// any view, so the message table, the history pane, the counters and the
// scenario's end check all read the same truth the headless runner reads.
// Replaced by an empty run when the console's run is reset.
//
// Live, a frame's events go into the run on a thread of its own
// (appendLive): the core's append, the biggest part of a frame at 100,000
// events/s, runs while the UI thread sleeps, and the views hear of it at the
// next frame. The run is handed over only when the UI thread is about to
// sleep with nothing left to do (and from the top event loop), and taken
// back before any event reaches any object of the UI thread, and by run():
// no UI code ever sees the run while it is appended.
//
// Threading: UI thread only (the Run is not thread-safe; the ingest thread
// touches it only while the UI thread does not).
namespace qs::ui {

class ConsoleRun : public QObject {
    Q_OBJECT
public:
    explicit ConsoleRun(QObject* parent = nullptr);
    // `spillFolder`: see setSpillFolder ("" keeps everything in RAM).
    ConsoleRun(const QString& spillFolder, QObject* parent);
    ~ConsoleRun() override;

    const Run& run() const {
        takeBack();
        return *run_;
    }

    // Appends a batch (stream order), and any still waiting from appendLive().
    // Then touchedByLastAppend() lists the messages they touched, each once;
    // appended() fires.
    void append(const std::vector<Event>& batch);
    // Appends a batch as the live console's frames do: first the views hear
    // of the batches before it (tellViews()); this one goes in on the ingest
    // thread when the UI thread next sleeps (or, where it cannot - a modal
    // dialog's loop - here, a frame later).
    void appendLive(const std::vector<Event>& batch);
    // A frame without events: appended() fires for what went in since the
    // views last heard, if anything did.
    void tellViews();
    // The UI thread is about to sleep with nothing left to do (what its event
    // loop says before it blocks; a benchmark driving its own frames says it
    // itself): a batch waiting from appendLive() goes to the ingest thread.
    void sleepsNow();
    // Called with the run after every append, on the thread that appended:
    // the ingest thread while it has the run, else the UI thread. What it
    // touches is lent with the run: the UI thread must read it only as it
    // reads the run (in an event, or after run()). Empty: none. Takes the run
    // back first. The live timeline and charts follow the run so (HeadViews).
    void setFollower(std::function<void(const Run&)> follower);
    // The ingest thread has the run now (until any event or run() takes it back).
    bool ingesting() const { return ingest_.busy(); }
    // Batches the ingest thread took in, since this object was made (diagnostics, tests).
    std::uint64_t handedOver() const { return handedOver_; }
    const std::vector<std::uint32_t>& touchedByLastAppend() const { return touched_; }
    // Time the core's Run::append took for the events of the last appended(),
    // on whichever thread, without the views that hear it (benchmarks, diagnostics).
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

protected:
    bool event(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void checkSpill();
    // Waits for the ingest thread to give the run back, if it has it.
    void takeBack() const;
    // Appends on the UI thread, then lets the follower follow.
    void appendHere(const std::vector<Event>& events);
    // Appends what appendLive() left waiting, here and now.
    void appendWaiting();
    // The event loop is about to block: sleepsNow() if nothing came after the
    // sentinel (what the loop still had to do would read the run at once).
    void loopAboutToBlock();
    void postSentinel();
    // Tells the views of what went in since they last heard (appended()).
    void announce();

    std::unique_ptr<Run> run_;
    // Declared after the run: destroyed first, so a job in hand ends before it.
    mutable run::RunIngest ingest_;
    mutable run::AppendNotes notes_;  // of what went in and was not told yet
    std::function<void(const Run&)> follower_;
    std::vector<Event> waiting_;      // from appendLive(), not handed over yet
    bool waitingFromThisFrame_ = false;  // appendLive() came, tellViews() not yet
    std::uint64_t toldEvents_ = 0;    // the run's events when appended() last fired
    // Events the UI thread's objects got (the filter counts them), and that
    // count when the sentinel, posted after everything else, came through.
    std::uint64_t eventsSeen_ = 0;
    std::uint64_t sentinelSeenAt_ = 0;
    bool sentinelPosted_ = false;
    bool sentinelSeen_ = false;
    std::uint64_t handedOver_ = 0;
    QString spillFolder_;
    bool spillChecked_ = false;  // this run's problem, if any, was told
    std::vector<std::uint32_t> touched_;
    std::int64_t lastCoreAppendNs_ = 0;
    std::vector<std::pair<std::uint64_t, std::vector<std::uint32_t>>> returnedBy_;
};

}  // namespace qs::ui
