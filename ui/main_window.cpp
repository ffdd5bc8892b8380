#include "main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QVBoxLayout>

#include "common/clock.h"
#include "controllers/connection_controller.h"
#include "controllers/console_run.h"
#include "controllers/event_pump.h"
#include "controllers/head_views.h"
#include "controllers/recent_recordings.h"
#include "controllers/recording_feed.h"
#include "controllers/recording_loader.h"
#include "controllers/replay_player.h"
#include "controllers/run_controller.h"
#include "controllers/run_recorder.h"
#include "controllers/save_location.h"
#include "controllers/scenario_library.h"
#include "controllers/scenario_player.h"
#include "controllers/time_cursor.h"
#include "dialogs/connection_dialog.h"
#include "dialogs/embedded_store_dialog.h"
#include "dialogs/recordings_menu.h"
#include "models/channel_list_model.h"
#include "models/event_log_model.h"
#include "models/lease_board_model.h"
#include "models/message_table_model.h"
#include "models/poll_fairness_model.h"
#include "panels/channel_browser.h"
#include "panels/charts_panel.h"
#include "panels/event_log_panel.h"
#include "panels/explain_panel.h"
#include "panels/lease_panel.h"
#include "panels/message_panel.h"
#include "panels/poll_panel.h"
#include "panels/producer_panel.h"
#include "panels/timeline_panel.h"
#include "panels/worker_pool_panel.h"
#include "run/run.h"
#include "widgets/first_run_greeting.h"
#include "widgets/recording_status.h"
#include "widgets/steady_label.h"
#include "widgets/theme.h"
#include "widgets/timeline_view.h"
#include "widgets/transport_bar.h"

namespace qs::ui {

MainWindow::MainWindow(MainWindowOptions options, QWidget* parent)
    : QMainWindow(parent),
      options_(options),
      connection_(new ConnectionController(this)),
      run_(new RunController(connection_, this)),
      pump_(new EventPump(this)),
      consoleRun_(new ConsoleRun(
          options.keepRunInRam ? QString() : ConsoleRun::defaultSpillFolder(), this)),
      cursor_(new TimeCursor(consoleRun_, this)),
      replay_(new ReplayPlayer(cursor_, this)),
      messages_(new MessageTableModel(consoleRun_, this)),
      eventLog_(new EventLogModel(consoleRun_, this)),
      player_(new ScenarioPlayer(run_, this)) {
    setWindowTitle(QStringLiteral("Queuescope — KubeMQ work queues, live"));
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks |
                   QMainWindow::AllowNestedDocks);

    timeline_.setDetailBudget(options.liveTimelineBars);
    timelinePanel_ = new TimelinePanel(&timeline_, this);
    charts_ = new ChartsPanel(&chartsModel_, this);
    transport_ = new TransportBar(consoleRun_, cursor_, replay_, this);
    // The transport bar sits under the timeline, in one pane with it.
    auto* timelinePane = new QWidget(this);
    auto* timelineLayout = new QVBoxLayout(timelinePane);
    timelineLayout->setContentsMargins(0, 0, 0, 0);
    timelineLayout->setSpacing(0);
    timelineLayout->addWidget(timelinePanel_, 1);
    timelineLayout->addWidget(transport_);
    auto* centre = new QSplitter(Qt::Vertical, this);
    centre->addWidget(timelinePane);
    centre->addWidget(charts_);
    centre->setStretchFactor(0, 3);
    centre->setStretchFactor(1, 2);
    // Start half and half: the charts' small minimum (so 1280x720 fits) must not
    // make them the part that gives way on larger screens.
    centre->setSizes({500, 500});
    centre->setChildrenCollapsible(false);
    setCentralWidget(centre);
    // Over the (still empty) timeline rather than in a layout: a layout would
    // make the window taller than a 1280x720 screen for the first minutes.
    greeting_ = new FirstRunGreeting(timelineView());
    greeting_->hide();
    timelineView()->installEventFilter(this);

    // New tasks become rows 5 times a second, not every frame (docs/ui.md, "Frames").
    messages_->setCommitIntervalMs(200);
    messages_->setLiveWindow(options.liveTableRows);
    // A send numbers its tasks after every task the run has seen (issue #17 item 5).
    run_->setRunTaskCount([this] { return consoleRun_->run().messageCount(); });
    buildDocks();
    recorder_ = new RunRecorder(run_, pump_, player_, consoleRun_, this);
    recorder_->setEnabled(options_.recordRuns &&
                          (options_.useSettings || QStandardPaths::isTestModeEnabled()));
    if (options_.useSettings) {
        recorder_->setRetention(loadRetentionLimits(QSettings()));
    }
    buildLessonsDock();
    buildMenus();
    buildOpening();
    wireEngine();
    wireCursor();
    setAcceptDrops(true);
    if (options_.useSettings) {
        recentRecordings_ = loadRecentRecordings(QSettings());
    }

