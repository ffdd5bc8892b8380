// MainWindow: opening a recorded run (docs/ui.md, "Time travel") from File →
// Open recording, the recent list, a drop onto the window or the command
// line. The file is read off the UI thread (RecordingLoader), then handed to
// the views in slices (RecordingFeed), with the progress in the status bar;
// the window answers all along. A file that cannot be read changes nothing.
#include <cstdlib>  // first: it says whether the C library is glibc (__GLIBC__)
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QToolButton>

#include "controllers/console_run.h"
#include "controllers/event_pump.h"
#include "controllers/recent_recordings.h"
#include "controllers/recording_feed.h"
#include "controllers/recording_loader.h"
#include "controllers/replay_player.h"
#include "controllers/run_controller.h"
#include "controllers/run_recorder.h"
#include "controllers/scenario_player.h"
#include "main_window.h"
#include "models/lease_board_model.h"
#include "models/message_table_model.h"
#include "panels/charts_panel.h"
#include "panels/event_log_panel.h"
#include "widgets/timeline_view.h"

namespace qs::ui {

namespace {

// The loaded copy of a recording's events is freed once the run holds them:
// a million events is ~150 MB in many small blocks, which glibc keeps for
// the process unless asked to return the free pages (docs/benchmarks.md,
// bench_recording_open).
void returnFreedMemoryToSystem() {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

// How long one slice of a recording's feed may hold the UI thread.
constexpr int kFeedSliceMs = 15;
// Events the time cursor's projections take in at a time while the checkpoints
// are taken (a few ms each).
constexpr std::uint64_t kPrepareStep = 2048;

int percent(std::uint64_t done, std::uint64_t total) {
    return total == 0 ? 0 : static_cast<int>(std::min<std::uint64_t>(100, done * 100 / total));
}

}  // namespace

void MainWindow::buildOpening() {
    loader_ = new RecordingLoader(this);
    connect(loader_, &RecordingLoader::progressed, this, &MainWindow::recordingReadProgressed);
    connect(loader_, &RecordingLoader::loaded, this,
            [this](const std::shared_ptr<const LoadedRecording>& recording) {
                if (feed_) {
                    stopFeeding();  // the latest open wins; it was read whole
                }
                adoptRecording(recording);
                openProgress_->setRange(0, 100);
                openCancel_->hide();  // a feed under way is not left half shown
                feedTimer_.start();
            });
    connect(loader_, &RecordingLoader::refused, this, &MainWindow::recordingRefusedByLoader);
    feedTimer_.setInterval(0);
    connect(&feedTimer_, &QTimer::timeout, this, &MainWindow::feedRecordingSlice);

    openProgress_ = new QProgressBar(this);
    openProgress_->setObjectName(QStringLiteral("openProgress"));
    openProgress_->setAccessibleName(QStringLiteral("Opening a recording"));
    openProgress_->setMaximumWidth(140);
    openProgress_->setToolTip(
        QStringLiteral("Opening a recording: its events are read, then "
                       "shown. The console goes on meanwhile."));
    openProgress_->hide();
    openCancel_ = new QToolButton(this);
    openCancel_->setObjectName(QStringLiteral("openCancel"));
    openCancel_->setText(QStringLiteral("Stop"));
    openCancel_->setToolTip(QStringLiteral("Stop reading the recording: nothing changes."));
    openCancel_->setAutoRaise(true);
    openCancel_->hide();
    connect(openCancel_, &QToolButton::clicked, this, [this] {
        loader_->cancel();
        openCancel_->hide();
        if (!feed_) {
            showOpenProgress(false);
            showStatus(QStringLiteral("Stopped opening the recording; nothing was changed."), 5000);
        }
    });
    statusBar()->addPermanentWidget(openProgress_);
    statusBar()->addPermanentWidget(openCancel_);
}

bool MainWindow::isOpeningRecording() const {
    return loader_->isBusy() || feed_ != nullptr;
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
    const QString folder = recentRecordings_.isEmpty()
                               ? recorder_->folder()
                               : QFileInfo(recentRecordings_.first()).path();
    const QString path = QFileDialog::getOpenFileName(
        this, QStringLiteral("Open recording"), folder,
        QStringLiteral("Queuescope recordings (*.qsrun);;All files (*)"));
    if (!path.isEmpty()) {
        openRecordingInteractive(path);
    }
}

void MainWindow::openRecordingInteractive(const QString& path) {
    startOpeningRecording(path);
    sayRefusal_ = true;
}

void MainWindow::startOpeningRecording(const QString& path) {
    sayRefusal_ = false;
    loader_->start(path);
    showOpenProgress(true);
    openProgress_->setRange(0, 0);  // busy until the file says how many events it has
    openCancel_->show();
    showStatus(QStringLiteral("Opening the recording %1…").arg(QFileInfo(path).fileName()));
}

void MainWindow::recordingReadProgressed(const QString& path, quint64 read, quint64 total) {
    if (feed_ || total == 0) {
        return;  // the feed under way shows its own progress
    }
    openProgress_->setRange(0, 100);
    openProgress_->setValue(percent(read, total));
    showStatus(QStringLiteral("Reading the recording %1: %L2 of %L3 events…")
                   .arg(QFileInfo(path).fileName())
                   .arg(read)
                   .arg(total));
}

void MainWindow::recordingRefusedByLoader(const QString& path, const QString& error) {
    if (!feed_) {
        showOpenProgress(false);
        statusBar()->clearMessage();
    }
    Q_EMIT recordingRefused(path, error);
    if (!sayRefusal_) {
        return;
    }
    auto* box =
        new QMessageBox(QMessageBox::Warning, QStringLiteral("Cannot open the recording"),
                        error + QStringLiteral("\n\nNothing was changed."), QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("openError"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::showOpenProgress(bool shown) {
    openProgress_->setVisible(shown);
    openCancel_->setVisible(shown && loader_->isBusy());
}

bool MainWindow::openRecording(const QString& path, QString* error) {
    std::optional<LoadedRecording> loaded = loadRecording(path, error);
    if (!loaded) {
        return false;  // read whole before anything changes: a bad file loses nothing
    }
    if (feed_) {
        stopFeeding();
    }
    adoptRecording(std::make_shared<const LoadedRecording>(std::move(*loaded)));
    feed_->feed(QDeadlineTimer(QDeadlineTimer::Forever));
    prepareProjections(QDeadlineTimer(QDeadlineTimer::Forever));
    finishShowing();
    return true;
}

// A recording read whole takes the console over: a live run ends (its own
// recording is kept), the views start empty and the feed begins.
void MainWindow::adoptRecording(const std::shared_ptr<const LoadedRecording>& recording) {
    replay_->pause();
    player_->stop();
    if (recordingPath_.isEmpty()) {
        run_->resetRun();           // ends (and keeps) the live run's own recording
        pump_->setStream(nullptr);  // the live stream waits until the console is live again
    }
    recordingPath_ = QFileInfo(recording->path).absoluteFilePath();
    leaseBoard_->setLiveClock(false);  // a recording has no "now": ages stop at its end
    recentRecordings_ = withRecentRecording(recentRecordings_, recordingPath_);
    if (options_.useSettings) {
        QSettings settings;
        saveRecentRecordings(settings, recentRecordings_);
    }
    consoleRun_->reset(recording->ledgerOptions);  // empties the head views too
    recordingChannel_ = recording->channel;
    recordingEndNs_ = 0;
    timelineView()->setClock([this] { return recordingEndNs_; });
    setLiveControlsEnabled(false);
    closeRecordingAction_->setEnabled(true);
    setWindowTitle(
        QStringLiteral("Queuescope — recording %1").arg(QFileInfo(recording->path).fileName()));
    feed_ = std::make_unique<RecordingFeed>(recording, *consoleRun_, chartsModel_);
}

// The run is fed first, then the time cursor's projections take their
// checkpoints over it, so that no move of the cursor has to (the first move
// to a late instant fed every event before it once).
void MainWindow::feedRecordingSlice() {
    const QDeadlineTimer deadline(kFeedSliceMs);
    const bool fed = feed_->done() || feed_->feed(deadline);
    recordingEndNs_ = feed_->endNs();
    const LoadedRecording& recording = feed_->recording();
    if (fed && prepareProjections(deadline)) {
        feedTimer_.stop();
        finishShowing();
        return;
    }
    const std::uint64_t total = recording.events.size();
    const std::uint64_t prepared = std::min(timelineAt_.eventsFed(), chartsAt_.eventsFed());
    openProgress_->setValue(fed ? percent(prepared, total) : percent(feed_->fed(), total));
    showStatus((fed ? QStringLiteral("Indexing the recording %1 for time travel: %L2 of %L3 "
                                     "events…")
                    : QStringLiteral("Showing the recording %1: %L2 of %L3 events…"))
                   .arg(QFileInfo(recording.path).fileName())
                   .arg(fed ? prepared : feed_->fed())
                   .arg(total));
}

bool MainWindow::prepareProjections(QDeadlineTimer deadline) {
    const Run& run = consoleRun_->run();
    const std::uint64_t all = run.eventCount();
    const std::int64_t lookBack = timelineLookBackNs();
    const std::string channel = workQueue();
    do {
        const bool timeline = timelineAt_.prepare(run, all, lookBack, kPrepareStep);
        const bool charts = chartsAt_.prepare(run, channel, all, kPrepareStep);
        if (timeline && charts) {
            // The cursor is live once it is shown: the timeline's own copy of
            // the whole run waits for a move (3 MB less RSS at a million events).
            timelineAt_.keepOnlyCheckpoints();
            return true;
        }
    } while (!deadline.hasExpired());
    return false;
}

// Every event is in: the views catch up once, the cursor live at the end.
void MainWindow::finishShowing() {
    std::unique_ptr<RecordingFeed> feed = std::move(feed_);
    const LoadedRecording& recording = feed->recording();
    recordingEndNs_ = feed->endNs();
    messages_->commitPendingRows();
    eventLogPanel_->refresh();
    charts_->refresh();
    if (!loader_->isBusy()) {
        showOpenProgress(false);
    }
    showStatus(QStringLiteral("Showing the recording %1 (%2, %L3 events%4). Play or scrub it below "
                              "the timeline; File → Back to the live console returns.")
                   .arg(QFileInfo(recording.path).fileName(), recording.name)
                   .arg(recording.events.size())
                   .arg(recording.finished ? QString() : QStringLiteral(", unfinished")));
    shownLive_ = false;
    followCursor();
    feed.reset();
    returnFreedMemoryToSystem();
    Q_EMIT recordingShown(recordingPath_);
}

// A feed given up half way (another recording replaces it, or the console
// goes back to live): whatever takes over resets the views.
void MainWindow::stopFeeding() {
    feedTimer_.stop();
    feed_.reset();
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
    openRecordingInteractive(urls.first().toLocalFile());
}

}  // namespace qs::ui
