// MainWindow: time travel (docs/ui.md, "Time travel") — the time cursor every
// view follows, its menu, and recorded runs opened from a file, the recent
// list or a drop onto the window.
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <algorithm>

#include "controllers/console_run.h"
#include "controllers/event_pump.h"
#include "controllers/recent_recordings.h"
#include "controllers/recording_loader.h"
#include "controllers/replay_player.h"
#include "controllers/run_controller.h"
#include "controllers/run_recorder.h"
#include "controllers/scenario_player.h"
#include "controllers/time_cursor.h"
#include "main_window.h"
#include "models/event_time.h"
#include "models/lease_board_model.h"
#include "models/message_table_model.h"
#include "models/worker_at_view.h"
#include "panels/channel_browser.h"
#include "panels/charts_panel.h"
#include "panels/event_log_panel.h"
#include "panels/explain_panel.h"
#include "panels/message_panel.h"
#include "panels/producer_panel.h"
#include "panels/worker_pool_panel.h"
#include "run/run.h"
#include "widgets/timeline_view.h"
#include "widgets/transport_bar.h"

namespace qs::ui {

void MainWindow::buildTimeMenu(QMenu* view) {
    view->addSeparator();
    QAction* play = view->addAction(QStringLiteral("&Play / pause the run"), transport_,
                                    &TransportBar::togglePlay);
    play->setShortcut(QKeySequence(QStringLiteral("Ctrl+P")));
    QAction* back = view->addAction(QStringLiteral("Jump to the previous landmark"), transport_,
                                    &TransportBar::jumpBack);
    back->setShortcut(QKeySequence(QStringLiteral("Alt+Left")));
    QAction* next = view->addAction(QStringLiteral("Jump to the next landmark"), transport_,
                                    &TransportBar::jumpForward);
    next->setShortcut(QKeySequence(QStringLiteral("Alt+Right")));
}

void MainWindow::wireCursor() {
    messages_->setCursor(cursor_);
    connect(cursor_, &TimeCursor::moved, this, &MainWindow::followCursor);
    // A new run is another run: the projections start again from it.
    connect(consoleRun_, &ConsoleRun::wasReset, this, [this] {
        timelineAt_.clear();
        chartsAt_.clear();
    });
    chartsAt_.setLatencyLookup([this](const Event& e) -> std::int64_t {
        const MessageRecord* r = consoleRun_->run().ledger().message(e.messageId.view());
        return r && r->sentNs > 0 ? e.timeNs - r->sentNs : -1;
    });
    connect(transport_, &TransportBar::statusMessage, this,
            [this](const QString& text) { showStatus(text, 5000); });
    // Dragged back past what the timeline's projection holds: it takes more of the Run.
    connect(timelineView(), &TimelineView::viewMoved, this, [this] {
        if (!cursor_->isLive()) {
            showProjectionsAt(cursor_->timeNs());
        }
    });
    // Double-click on the timeline ("follow live") returns every view to the head.
    connect(timelineView(), &TimelineView::liveChanged, this, [this](bool live) {
        if (live) {
            cursor_->goLive();
        }
    });
}

// Every view shows the cursor's instant: each reads the core state there.
void MainWindow::followCursor() {
    const bool live = cursor_->isLive();
    if (live && shownLive_ && recordingPath_.isEmpty()) {
        return;  // the head: the views follow the run's appends themselves
    }
    shownLive_ = live;
    const std::optional<std::int64_t> at =
        live ? std::nullopt : std::optional<std::int64_t>(cursor_->timeNs());
    showProjectionsAt(at);
    timelineView()->setCursorNs(at);
    if (live) {
        timelineView()->goLive();
    }
    messagePanel_->refresh();
    if (live && recordingPath_.isEmpty()) {
        workerPanel_->showPool();
    } else {
        workerPanel_->showPast(workerSnapshotsAt(consoleRun_->run(), cursor_->state()));
    }
    explain_->showTime(at);
    charts_->setCursorNs(at);
    if (!live && cursor_->eventCount() > 0) {
        eventLogPanel_->showEvent(cursor_->eventCount() - 1);
    } else if (live) {
        eventLogPanel_->followNewest();
    }
}

// At t the timeline, the charts and the Channels view show the Run at t,
// rebuilt by their projections (a step forward feeds only the events in
// between); live they show their own models and the server again.
void MainWindow::showProjectionsAt(std::optional<std::int64_t> timeNs) {
    if (!timeNs) {
        timelineAt_.clear();
        chartsAt_.clear();
        timelineView()->setModel(&timeline_);
        charts_->setModel(&chartsModel_);
        channels_->showServer();
        return;
    }
    const Run& run = consoleRun_->run();
    // The window the timeline shows around t, and as much again to drag back
    // into; further back when the view was dragged there.
    const auto span = static_cast<std::int64_t>(timelineView()->spanSeconds() * 1e9);
    const std::int64_t shownFrom = *timeNs - timelineView()->viewStartNs() + span;
    timelineAt_.showAt(run, *timeNs,
                       std::max<std::int64_t>({3 * span, 60'000'000'000LL, shownFrom}));
    timelineView()->setModel(&timelineAt_.model());
    chartsAt_.showAt(run, workQueue(), *timeNs);
    charts_->setModel(&chartsAt_.model());
    const double since = static_cast<double>(*timeNs - cursor_->startNs()) / 1e9;
    channels_->showRunAt(cursor_->state().channels, QStringLiteral("%1 s into the run (%2)")
                                                        .arg(since, 0, 'f', 3)
                                                        .arg(formatClock(*timeNs, true)));
}

std::string MainWindow::workQueue() const {
    return (recordingPath_.isEmpty() ? run_->channel() : recordingChannel_).toStdString();
}

void MainWindow::fillRecentMenu(QMenu* menu) {
    menu->clear();
    if (recentRecordings_.isEmpty()) {
        menu->addAction(QStringLiteral("(none opened yet)"))->setEnabled(false);
    }
    for (const QString& path : std::as_const(recentRecordings_)) {
        menu->addAction(QFileInfo(path).fileName(), this,
                        [this, path] { openRecordingInteractive(path); })
            ->setToolTip(path);
    }
}

void MainWindow::openRecordingDialog() {
    const QString folder =
        recentRecordings_.isEmpty() ? recorder_->folder() : QFileInfo(recentRecordings_.first()).path();
    const QString path = QFileDialog::getOpenFileName(
        this, QStringLiteral("Open recording"), folder,
        QStringLiteral("Queuescope recordings (*.qsrun);;All files (*)"));
    if (!path.isEmpty()) {
        openRecordingInteractive(path);
    }
}

void MainWindow::openRecordingInteractive(const QString& path) {
    QString error;
    if (!openRecording(path, &error)) {
        QMessageBox::warning(this, QStringLiteral("Cannot open the recording"),
                             error + QStringLiteral("\n\nNothing was changed."));
    }
}

bool MainWindow::openRecording(const QString& path, QString* error) {
    std::optional<LoadedRecording> loaded = loadRecording(path, error);
    if (!loaded) {
        return false;  // read whole before anything changes: a bad file loses nothing
    }
    replay_->pause();
    player_->stop();
    if (recordingPath_.isEmpty()) {
        run_->resetRun();  // ends (and keeps) the live run's own recording
        pump_->setStream(nullptr);  // the live stream waits until the console is live again
    }
    recordingPath_ = QFileInfo(path).absoluteFilePath();
    leaseBoard_->setLiveClock(false);  // a recording has no "now": ages stop at its end
    recentRecordings_ = withRecentRecording(recentRecordings_, recordingPath_);
    if (options_.useSettings) {
        QSettings settings;
        saveRecentRecordings(settings, recentRecordings_);
    }
    showRecordedRun(*loaded);
    return true;
}

// Shows a recording read whole: its events in every view, the controls of
// the live pool off, the cursor live at its end.
void MainWindow::showRecordedRun(const LoadedRecording& recording) {
    consoleRun_->reset(recording.ledgerOptions);
    recordingChannel_ = recording.channel;
    timeline_.clear();
    chartsModel_.clear();
    recordingEndNs_ = 0;
    timelineView()->setClock([this] { return recordingEndNs_; });
    feedRecording(recording);
    messages_->commitPendingRows();
    eventLogPanel_->refresh();
    charts_->refresh();
    setLiveControlsEnabled(false);
    closeRecordingAction_->setEnabled(true);
    const QString file = QFileInfo(recording.path).fileName();
    setWindowTitle(QStringLiteral("Queuescope — recording %1").arg(file));
    showStatus(QStringLiteral("Showing the recording %1 (%2, %L3 events%4). Play or scrub it below "
                              "the timeline; File → Back to the live console returns.")
                   .arg(file, recording.name)
                   .arg(recording.events.size())
                   .arg(recording.finished ? QString() : QStringLiteral(", unfinished")));
    shownLive_ = false;
    followCursor();
}

// The recorded events reach the run, the timeline and the charts a second
// at a time, as the pump would have handed them; the depth chart samples
// the work queue between them.
void MainWindow::feedRecording(const LoadedRecording& recording) {
    const std::string channel = recording.channel.toStdString();
    std::vector<Event> second;
    auto flush = [&] {
        consoleRun_->append(second);
        timeline_.apply(second);
        chartsModel_.apply(second);
        const ChannelAt* c = consoleRun_->run().channelNow(channel);
        chartsModel_.sampleDepth(second.back().timeNs,
                                 c ? static_cast<qint64>(c->count(MessageState::Waiting)) : 0,
                                 c ? static_cast<qint64>(c->count(MessageState::InFlight)) : 0);
        recordingEndNs_ = std::max(recordingEndNs_, second.back().timeNs);
        second.clear();
    };
    for (const Event& e : recording.events) {
        if (!second.empty() && e.timeNs - second.front().timeNs >= 1'000'000'000LL) {
            flush();
        }
        second.push_back(e);
    }
    if (!second.empty()) {
        flush();
    }
}

void MainWindow::closeRecording() {
    if (recordingPath_.isEmpty()) {
        return;
    }
    replay_->pause();
    recordingPath_.clear();
    leaseBoard_->setLiveClock(true);
    closeRecordingAction_->setEnabled(false);
    timelineView()->setClock({});
    setLiveControlsEnabled(true);
    pump_->setStream(&run_->stream());
    run_->resetRun();  // an empty live run: what the stream held meanwhile goes too
    workerPanel_->showPool();
    setWindowTitle(QStringLiteral("Queuescope — KubeMQ work queues, live"));
    showStatus(QStringLiteral("Back to the live console."), 5000);
}

// A recording is not the live pool: sending and the pool's controls would act
// on the server, unseen. The cards stay readable.
void MainWindow::setLiveControlsEnabled(bool enabled) {
    producer_->setEnabled(enabled);
    workerPanel_->setControlsEnabled(enabled);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.first().isLocalFile()) {
        event->acceptProposedAction();  // any file: a bad one is refused with the reason
    }
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() != 1 || !urls.first().isLocalFile()) {
        return;
    }
    event->acceptProposedAction();
    const QString path = urls.first().toLocalFile();
    // After the drop returns: a dialog inside the drop would hold the source's drag.
    QTimer::singleShot(0, this, [this, path] { openRecordingInteractive(path); });
}

}  // namespace qs::ui