    connectionLabel_ = new QLabel(this);
    connectionLabel_->setToolTip(
        QStringLiteral("Server, version, uptime and connection state (pinged every 2 s).\n"
                       "File → Connect to server… (Ctrl+K) connects to another one."));
    rateLabel_ = new SteadyLabel(this);
    rateLabel_->setToolTip(QStringLiteral("Events per second the console is showing."));
    frameLabel_ = new SteadyLabel(this);
    frameLabel_->setToolTip(
        QStringLiteral("UI work per frame (worst in the last quarter second)."));
    statusBar()->addPermanentWidget(new RecordingStatus(recorder_, this));
    connect(consoleRun_, &ConsoleRun::spillProblemFound, this,
            [this](const QString& why) { showStatus(QStringLiteral("⚠ ") + why); });
    statusBar()->addPermanentWidget(rateLabel_);
    statusBar()->addPermanentWidget(frameLabel_);
    statusBar()->addPermanentWidget(connectionLabel_);
    connect(statusBar(), &QStatusBar::messageChanged, this, [this](const QString& message) {
        if (message.isEmpty() && !refittingStatus_) {
            statusWhole_.clear();  // the elided message's whole text has gone too
            statusBar()->setToolTip(QString());
        }
    });
    for (QWidget* w : statusBar()->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly)) {
        w->installEventFilter(this);  // a permanent widget that grows or moves: fit again
    }
    statusBar()->installEventFilter(this);

    resize(1600, 1000);
    defaultState_ = saveState();
    if (options_.useSettings) {
        restoreSettings();
        if (!QSettings().value(FirstRunGreeting::kGreetedKey, false).toBool()) {
            showGreeting();
        }
    }

    slowTimer_.setInterval(250);
    connect(&slowTimer_, &QTimer::timeout, this, &MainWindow::slowRefresh);
    slowTimer_.start();
    // The charts' refresh (a chart's new data, then QtCharts' update of its
    // scene) and the panels' refresh (counters, cards, labels) each take a
    // frame of their own rather than adding up in one.
    chartsTimer_.setInterval(250);
    connect(&chartsTimer_, &QTimer::timeout, this, &MainWindow::refreshCharts);
    QTimer::singleShot(125, this, [this] {
        if (slowTimer_.isActive()) {
            chartsTimer_.start();
        }
    });
    pump_->start();

    if (options_.embeddedStore) {
        connection_->setEmbeddedStore(*options_.embeddedStore);
    } else if (options_.useSettings) {
        QSettings settings;
        connection_->setEmbeddedStore(EmbeddedStore::load(settings));
    }
    if (options_.embeddedOnly) {
        QTimer::singleShot(0, this, [this] {
            QString error;
            if (!connection_->startEmbedded(options_.embeddedPort, &error)) {
                showStatus(QStringLiteral("Could not start the embedded broker: ") + error);
            }
        });
    } else if (options_.autoConnect) {
        QTimer::singleShot(0, this, [this] {
            // The server of the last session is offered again; a first run (or one
            // after the embedded broker) looks on localhost and else starts its own.
            QSettings settings;
            const auto last = options_.useSettings ? lastServerUsed(settings) : std::nullopt;
            offeringLastServer_ = last.has_value();
            if (last) {
                connection_->autoStart(*last, options_.embeddedPort);
            } else {
                connection_->autoStart(QStringLiteral("localhost:50000"), options_.embeddedPort);
            }
        });
    }
}

MainWindow::~MainWindow() {
    // The timeline and charts models (members, gone before the children)
    // follow the run on its ingest thread: no follow after this.
    consoleRun_->setFollower({});
    // The run uses the connection (broker observer, client options): tear
    // down in dependency order rather than in QObject child order.
    slowTimer_.stop();
    chartsTimer_.stop();
    pump_->stop();
    player_->stop();
    delete player_;
    player_ = nullptr;
    run_->stopAll();
    recorder_->endRun();  // the run's last events and outcome, while the run exists
    pump_->setStream(nullptr);
    channels_->setRunStream(nullptr);
    delete run_;
    run_ = nullptr;
    delete connection_;
    connection_ = nullptr;
}

TimelineView* MainWindow::timelineView() const {
    return timelinePanel_->view();
}

QDockWidget* MainWindow::dock(const QString& title, const QString& name, QWidget* widget,
                              Qt::DockWidgetArea area) {
    auto* d = new QDockWidget(title, this);
    d->setObjectName(name);
    d->setWidget(widget);
    d->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                   QDockWidget::DockWidgetClosable);
    addDockWidget(area, d);
    return d;
}

// A dock behind another tab is moved off screen, not hidden: QMainWindow
// keeps it visible. Its views ask the dock's visibilityChanged whether they
// are seen, and follow the run only then.
void MainWindow::followWhileSeen(QDockWidget* leasesDock, QDockWidget* pollsDock,
                                 QDockWidget* logDock) {
    connect(leasesDock, &QDockWidget::visibilityChanged, leasePanel_, &LeasePanel::setOnScreen);
    connect(pollsDock, &QDockWidget::visibilityChanged, pollPanel_, &PollPanel::setOnScreen);
    connect(logDock, &QDockWidget::visibilityChanged, this, [this](bool seen) {
        eventLog_->setPaused(!seen);
        if (seen) {
            eventLogPanel_->refresh();
        }
    });
    connect(channelsDock_, &QDockWidget::visibilityChanged, this,
            [this](bool seen) { channelsSeen_ = seen; });
}

