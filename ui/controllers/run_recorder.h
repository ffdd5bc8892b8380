#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <memory>
#include <thread>
#include <vector>

#include "events/event.h"
#include "recording/recording_retention.h"
#include "recording/recording_writer.h"

namespace qs::runner {
class RunRecording;
struct RunResult;
}  // namespace qs::runner

// Records every run of the console into its runs folder (docs/recording.md,
// "The console's recordings"): a recording opens at the first events of a
// run and ends with it (RunController::runEnding: a reset, a new connection)
// or when the window closes, with the run's outcome, so `queuescope summary`
// reads it as finished. Keeps the folder within its RetentionLimits.
//
// Threading: UI thread. record() copies the pump's batch into the writer's
// queue (the RecordingWriter writes on its own thread); closing a recording
// (the writer's last commit) runs on a thread of its own, joined by the
// destructor, so a reset never waits for the disk.
namespace qs::ui {

class RunController;
class ConsoleRun;
class EventPump;
class ScenarioPlayer;

class RunRecorder : public QObject {
    Q_OBJECT
public:
    // Registers record() as a sink of `pump`. Not owned; `run`, `player` and
    // `consoleRun` (the Run the pump feeds, whose ledger counts the stream's
    // losses) must stay alive until endRun() after their last events
    // (MainWindow's destructor calls it), the pump as long as the recorder.
    RunRecorder(RunController* run, EventPump* pump, ScenarioPlayer* player,
                const ConsoleRun* consoleRun, QObject* parent = nullptr);
    ~RunRecorder() override;

    // QStandardPaths::AppDataLocation + "/runs".
    static QString defaultFolder();
    QString folder() const { return folder_; }
    void setFolder(const QString& folder) { folder_ = folder; }
    // Off: runs are not recorded (a recording under way goes on to its end).
    void setEnabled(bool enabled) {
        enabled_ = enabled;
        Q_EMIT statusChanged();
    }
    bool isEnabled() const { return enabled_; }
    recording::RetentionLimits retention() const { return retention_; }
    // Applied now (to the folder) and whenever a recording opens.
    void setRetention(const recording::RetentionLimits& limits);
    // Tests: e.g. a tiny queue, so the writer loses events.
    void setWriterOptions(const recording::RecordingWriterOptions& options) {
        writerOptions_ = options;
    }

    // The pump's sink: opens the run's recording at its first event from the
    // console's producer, workers or pool (the broker's events before it, the
    // last run's aftermath, are held and recorded first) and hands the writer
    // a copy of the batch.
    void record(const std::vector<Event>& batch);
    // Ends the run's recording: the stream's last events (pumped to every
    // view first), the outcome, then the close. Nothing to do when none is open.
    void endRun();

    QString currentPath() const { return currentPath_; }  // "" = not recording now
    QString lastPath() const { return lastPath_; }        // this run's, or the last one's
    // Why this run is not (or no longer) recorded, in plain words; "" = none.
    QString problem() const { return problem_; }
    // Events this run lost: dropped by the event stream (its EventsDropped
    // notices, as the console's Run counts them: LedgerSummary::droppedEvents,
    // until that run is reset) and not written by the recording's writer
    // (until the run ends; those are not in the Run).
    quint64 streamLost() const;
    quint64 recordingLost() const { return recordingLost_; }
    quint64 eventsLost() const { return streamLost() + recordingLost_; }
    // Recordings whose close is still under way.
    int closing() const { return static_cast<int>(closers_.size()); }
    bool isClosing(const QString& path) const;

    // Where an export of the run so far stands: the recording's path ("" =
    // this run is not being recorded) and the events handed to its writer, after one more frame of
    // the stream (so the events the views show are in it).
    struct ExportMark {
        QString path;
        quint64 events = 0;
    };
    ExportMark markForExport();
    // True once the file at mark.path holds, committed, everything up to the
    // mark (events the writer lost count as done: the file says so): its
    // writer committed that far, or the recording is closed.
    bool committedThrough(const ExportMark& mark) const;
    // The retention's last problems ("PATH: why"), if any.
    QStringList retentionErrors() const { return retentionErrors_; }

Q_SIGNALS:
    // The path, the problem or a lost count changed.
    void statusChanged();
    // A recording was closed (on the UI thread): `error` = "" when complete.
    void recordingClosed(const QString& path, const QString& error);

private:
    bool startRecording(const std::vector<Event>& batch);
    bool open(std::int64_t originNs);
    void pollWriter();
    void noteStreamLoss();
    void recordBroker();
    std::string brokerAddress() const;  // "" when not connected
    void applyRetention();
    struct Closer;
    void closed(const Closer* closer, const QString& error);
    runner::RunResult outcome() const;

    RunController* run_;
    EventPump* pump_;
    const ConsoleRun* consoleRun_;
    QPointer<ScenarioPlayer> player_;  // MainWindow's destructor deletes it first
    QString folder_;
    bool enabled_ = true;
    recording::RetentionLimits retention_;
    recording::RecordingWriterOptions writerOptions_;

    // The run's recording (null = none open). The result outlives the
    // RunRecording, which refers to it.
    std::unique_ptr<runner::RunResult> result_;
    std::unique_ptr<runner::RunRecording> recording_;
    recording::RecordingWriter* writer_ = nullptr;
    std::vector<Event> buffer_;  // recycled by the writer
    std::vector<Event> held_;    // broker events before the run's first own event
    QElapsedTimer clock_;
    bool openFailed_ = false;  // this run: do not try again at every frame
    QString currentPath_;
    QString lastPath_;
    QString problem_;
    quint64 streamLostSaid_ = 0;  // streamLost() when statusChanged() last said it
    quint64 recordingLost_ = 0;
    quint64 recorded_ = 0;
    std::uint64_t seed_ = 0;     // recorded
    std::string brokerVersion_;  // recorded
    bool ending_ = false;
    QTimer poll_;

    // A recording being closed off the UI thread; its path is protected from
    // the retention until it is done.
    struct Closer {
        QString path;
        std::thread thread;
    };
    std::vector<std::unique_ptr<Closer>> closers_;
    QStringList retentionErrors_;
};

}  // namespace qs::ui
