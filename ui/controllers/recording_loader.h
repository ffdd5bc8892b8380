#pragma once

#include <QObject>
#include <QString>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "events/event.h"
#include "events/ledger.h"

// Reads a recording (*.qsrun) for the console to show: every event the
// run's replay applies, in order, and the ledger options the run used, read
// with the core's own replay (runner::replayRecording), so the console's Run
// decides what `queuescope summary` decides. A file that is not a readable
// recording is refused with the core's message ("PATH: why"); nothing is
// changed then.
namespace qs::ui {

struct LoadedRecording {
    QString path;
    QString name;     // the scenario's name, or the manual run's
    QString channel;  // the work queue it ran on
    LedgerOptions ledgerOptions;
    std::vector<Event> events;
    bool finished = false;  // the run ended and wrote its outcome
};

// How far a load has come, shared between the reading thread and the one
// that asked for it. `total` is the recording's event count (0 until the file
// is open); `cancel` stops the read at the next event.
struct LoadProgress {
    std::atomic<std::uint64_t> read{0};
    std::atomic<std::uint64_t> total{0};
    std::atomic<bool> cancel{false};
};

// The whole read on the calling thread (SQLite's integrity check of the file
// on a second thread meanwhile). nullopt with *error set when `path`
// is not a readable recording; nullopt with *error empty when `progress`
// asked to cancel.
std::optional<LoadedRecording> loadRecording(const QString& path, QString* error,
                                             LoadProgress* progress = nullptr);

// Reads recordings off the UI thread, one at a time (File → Open recording,
// the recent list, a drop, the command line: docs/ui.md, "Time travel").
// Opening another while one is read cancels that read and reads the new one:
// the latest open wins, and only it is reported.
//
// Threading: every member and signal on the thread that owns the loader (the
// UI thread); the read on a thread of its own, joined before the next read
// starts and by the destructor, which cancels a read under way first.
class RecordingLoader : public QObject {
    Q_OBJECT
public:
    explicit RecordingLoader(QObject* parent = nullptr);
    ~RecordingLoader() override;

    void start(const QString& path);
    // Stops the read under way (and forgets a queued one): nothing is reported.
    void cancel();
    bool isBusy() const { return job_ != nullptr; }
    QString path() const;  // the file being read ("" = none)

Q_SIGNALS:
    // A few times a second while reading: events read of the recording's events.
    void progressed(const QString& path, quint64 read, quint64 total);
    // Shared: a recording can be large, and the signal is not copied per receiver.
    void loaded(std::shared_ptr<const qs::ui::LoadedRecording> recording);
    void refused(const QString& path, const QString& error);

protected:
    void timerEvent(QTimerEvent* event) override;

private:
    struct Job {
        QString path;
        LoadProgress progress;
    };
    void launch(const QString& path);
    void jobEnded(const std::shared_ptr<Job>& job,
                  const std::shared_ptr<const LoadedRecording>& recording, const QString& error);
    void join();

    std::shared_ptr<Job> job_;  // the read under way (null = idle)
    QString queued_;            // opened while job_ was read: read next
    std::thread worker_;
    int progressTimer_ = 0;
    std::uint64_t lastReported_ = ~std::uint64_t{0};
};

}  // namespace qs::ui
