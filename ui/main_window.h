#pragma once

#include <QDeadlineTimer>
#include <QMainWindow>
#include <QPointer>
#include <QTimer>
#include <functional>
#include <memory>
#include <optional>

#include "controllers/embedded_store.h"
#include "controllers/recording_comparer.h"
#include "controllers/run_exporter.h"
#include "models/charts_at_cursor.h"
#include "models/charts_model.h"
#include "models/timeline_at_cursor.h"
#include "models/timeline_model.h"
#include "runner/scenario.h"

class QLabel;
class QDockWidget;
class QAction;
class QProgressBar;
class QToolButton;

// The console's main window: the assignment timeline and charts in the
// centre; producer, worker pool, explanations, messages, event log and
// channels as docks. Owns the connection, the run and the event pump that
// feeds every view once per frame. UI thread only.
namespace qs::ui {

class ConnectionController;
class SteadyLabel;
class RunController;
class EventPump;
class MessageTableModel;
class ConsoleRun;
class EventLogModel;
class TimelinePanel;
class TimelineView;
class ChartsPanel;
class ExplainPanel;
class WorkerPoolPanel;
class ProducerPanel;
class ChannelBrowser;
class MessagePanel;
class EventLogPanel;
class ScenarioPlayer;
class RunRecorder;
class FirstRunGreeting;
class TimeCursor;
class ReplayPlayer;
class LeaseBoardModel;
class LeasePanel;
class PollFairnessModel;
class PollPanel;
class TransportBar;
class LessonsPanel;
class LessonRun;
struct LoadedRecording;
class RecordingLoader;
class RecordingFeed;
class ParityDialog;

struct MainWindowOptions {
    bool autoConnect = true;    // probe localhost:50000, else start the embedded broker
    bool embeddedOnly = false;  // start the embedded broker without probing
    int embeddedPort = 50000;   // preferred port (a free one is used when taken)
    bool useSettings = true;    // restore and save QSettings
    // Where the embedded broker keeps its queues (--data-dir / --sync); unset
    // = as saved by File → Embedded broker storage… (memory on a first run).
    std::optional<EmbeddedStore> embeddedStore;
    // Record every run into the runs folder (docs/recording.md). Without
    // useSettings (tests) only in QStandardPaths' test mode, so a test never
    // writes into the user's data folder.
    bool recordRuns = true;
    // The run keeps all its events in RAM, with no spill file (ConsoleRun's
    // spill folder ""): benchmarks compare the two.
    bool keepRunInRam = false;
    // Hand-outs the live timeline holds one by one; older ones (within its
    // retention) are kept as a summary (TimelineModel::setDetailBudget; 0 =
    // every one: benchmarks compare the two).
    std::size_t liveTimelineBars = 100'000;
    // Rows of the message table while live: the newest tasks (0 = every
    // task; at a fixed time every task seen by then is a row).
    int liveTableRows = 100'000;
};

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(MainWindowOptions options = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    ConnectionController* connection() const { return connection_; }
    RunController* run() const { return run_; }
    EventPump* pump() const { return pump_; }
    MessageTableModel* messages() const { return messages_; }
    // The run every view reads (the one truth about what happened).
    const ConsoleRun* consoleRun() const { return consoleRun_; }
    ConsoleRun* consoleRun() { return consoleRun_; }
    EventLogModel* eventLog() const { return eventLog_; }
    const TimelineModel& timelineModel() const { return timeline_; }
    const ChartsModel& chartsModel() const { return chartsModel_; }
    // The timeline and charts at a past time cursor: projections of the Run
    // there (docs/ui.md, "Time travel"); the views show them while the cursor
    // is not live.
    const TimelineAtCursor& timelineAtCursor() const { return timelineAt_; }
    const ChartsAtCursor& chartsAtCursor() const { return chartsAt_; }
    TimelineView* timelineView() const;
    ChartsPanel* charts() const { return charts_; }
    ExplainPanel* explainPanel() const { return explain_; }
    WorkerPoolPanel* workerPanel() const { return workerPanel_; }
    ProducerPanel* producerPanel() const { return producer_; }
    ChannelBrowser* channelBrowser() const { return channels_; }
    MessagePanel* messagePanel() const { return messagePanel_; }
    // The in-flight lease board (docs/ui.md, "In flight").
    LeaseBoardModel* leaseBoard() const { return leaseBoard_; }
    LeasePanel* leasePanel() const { return leasePanel_; }
    PollFairnessModel* pollFairness() const { return pollFairness_; }
    PollPanel* pollPanel() const { return pollPanel_; }
    ScenarioPlayer* scenarioPlayer() const { return player_; }
    FirstRunGreeting* greeting() const { return greeting_; }
    // Shows the first-run greeting (a first start does; --first-run for screenshots).
    void showGreeting();
    RunRecorder* recorder() const { return recorder_; }
    EventLogPanel* eventLogPanel() const { return eventLogPanel_; }
    // The instant every view shows (docs/ui.md, "Time travel"), its player and bar.
    TimeCursor* timeCursor() const { return cursor_; }
    ReplayPlayer* replayPlayer() const { return replay_; }
    TransportBar* transportBar() const { return transport_; }

    // Shows the recording at `path` in every view, the cursor at its end; a
    // live run ends first (its own recording is kept). False with *error, the
    // core's refusal ("PATH: why"), when it is not a readable recording:
    // nothing changes then. Reads and shows it on the calling thread, for
    // tests and scripts; the console's menus, drops and command line use
    // startOpeningRecording().
    bool openRecording(const QString& path, QString* error = nullptr);
    // The same off the UI thread: the file is read on a thread of its own,
    // then shown in slices, with the progress in the status bar; the window
    // answers all along. Ends in recordingShown() or recordingRefused().
    // Opening another meanwhile cancels this read: the latest open wins.
    void startOpeningRecording(const QString& path);
    bool isOpeningRecording() const;
    RecordingLoader* recordingLoader() const { return loader_; }
    // Back to the live console (an empty run) from a recording.
    void closeRecording();
    QString recordingPath() const { return recordingPath_; }  // "" = the live console
    QStringList recentRecordings() const { return recentRecordings_; }
    // The connection line of the status bar, as plain text.
    QString connectionStatusText() const { return connectionText_; }
    // The status bar's message, whole even when it is shown elided.
    QString statusTextWhole() const;

    // File → Export report… / Export trace… (docs/ui.md, "Exporting a run"):
    // the run shown (the recording opened, else the live run's recording as
    // far as it is committed) written by the core's report or trace writer
    // off the UI thread. A refusal (no run, an export under way) and a failure
    // (unwritable path, unreadable recording) are said in a dialog
    // ("exportError"); success in the status bar and a dialog ("exportDone")
    // that opens the file or its folder.
    RunExporter* exporter() const { return exporter_; }
    bool isExporting() const;
    void exportRun(ExportKind kind, const QString& out);
    // Asks where to save (title, suggested file name, filter); "" = cancelled.
    // QFileDialog by default; tests supply the path.
    using SavePathAsker = std::function<QString(const QString&, const QString&, const QString&)>;
    void setSavePathAsker(SavePathAsker asker) { savePathAsker_ = std::move(asker); }
    // File → Compare with recording…: the run shown (as an export takes it)
    // against `other`, compared off the UI thread by the core, side by side in
    // a window that is not modal (ComparisonView, "comparisonDialog");
    // refusals as an export's. The open dialog's asker (title, folder, filter)
    // is QFileDialog's unless a test sets one.
    RecordingComparer* comparer() const { return comparer_; }
    void compareWith(const QString& other);
    void setOpenPathAsker(SavePathAsker asker) { openPathAsker_ = std::move(asker); }

    // Loads and plays a scenario (bundled name or path).
    bool playScenario(const QString& nameOrPath, QString* error = nullptr);
    // The guided lessons' dock (docs/lessons.md, "In the console").
    LessonsPanel* lessonsPanel() const { return lessons_; }
    LessonRun* lessonRun() const { return lessonRun_; }
    // Brings the Lessons dock to the front, on `lesson` when one is named.
    void showLessons(const QString& lesson = QString());
    // Shows the channels dock in front (for screenshots of the channels view).
    void showChannels();
    // The Channels tab with the work queue's rates over time in front (once listed).
    void showChannelRates();
    // Brings a dock (by object name) to the front.
    void showDock(const QString& objectName);

Q_SIGNALS:
    void recordingShown(const QString& path);  // every view shows it (absolute path)
    void recordingRefused(const QString& path, const QString& error);  // nothing changed

public Q_SLOTS:
    void selectMessage(const QString& key);
    void resetRun();
    void connectDialog();
    void useEmbeddedBroker();
    void embeddedStoreDialog();
    void setDarkTheme(bool dark);
    void openRecordingDialog();  // File → Open recording…
    // startOpeningRecording(), a refusal said in a dialog ("openError").
    void openRecordingInteractive(const QString& path);
    void exportReportDialog();  // File → Export report…
    void exportTraceDialog();   // File → Export trace…
    void compareDialog();       // File → Compare with recording…
    // Run → Parity check… (docs/ui.md, "Parity check"): the dialog, not modal
    // (raised when it is open already). It offers the console's server when
    // that is not the embedded broker (and not TLS, which the check lacks).
    ParityDialog* parityDialog();

protected:
    void closeEvent(QCloseEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;  // a .qsrun dropped opens it
    void dropEvent(QDropEvent* event) override;

private:
    void buildDocks();
    void buildLessonsDock();  // main_window_lessons.cpp
    void showEvidence(const QString& key, const QStringList& workers, qint64 timeNs);
    void addClearShowMeShortcut();
    bool playLoadedScenario(const runner::Scenario& scenario, QString* error);
    void buildMenus();
    void buildTimeMenu(QMenu* view);
    void fillRecentMenu(QMenu* menu);
    void buildExportActions(QMenu* file);
    void exportDialog(ExportKind kind);
    // Calls `use` with the recording of the run shown and what it covers: at
    // once for a recording opened, for the live run once its recording has
    // committed what the views show. Refusals said in a dialog titled `title`.
    using ShownRecordingUse = std::function<void(const QString&, const QString&)>;
    void withShownRecording(const QString& title, const ShownRecordingUse& use);
    void comparisonFinished(const ComparisonResult& result);
    void startExport(ExportKind kind, const QString& recording, const QString& out,
                     const QString& covers);
    void exportFinished(const ExportResult& result);
    void showExportError(const QString& title, const QString& text);
    void setExportBusy(const QString& message);
    void wireCursor();
    void followCursor();
    void buildOpening();
    void recordingReadProgressed(const QString& path, quint64 read, quint64 total);
    void recordingRefusedByLoader(const QString& path, const QString& error);
    void showOpenProgress(bool shown);
    void adoptRecording(const std::shared_ptr<const LoadedRecording>& recording);
    void feedRecordingSlice();
    // Takes the timeline's and charts' checkpoints over the recording fed
    // until `deadline`; true when they are all taken.
    bool prepareProjections(QDeadlineTimer deadline);
    void finishShowing();
    void stopFeeding();
    // The timeline, charts and Channels view at the cursor (their projections
    // of the Run at t), or back to their live models.
    void showProjectionsAt(std::optional<std::int64_t> timeNs);
    // How far back of t the timeline's projection holds the run, at least.
    std::int64_t timelineLookBackNs() const;
    std::string workQueue() const;  // the channel whose depth the charts plot
    void setLiveControlsEnabled(bool enabled);
    void wireEngine();
    void slowRefresh();
    // One chart (in turn) brought up to date: on a timer of its own, half a
    // period after slowRefresh(), so the two never land in the same frame.
    void refreshCharts();
    void scenarioFinished(const QString& name);
    // Shows `text` in the status bar, elided to the room its permanent widgets
    // leave, with the whole text in the bar's tooltip.
    void showStatus(const QString& text, int timeoutMs = 0);
    // Hides the first-run greeting for good (#17: one obvious next step).
    void markGreeted();
    void placeGreeting();  // across the top of the timeline view
    void fitStatus();      // elides statusWhole_ to the room the permanent widgets leave
    void updateConnectionLabel();
    void restoreSettings();
    void saveSettings();
    QDockWidget* dock(const QString& title, const QString& name, QWidget* widget,
                      Qt::DockWidgetArea area);
    void followWhileSeen(QDockWidget* leasesDock, QDockWidget* pollsDock, QDockWidget* logDock);
    QString taskLabel(const QString& key) const;

    MainWindowOptions options_;
    ConnectionController* connection_;
    RunController* run_;
    EventPump* pump_;
    ConsoleRun* consoleRun_;
    TimeCursor* cursor_;
    ReplayPlayer* replay_;
    TransportBar* transport_ = nullptr;
    QString recordingPath_;
    QStringList recentRecordings_;
    std::int64_t recordingEndNs_ = 0;  // the timeline's "now" while a recording is shown
    bool shownLive_ = true;            // the views show the head (followCursor did its work)
    QAction* closeRecordingAction_ = nullptr;
    RecordingLoader* loader_ = nullptr;
    std::unique_ptr<RecordingFeed> feed_;  // a recording being shown, slice by slice
    QTimer feedTimer_;
    bool sayRefusal_ = false;  // the open under way says a refusal in a dialog
    QProgressBar* openProgress_ = nullptr;
    QToolButton* openCancel_ = nullptr;
    RunExporter* exporter_ = nullptr;
    RecordingComparer* comparer_ = nullptr;
    SavePathAsker openPathAsker_;
    QPointer<ParityDialog> parity_;
    QList<QAction*> exportActions_;
    QProgressBar* exportBusy_ = nullptr;
    QTimer exportWait_;     // polls the live recording's commit before an export
    QString exportCovers_;  // what the export under way covers, for its message
    SavePathAsker savePathAsker_;
    MessageTableModel* messages_;
    EventLogModel* eventLog_;
    TimelineModel timeline_;
    ChartsModel chartsModel_;
    TimelineAtCursor timelineAt_;
    ChartsAtCursor chartsAt_;
    QString recordingChannel_;  // the work queue of the recording shown
    TimelinePanel* timelinePanel_ = nullptr;
    ChartsPanel* charts_ = nullptr;
    ExplainPanel* explain_ = nullptr;
    WorkerPoolPanel* workerPanel_ = nullptr;
    ProducerPanel* producer_ = nullptr;
    ChannelBrowser* channels_ = nullptr;
    MessagePanel* messagePanel_ = nullptr;
    LeaseBoardModel* leaseBoard_ = nullptr;
    LeasePanel* leasePanel_ = nullptr;
    PollFairnessModel* pollFairness_ = nullptr;
    PollPanel* pollPanel_ = nullptr;
    EventLogPanel* eventLogPanel_ = nullptr;
    LessonsPanel* lessons_ = nullptr;
    LessonRun* lessonRun_ = nullptr;
    ScenarioPlayer* player_ = nullptr;
    RunRecorder* recorder_ = nullptr;
    FirstRunGreeting* greeting_ = nullptr;
    bool offeringLastServer_ = false;
    QString statusWhole_;  // the status bar's message, whole (shown elided when long)
    QString statusShown_;  // what fitStatus() made of it
    QDeadlineTimer statusDeadline_;
    bool refittingStatus_ = false;  // the start-up probe is the last session's server
    QDockWidget* channelsDock_ = nullptr;
    bool channelsSeen_ = false;  // its tab in front (visibilityChanged)
    QDockWidget* messagesDock_ = nullptr;
    QLabel* connectionLabel_ = nullptr;
    SteadyLabel* rateLabel_ = nullptr;  // these two change every 250 ms: no relayout
    SteadyLabel* frameLabel_ = nullptr;
    QString connectionText_;
    QAction* darkAction_ = nullptr;
    QTimer slowTimer_;
    QTimer chartsTimer_;
    QByteArray defaultState_;
    std::uint64_t lastDelivered_ = 0;
    qint64 frameNsMax_ = 0;
};

}  // namespace qs::ui