void MainWindow::buildDocks() {
    producer_ = new ProducerPanel(run_, this);
    workerPanel_ = new WorkerPoolPanel(run_, this);
    explain_ = new ExplainPanel(consoleRun_, this);
    messagePanel_ = new MessagePanel(messages_, this);
    eventLogPanel_ = new EventLogPanel(eventLog_, this);
    channels_ = new ChannelBrowser(connection_, this);
    leaseBoard_ = new LeaseBoardModel(consoleRun_, cursor_, this);
    leaseBoard_->setActive(false);  // until its dock is first seen
    leasePanel_ = new LeasePanel(leaseBoard_, this);
    pollFairness_ = new PollFairnessModel(consoleRun_, cursor_, this);
    pollFairness_->setActive(false);  // until its dock is first seen
    eventLog_->setPaused(true);       // the same
    pollPanel_ = new PollPanel(pollFairness_, this);

    // The producer form scrolls inside the panel, below Send (which never scrolls).
    auto* producerDock = dock(QStringLiteral("Producer"), QStringLiteral("producerDock"), producer_,
                              Qt::LeftDockWidgetArea);
    auto* poolDock = dock(QStringLiteral("Worker pool"), QStringLiteral("workerPoolDock"),
                          workerPanel_, Qt::RightDockWidgetArea);
    auto* explainDock = dock(QStringLiteral("What just happened"), QStringLiteral("explainDock"),
                             explain_, Qt::LeftDockWidgetArea);
    messagesDock_ = dock(QStringLiteral("Messages"), QStringLiteral("messagesDock"), messagePanel_,
                         Qt::BottomDockWidgetArea);
    auto* logDock = dock(QStringLiteral("Event log"), QStringLiteral("eventLogDock"),
                         eventLogPanel_, Qt::BottomDockWidgetArea);
    channelsDock_ = dock(QStringLiteral("Channels"), QStringLiteral("channelsDock"), channels_,
                         Qt::BottomDockWidgetArea);
    auto* leasesDock = dock(QStringLiteral("In flight"), QStringLiteral("leasesDock"),
                            leasePanel_, Qt::BottomDockWidgetArea);
    auto* pollsDock = dock(QStringLiteral("Polls"), QStringLiteral("pollsDock"), pollPanel_,
                           Qt::BottomDockWidgetArea);
    splitDockWidget(producerDock, explainDock, Qt::Vertical);
    tabifyDockWidget(messagesDock_, leasesDock);
    tabifyDockWidget(leasesDock, pollsDock);
    tabifyDockWidget(pollsDock, logDock);
    tabifyDockWidget(logDock, channelsDock_);
    messagesDock_->raise();
    followWhileSeen(leasesDock, pollsDock, logDock);
    resizeDocks({producerDock, poolDock}, {360, 430}, Qt::Horizontal);
    resizeDocks({messagesDock_}, {260}, Qt::Vertical);
    resizeDocks({producerDock, explainDock}, {430, 400}, Qt::Vertical);
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(QStringLiteral("&File"));
    QAction* connectAct =
        file->addAction(QStringLiteral("&Connect to server…"), this, &MainWindow::connectDialog);
    connectAct->setShortcut(QKeySequence(QStringLiteral("Ctrl+K")));
    connectAct->setToolTip(
        QStringLiteral("Connect to a KubeMQ server (address, client id, token, TLS)."));
    file->addAction(QStringLiteral("Use &embedded broker"), this, &MainWindow::useEmbeddedBroker)
        ->setToolTip(QStringLiteral("Run the built-in KubeMQ-compatible broker on 127.0.0.1."));
    file->addAction(QStringLiteral("Embedded broker &storage…"), this,
                    &MainWindow::embeddedStoreDialog)
        ->setToolTip(QStringLiteral(
            "Keep the embedded broker's queues in memory or on disk across restarts."));
    file->addSeparator();
    QAction* openAct = file->addAction(QStringLiteral("&Open recording…"), this,
                                       &MainWindow::openRecordingDialog);
    openAct->setShortcut(QKeySequence::Open);
    openAct->setToolTip(QStringLiteral(
        "Show a recorded run (*.qsrun) in every view, to scrub and play back. You can also drop "
        "the file onto the window."));
    QMenu* recent = file->addMenu(QStringLiteral("Open &recent recording"));
    connect(recent, &QMenu::aboutToShow, this, [this, recent] { fillRecentMenu(recent); });
    closeRecordingAction_ = file->addAction(QStringLiteral("&Back to the live console"), this,
                                            &MainWindow::closeRecording);
    closeRecordingAction_->setToolTip(
        QStringLiteral("Leave the recording shown and start an empty live run."));
    closeRecordingAction_->setEnabled(false);
    file->addSeparator();
    QAction* saveTimeline = file->addAction(QStringLiteral("Save &timeline as PNG…"),
                                            timelinePanel_, &TimelinePanel::savePngInteractive);
    saveTimeline->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+S")));
    file->addAction(QStringLiteral("Save c&harts as PNG…"), this, [this] {
        // Opens in the last folder saved to, else Documents (never the working directory).
        const QString path =
            askSavePath(this, QStringLiteral("Save charts"), QStringLiteral("charts.png"),
                        QStringLiteral("PNG (*.png)"));
        if (path.isEmpty()) {
            return;
        }
        if (!charts_->savePng(path)) {
            QMessageBox::warning(this, QStringLiteral("Save failed"),
                                 QStringLiteral("Could not write %1").arg(path));
            return;
        }
        showStatus(QStringLiteral("Saved the charts to %1").arg(path), 8000);
    });
    QAction* exportAct = file->addAction(QStringLiteral("E&xport events…"), eventLogPanel_,
                                         &EventLogPanel::exportInteractive);
    exportAct->setShortcut(QKeySequence(QStringLiteral("Ctrl+E")));
    buildExportActions(file);
    file->addMenu(createRecordingsMenu(recorder_, this, options_.useSettings));
    file->addSeparator();
    QAction* quit = file->addAction(QStringLiteral("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* runMenu = menuBar()->addMenu(QStringLiteral("&Run"));
    QAction* send =
        runMenu->addAction(QStringLiteral("&Send tasks"), producer_, &ProducerPanel::send);
    send->setShortcut(QKeySequence(QStringLiteral("Ctrl+Return")));
    runMenu->addAction(QStringLiteral("S&top sending"), producer_, &ProducerPanel::stop);
    runMenu->addSeparator();
    QAction* add = runMenu->addAction(QStringLiteral("&Add a worker"), workerPanel_,
                                      &WorkerPoolPanel::addWorker);
    add->setShortcuts(
        {QKeySequence(QStringLiteral("Ctrl++")), QKeySequence(QStringLiteral("Ctrl+="))});
    QAction* remove = runMenu->addAction(QStringLiteral("&Remove a worker"), workerPanel_,
                                         &WorkerPoolPanel::removeWorker);
    remove->setShortcut(QKeySequence(QStringLiteral("Ctrl+-")));
    QAction* pauseAll =
        runMenu->addAction(QStringLiteral("&Pause all workers"), run_, &RunController::pauseAll);
    pauseAll->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+P")));
    QAction* resumeAll =
        runMenu->addAction(QStringLiteral("Res&ume all workers"), run_, &RunController::resumeAll);
    resumeAll->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+U")));
    runMenu->addSeparator();
    QMenu* scenarios = runMenu->addMenu(QStringLiteral("Play s&cenario"));
    connect(scenarios, &QMenu::aboutToShow, this, [this, scenarios] {
        scenarios->clear();
        const QStringList names = scenarioNames();
        if (names.isEmpty()) {
            scenarios->addAction(QStringLiteral("(no scenarios found)"))->setEnabled(false);
        }
        for (const QString& name : names) {
            scenarios->addAction(name, this, [this, name] {
                QString error;
                if (!playScenario(name, &error)) {
                    QMessageBox::warning(this, QStringLiteral("Scenario"), error);
                }
            });
        }
    });
    QAction* parity =
        runMenu->addAction(QStringLiteral("Parit&y check…"), this, &MainWindow::parityDialog);
    parity->setObjectName(QStringLiteral("parityAction"));
    parity->setToolTip(QStringLiteral(
        "Run a scenario on the embedded broker and on another server, and compare the runs."));
    QAction* reset = runMenu->addAction(QStringLiteral("R&eset run"), this, &MainWindow::resetRun);
    reset->setShortcut(QKeySequence(QStringLiteral("Ctrl+R")));
    reset->setToolTip(QStringLiteral("Stop the producer and every worker and clear all views."));

    QMenu* view = menuBar()->addMenu(QStringLiteral("&View"));
    QAction* live = view->addAction(QStringLiteral("Pause / follow &timeline"), this,
                                    [this] { timelineView()->setLive(!timelineView()->isLive()); });
    live->setShortcut(QKeySequence(Qt::Key_Space));
    live->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    timelinePanel_->addAction(live);
    QAction* goLive = view->addAction(QStringLiteral("&Follow live"), this, [this] {
        cursor_->goLive();
        timelineView()->goLive();
    });
    goLive->setShortcut(QKeySequence(QStringLiteral("Ctrl+L")));
    QAction* back = view->addAction(QStringLiteral("Scrub &back"), this, [this] {
        timelineView()->scrubSeconds(-timelineView()->spanSeconds() / 4);
    });
    back->setShortcut(QKeySequence(QStringLiteral("Ctrl+Left")));
    QAction* fwd = view->addAction(QStringLiteral("Scrub f&orward"), this, [this] {
        timelineView()->scrubSeconds(timelineView()->spanSeconds() / 4);
    });
    fwd->setShortcut(QKeySequence(QStringLiteral("Ctrl+Right")));
    buildTimeMenu(view);
    view->addSeparator();
    darkAction_ = view->addAction(QStringLiteral("&Dark theme"));
    darkAction_->setCheckable(true);
    darkAction_->setShortcut(QKeySequence(QStringLiteral("Ctrl+D")));
    connect(darkAction_, &QAction::toggled, this, &MainWindow::setDarkTheme);
    QAction* channelsAct =
        view->addAction(QStringLiteral("&Channels"), this, &MainWindow::showChannels);
    channelsAct->setShortcut(QKeySequence(QStringLiteral("F6")));
    QAction* refreshChannels =
        view->addAction(QStringLiteral("&Refresh channels"), channels_, &ChannelBrowser::refresh);
    refreshChannels->setShortcut(QKeySequence(QStringLiteral("F5")));
    view->addSeparator();
    QMenu* docks = view->addMenu(QStringLiteral("&Panels"));
    for (QDockWidget* d : findChildren<QDockWidget*>()) {
        docks->addAction(d->toggleViewAction());
    }
    view->addAction(QStringLiteral("Reset &layout"), this, [this] { restoreState(defaultState_); });

    QMenu* help = menuBar()->addMenu(QStringLiteral("&Help"));
    help->addAction(QStringLiteral("&About Queuescope"), this, [this] {
        QMessageBox::about(
            this, QStringLiteral("About Queuescope"),
            QStringLiteral("<h3>Queuescope</h3><p>Watch KubeMQ work queues live: competing "
                           "consumers, batches, acks and at-least-once redelivery.</p>"
                           "<p>Hover any control for what it changes.</p>"));
    });
    // A tooltip names the shortcut as the menu entry does ("Send tasks (Ctrl+Return)").
    for (QAction* a : findChildren<QAction*>()) {
        const QString keys = a->shortcut().toString(QKeySequence::NativeText);
        if (!keys.isEmpty() && !a->toolTip().contains(keys)) {
            a->setToolTip(QStringLiteral("%1 (%2)").arg(a->toolTip(), keys));
        }
    }
}

QString MainWindow::taskLabel(const QString& key) const {
    const auto index = taskIndexOfKey(consoleRun_->run(), key);
    return index ? QStringLiteral("#%1").arg(*index + 1) : QString();
}

void MainWindow::wireEngine() {
    pump_->setStream(&run_->stream());
    channels_->setRunStream(&run_->stream());  // peeks and purges reach the run
    timelineView()->setLabelFunction([this](const QString& key) { return taskLabel(key); });
    explain_->explainer().setLabelFunction([this](const QString& key) {
        const QString label = taskLabel(key);
        return label.isEmpty() ? label : QStringLiteral("Task ") + label;
    });
    // The run is the pump's one view sink: every view reads the run as the
    // batch left it; the timeline and charts at its head through HeadViews.
    // Live frames' batches go in on the run's ingest thread (appendLive).
    pump_->addSink(
        [this](const std::vector<Event>& b) {
            pump_->deliveringLive() ? consoleRun_->appendLive(b) : consoleRun_->append(b);
        },
        QStringLiteral("run"));
    new HeadViews(consoleRun_, &timeline_, &chartsModel_, this);
    connect(pump_, &EventPump::frameDone, this, [this](int, qint64 ns) {
        frameNsMax_ = std::max(frameNsMax_, ns);
        eventLogPanel_->refresh();
    });
    // Every frame, with events or none: the views hear of what went in on the
    // run's ingest thread, and the timeline follows "now" even when nothing
    // happens. One tick for both: the UI thread wakes once a frame.
    connect(pump_, &EventPump::ticked, consoleRun_, &ConsoleRun::tellViews);
    connect(pump_, &EventPump::ticked, timelineView(), &TimelineView::refresh);

    connect(timelineView(), &TimelineView::messageClicked, this, &MainWindow::selectMessage);
    connect(messagePanel_, &MessagePanel::messageSelected, this, &MainWindow::selectMessage);
    connect(explain_, &ExplainPanel::messageClicked, this, &MainWindow::selectMessage);

    connect(run_, &RunController::runReset, this, [this] {
        if (!recordingPath_.isEmpty()) {
            return;  // a recording is shown: the live run's reset (a new server) is not its
        }
        consoleRun_->reset(run_->ledgerOptions());  // empties the head views too
        charts_->refresh();
    });
    connect(eventLogPanel_, &EventLogPanel::statusMessage, this,
            [this](const QString& t) { showStatus(t, 8000); });
    connect(timelinePanel_, &TimelinePanel::statusMessage, this,
            [this](const QString& t) { showStatus(t, 8000); });
    connect(run_, &RunController::errorMessage, this,
            [this](const QString& t) { showStatus(t, 8000); });
    connect(producer_, &ProducerPanel::tasksStarted, this, [this](const workers::TaskSpec& spec) {
        if (!spec.policy.deadLetterQueue.empty()) {
            channels_->model()->noteDeadLetter(QString::fromStdString(spec.policy.deadLetterQueue),
                                               QString::fromStdString(spec.channel),
                                               spec.policy.maxReceiveCount);
        }
    });
    channels_->model()->setConsoleCounts(
        [this](const QString& name) -> std::optional<ConsoleChannelCounts> {
            const Run& run = consoleRun_->run();
            const ChannelAt* c = run.channelNow(name.toStdString());
            if (name != run_->channel() || c == nullptr) {
                return std::nullopt;
            }
            // A dead-lettered copy lives in its dead-letter channel: the run's
            // dead-lettered tasks all came from the channel it works.
            const LedgerSummary& s = run.summaryNow();
            return ConsoleChannelCounts{static_cast<qint64>(c->count(MessageState::InFlight)),
                                        static_cast<qint64>(c->count(MessageState::Acked)),
                                        static_cast<qint64>(s.count(MessageState::DeadLettered) +
                                                            s.count(MessageState::Dropped))};
        });
    connect(channels_, &ChannelBrowser::channelActivated, this, [this](const QString& name) {
        run_->setChannel(name);
        showStatus(QStringLiteral("Producer and workers now use queue \"%1\"").arg(name), 5000);
    });

    connect(connection_, &ConnectionController::statusMessage, this,
            [this](const QString& text) { showStatus(text, 10000); });
    connect(connection_, &ConnectionController::existingServerFound, this,
            [this](const QString& address, const QString& version) {
                const QString found =
                    offeringLastServer_
                        ? QStringLiteral("The server you used last time, %2 (KubeMQ %1), answers.")
                        : QStringLiteral("A KubeMQ server (%1) answers at %2.");
                const auto answer = QMessageBox::question(
                    this, QStringLiteral("KubeMQ server found"),
                    found.arg(version, address) +
                        QStringLiteral("\n\nConnect to it? Choose No to start the embedded broker "
                                       "instead."),
                    QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
                if (answer == QMessageBox::Yes) {
                    ConnectionSettings s = connection_->settings();
                    s.address = address;
                    connection_->connectTo(s);
                } else {
                    useEmbeddedBroker();
                }
            });
    // A lost or regained server shows at once, not at the next slow refresh.
    connect(connection_, &ConnectionController::stateChanged, this,
            [this] { updateConnectionLabel(); });
    connect(connection_, &ConnectionController::serverInfoChanged, this,
            [this] { updateConnectionLabel(); });
    connect(player_, &ScenarioPlayer::started, this, [this](const QString& n) {
        showStatus(QStringLiteral("Playing scenario ") + n, 5000);
    });
    // The greeting has served once the user sends or plays anything.
    connect(producer_, &ProducerPanel::tasksStarted, this, [this] { markGreeted(); });
    connect(greeting_, &FirstRunGreeting::dismissed, this, &MainWindow::markGreeted);
    connect(greeting_, &FirstRunGreeting::playRequested, this, [this] {
        QString error;
        if (!connection_->client()) {
            error = QStringLiteral(
                "not connected to a server yet (see the right of the status bar; File → Connect, "
                "Ctrl+K, picks one).");
        } else if (!playScenario(QString::fromLatin1(FirstRunGreeting::kFirstScenario), &error)) {
            error += QLatin1Char('.');
        }
        greeting_->showProblem(error.isEmpty() ? QString()
                                               : QStringLiteral("Cannot play it: ") + error);
    });
    connect(player_, &ScenarioPlayer::failed, this,
            [this](const QString& e) { showStatus(e, 10000); });
    connect(player_, &ScenarioPlayer::finished, this, &MainWindow::scenarioFinished);
    connect(player_, &ScenarioPlayer::stepsNotReached, this, [this](const QStringList& steps) {
        showStatus(QStringLiteral("⚠ Scenario ended before these steps: ") +
                       steps.join(QStringLiteral("; ")),
                   20000);
    });
    connect(player_, &ScenarioPlayer::channelStepDone, this, [this](bool ok, const QString& text) {
        // A failed step does not stop the run (sending creates the channel), but
        // it must not pass unseen: it stays up longer and says what goes on.
        // The server's words can be long (a v2.4.0 without channel management):
        // the Channels view's outcome line has them whole.
        const QString message =
            ok ? QString(QStringLiteral("Scenario: ") + text)
               : QString(QStringLiteral("⚠ Scenario step failed, the run goes on without it: ") +
                         text);
        showStatus(message, ok ? 6000 : 20000);
        channels_->setOutcome(QStringLiteral("Scenario: ") + text, ok);
        if (ok) {
            channels_->refresh();  // show (or drop) the channel in the Channels view
        }
    });
    // A timeline action that did not fully happen (an unknown worker, a refused
    // setting, a failed scale) must not pass unseen; the others show in the views.
    connect(player_, &ScenarioPlayer::actionApplied, this,
            [this](const QString& description, bool warned) {
                if (warned) {
                    showStatus(QStringLiteral("⚠ Scenario: ") + description, 20000);
                }
            });
    player_->setRedrivenCount([this] { return consoleRun_->run().summaryNow().redriven; });
    player_->setDeadLetteredIds([this](const std::string& channel) {
        return consoleRun_->run().ledger().deadLetteredIds(channel);
    });
    player_->setDrainedCheck([this] {
        const Run& run = consoleRun_->run();
        const LedgerSummary& s = run.summaryNow();
        return run.messageCount() > 0 && s.count(MessageState::Waiting) +
                                                 s.count(MessageState::Delayed) +
                                                 s.count(MessageState::InFlight) ==
                                             0;
    });
}

// Workers of a drained scenario keep polling: without a word the run looks
// unfinished (#17 item 6), so its end is said where the eye goes.
void MainWindow::scenarioFinished(const QString& name) {
    QString how;
    switch (player_->lastEnd()) {
        case runner::RunEnd::None:
            break;  // stopped early: the action that stopped it says so
        case runner::RunEnd::Drained:
            how = QStringLiteral("finished: every task was settled");
            break;
        case runner::RunEnd::TimeBound:
            how = QStringLiteral("ended at its time limit before every task was settled");
            break;
        case runner::RunEnd::RunTimeOver:
            how = QStringLiteral("finished: its run time is over");
            break;
    }
    producer_->scenarioEnded(how);
    if (how.isEmpty()) {
        return;
    }
    const bool warn = player_->lastEnd() == runner::RunEnd::TimeBound;
    const QString workers =
        run_->workerCount() > 0
            ? QStringLiteral(" Its workers keep polling for more (Ctrl+R resets the run).")
            : QString();
    showStatus((warn ? QStringLiteral("⚠ ") : QStringLiteral("✓ ")) +
               QStringLiteral("Scenario \"%1\" %2.").arg(name, how) + workers);
}

void MainWindow::showStatus(const QString& text, int timeoutMs) {
    statusWhole_ = text;
    statusShown_.clear();
    statusDeadline_ = timeoutMs > 0 ? QDeadlineTimer(timeoutMs) : QDeadlineTimer::Forever;
    fitStatus();
}

// The status bar clips a message its permanent widgets leave no room for:
// it is elided deliberately, again whenever they move, with the whole text in
// the bar's tooltip.
void MainWindow::fitStatus() {
    QStatusBar* bar = statusBar();
    if (statusWhole_.isEmpty() ||
        (!statusShown_.isEmpty() && bar->currentMessage() != statusShown_)) {
        return;  // none of ours (a menu's status tip, say)
    }
    int room = bar->width() - 24;
    for (QWidget* w : bar->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly)) {
        if (w->isVisible() && w->x() > 0) {
            room = std::min(room, w->x() - 16);  // a permanent widget starts here
        }
    }
    const QString shown =
        bar->fontMetrics().elidedText(statusWhole_, Qt::ElideRight, std::max(room, 100));
    bar->setToolTip(shown == statusWhole_ ? QString() : statusWhole_);
    if (shown == bar->currentMessage()) {
        return;
    }
    const qint64 left = statusDeadline_.isForever() ? 0 : statusDeadline_.remainingTime();
    if (!statusDeadline_.isForever() && left <= 0) {
        return;  // its time is over; the bar clears it
    }
    refittingStatus_ = true;
    statusShown_ = shown;
    bar->showMessage(shown, static_cast<int>(left));
    refittingStatus_ = false;
}

QString MainWindow::statusTextWhole() const {
    const QString shown = statusBar()->currentMessage();
    return shown == statusShown_ ? statusWhole_ : shown;
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    if (watched == timelineView() && event->type() == QEvent::Resize) {
        placeGreeting();
    } else if ((event->type() == QEvent::Resize || event->type() == QEvent::Move) &&
               watched->isWidgetType() &&
               (watched == statusBar() ||
                static_cast<QWidget*>(watched)->parentWidget() == statusBar())) {
        fitStatus();
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::showGreeting() {
    greeting_->show();
    placeGreeting();
}

void MainWindow::placeGreeting() {
    const QWidget* view = timelineView();
    const int width = std::max(view->width() - 16, 100);
    greeting_->setGeometry(8, 8, width, greeting_->heightForWidth(width));
}

void MainWindow::markGreeted() {
    if (greeting_->isHidden()) {
        return;
    }
    greeting_->hide();
    if (options_.useSettings) {
        QSettings().setValue(FirstRunGreeting::kGreetedKey, true);
    }
}

void MainWindow::slowRefresh() {
    workerPanel_->refresh();
    producer_->refresh();
    messagePanel_->refresh();
    // The work queue's depth: tasks of other channels (a dead-lettered copy
    // among them) are not waiting in it.
    // A recording's depth was sampled as it was shown (showRecordedRun).
    const ChannelAt* c = consoleRun_->run().channelNow(run_->channel().toStdString());
    if (recordingPath_.isEmpty()) {
        chartsModel_.sampleDepth(
            qs::monotonicNanos(),
            c != nullptr ? static_cast<qint64>(c->count(MessageState::Waiting)) : 0,
            c != nullptr ? static_cast<qint64>(c->count(MessageState::InFlight)) : 0);
    }
    if (channelsSeen_) {
        channels_->model()->refreshConsoleCounts();
    }
    const std::uint64_t delivered = pump_->eventsDelivered();
    rateLabel_->showText(QStringLiteral("%L1 events/s").arg((delivered - lastDelivered_) * 4));
    lastDelivered_ = delivered;
    frameLabel_->showText(
        QStringLiteral("frame %1 ms").arg(static_cast<double>(frameNsMax_) / 1e6, 0, 'f', 1));
    frameNsMax_ = 0;
    updateConnectionLabel();
}

void MainWindow::refreshCharts() {
    if (charts_->isVisible()) {
        charts_->refreshNext();  // one chart per tick, in turn: never all four in one frame
    }
}

void MainWindow::updateConnectionLabel() {
    const Theme& t = Theme::current();
    QColor dot = t.mutedText;
    switch (connection_->state()) {
        case ConnectionController::State::Connected:
            dot = t.outcome(Outcome::Acked);
            break;
        case ConnectionController::State::Lost:
            dot = t.outcome(Outcome::Returned);
            break;
        case ConnectionController::State::Connecting:
        case ConnectionController::State::Probing:
            dot = t.waitingColor();
            break;
        default:
            break;
    }
    connectionText_ = connection_->describeState();
    connectionLabel_->setText(QStringLiteral("<span style='color:%1'>●</span> %2")
                                  .arg(dot.name(), connectionText_.toHtmlEscaped()));
}

void MainWindow::selectMessage(const QString& key) {
    timelineView()->clearHighlightedWorkers();  // a new selection ends what Show me pointed at
    timelineView()->setSelectedKey(key);
    messagePanel_->selectKey(key);
}

void MainWindow::resetRun() {
    if (!recordingPath_.isEmpty()) {
        closeRecording();  // an empty live run, as Reset gives
        return;
    }
    player_->stop();
    run_->resetRun();
}

void MainWindow::connectDialog() {
    QSettings settings;
    ConnectionDialog dialog(connection_->settings(), loadRecentConnections(settings), this);
    dialog.setProbe(connection_);  // the current connection stays until the new one answers
    if (dialog.exec() != QDialog::Accepted) {
        return;
    }
    const ConnectionSettings s = dialog.settings();
    if (options_.useSettings) {
        rememberConnection(settings, s);
        s.save(settings, QStringLiteral("lastConnection"));
    }
    connection_->connectTo(s);
}

void MainWindow::useEmbeddedBroker() {
    QString error;
    if (!connection_->startEmbedded(options_.embeddedPort, &error)) {
        QMessageBox::warning(this, QStringLiteral("Embedded broker"),
                             QStringLiteral("Could not start the embedded broker: ") + error);
    }
}

void MainWindow::embeddedStoreDialog() {
    const QString suggested = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                              QStringLiteral("/broker");
    EmbeddedStoreDialog dialog(connection_->embeddedStore(), suggested, this);
    if (dialog.exec() != QDialog::Accepted) {
        return;
    }
    const EmbeddedStore store = dialog.store();
    connection_->setEmbeddedStore(store);
    if (options_.useSettings) {
        QSettings settings;
        store.save(settings);
    }
    if (dialog.restartRequested()) {
        useEmbeddedBroker();  // says why when the store cannot be opened
        if (connection_->isEmbedded()) {
            showStatus(
                QStringLiteral("Embedded broker restarted, its queues %1").arg(store.label()));
        }
    } else {
        showStatus(
            QStringLiteral("Embedded broker storage: %1, from its next start").arg(store.label()));
    }
}

void MainWindow::setDarkTheme(bool dark) {
    Theme::setCurrent(dark ? ThemeKind::Dark : ThemeKind::Light);
    if (darkAction_ && darkAction_->isChecked() != dark) {
        const QSignalBlocker block(darkAction_);
        darkAction_->setChecked(dark);
    }
    charts_->applyTheme();
    for (QWidget* w : findChildren<QWidget*>()) {
        w->update();
    }
}

void MainWindow::showChannels() {
    channelsDock_->show();
    channelsDock_->raise();
    channels_->refresh();
}

void MainWindow::showChannelRates() {
    showChannels();
    channels_->showRatesOf(QString::fromStdString(workQueue()));
}

void MainWindow::showDock(const QString& objectName) {
    if (auto* d = findChild<QDockWidget*>(objectName)) {
        d->show();
        d->raise();
    }
}

bool MainWindow::playScenario(const QString& nameOrPath, QString* error) {
    runner::Scenario scenario;
    QString why;
    if (!loadScenario(nameOrPath, &scenario, &why)) {
        if (error) {
            *error = why;
        }
        return false;
    }
    return playLoadedScenario(scenario, error);
}

bool MainWindow::playLoadedScenario(const runner::Scenario& scenario, QString* error) {
    QString why;
    if (!player_->start(scenario, &why)) {
        if (error) {
            *error = why;
        }
        return false;
    }
    workerPanel_->setControls(run_->config());
    if (player_->isRunning()) {
        markGreeted();  // the user found their way: the greeting has served
    }
    // What the scenario sends shows beside the producer form, not in it: the
    // form keeps the user's own settings for the next manual send.
    const workers::TaskSpec spec = scenario.taskSpec();
    producer_->showScenario(QString::fromStdString(scenario.name), spec);
    if (!spec.policy.deadLetterQueue.empty()) {
        channels_->model()->noteDeadLetter(QString::fromStdString(spec.policy.deadLetterQueue),
                                           QString::fromStdString(spec.channel),
                                           spec.policy.maxReceiveCount);
    }
    return true;
}

void MainWindow::restoreSettings() {
    QSettings s;
    restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    setDarkTheme(s.value(QStringLiteral("view/dark"), false).toBool());
    timelineView()->setSpanSeconds(s.value(QStringLiteral("view/timelineSpan"), 20.0).toDouble());
    workers::WorkerConfig c = run_->config();
    c.batchSize = s.value(QStringLiteral("pool/batchSize"), c.batchSize).toInt();
    c.waitMs = s.value(QStringLiteral("pool/waitMs"), c.waitMs).toInt();
    c.autoAck = s.value(QStringLiteral("pool/autoAck"), c.autoAck).toBool();
    c.work =
        workers::WorkProfile::fixed(s.value(QStringLiteral("pool/workMs"), c.work.ms).toDouble());
    c.failureRate = s.value(QStringLiteral("pool/failureRate"), c.failureRate).toDouble();
    c.crashRate = s.value(QStringLiteral("pool/crashRate"), c.crashRate).toDouble();
    if (c.validate().empty()) {
        run_->setConfig(c);
        workerPanel_->setControls(c);
    }
    run_->setChannel(s.value(QStringLiteral("run/channel"), run_->channel()).toString());
}

void MainWindow::saveSettings() {
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    s.setValue(QStringLiteral("view/dark"), Theme::current().kind == ThemeKind::Dark);
    s.setValue(QStringLiteral("view/timelineSpan"), timelineView()->spanSeconds());
    const workers::WorkerConfig c = workerPanel_->configFromControls();
    s.setValue(QStringLiteral("pool/batchSize"), c.batchSize);
    s.setValue(QStringLiteral("pool/waitMs"), c.waitMs);
    s.setValue(QStringLiteral("pool/autoAck"), c.autoAck);
    s.setValue(QStringLiteral("pool/workMs"), c.work.kind == workers::WorkKind::Uniform
                                                  ? (c.work.minMs + c.work.maxMs) / 2
                                                  : c.work.ms);
    s.setValue(QStringLiteral("pool/failureRate"), c.failureRate);
    s.setValue(QStringLiteral("pool/crashRate"), c.crashRate);
    s.setValue(QStringLiteral("run/channel"), run_->channel());
    // Offered again at the next start (lastServerUsed()); the embedded broker is not.
    const auto state = connection_->state();
    const bool server = !connection_->isEmbedded() &&
                        state != ConnectionController::State::Disconnected &&
                        state != ConnectionController::State::Probing;
    rememberLastUsed(s, server ? &connection_->settings() : nullptr);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (options_.useSettings) {
        saveSettings();
    }
    player_->stop();
    run_->stopAll();
    recorder_->endRun();
    event->accept();
}

}  // namespace qs::ui
