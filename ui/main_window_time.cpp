// MainWindow: time travel (docs/ui.md, "Time travel") — the time cursor every
// view follows, its menu, and the way back from a recorded run to the live
// console (main_window_open.cpp opens them).
#include <QFileInfo>
#include <QMenu>
#include <QStatusBar>
#include <algorithm>

#include "controllers/console_run.h"
#include "controllers/event_pump.h"
#include "controllers/head_views.h"
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
    chartsAt_.setLatencyLookup(
        [this](const Event& e) { return HeadViews::latencyNs(consoleRun_->run(), e); });
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
    if (feed_) {
        return;  // a recording being shown: the views follow once it is all in
    }
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
        if (recordingPath_.isEmpty()) {
            // A live run: the projections' memory goes. A recording keeps
            // them, with the checkpoints taken while it was opened.
            timelineAt_.clear();
            chartsAt_.clear();
        }
        timelineView()->setModel(&timeline_);
        charts_->setModel(&chartsModel_);
        channels_->showServer();
        return;
    }
    const Run& run = consoleRun_->run();
    // Further back when the view was dragged there.
    const auto span = static_cast<std::int64_t>(timelineView()->spanSeconds() * 1e9);
    const std::int64_t shownFrom = *timeNs - timelineView()->viewStartNs() + span;
    timelineAt_.showAt(run, *timeNs, std::max(timelineLookBackNs(), shownFrom));
    timelineView()->setModel(&timelineAt_.model());
    chartsAt_.showAt(run, workQueue(), *timeNs);
    charts_->setModel(&chartsAt_.model());
    const double since = static_cast<double>(*timeNs - cursor_->startNs()) / 1e9;
    channels_->showRunAt(cursor_->state().channels, QStringLiteral("%1 s into the run (%2)")
                                                        .arg(since, 0, 'f', 3)
                                                        .arg(formatClock(*timeNs, true)));
}

// The window the timeline shows around t, and as much again to drag back into.
std::int64_t MainWindow::timelineLookBackNs() const {
    const auto span = static_cast<std::int64_t>(timelineView()->spanSeconds() * 1e9);
    return std::max<std::int64_t>(3 * span, 60'000'000'000LL);
}

std::string MainWindow::workQueue() const {
    return (recordingPath_.isEmpty() ? run_->channel() : recordingChannel_).toStdString();
}

void MainWindow::closeRecording() {
    if (recordingPath_.isEmpty()) {
        return;
    }
    replay_->pause();
    stopFeeding();
    showOpenProgress(loader_->isBusy());
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

}  // namespace qs::ui
