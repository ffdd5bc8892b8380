#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <vector>

#include "common/clock.h"
#include "controllers/connection_controller.h"
#include "controllers/console_run.h"
#include "controllers/event_pump.h"
#include "controllers/run_controller.h"
#include "controllers/run_recorder.h"
#include "controllers/scenario_player.h"
#include "dialogs/recordings_menu.h"
#include "events/ledger.h"
#include "main_window.h"
#include "panels/producer_panel.h"
#include "recording/recording_reader.h"
#include "run/run.h"
#include "runner/run_recording.h"
#include "widgets/recording_status.h"
#include "workers/worker_pool.h"

using namespace qs;
using namespace qs::ui;

// The console records every run into its runs folder, ends the recording with
// the run, and says in the status bar where it goes, why it does not, and what
// was lost. QStandardPaths' test mode turns recording on in a window without
// settings; each test records into a folder of its own (so two runs of this
// suite at once, e.g. two build trees, never share one).
class TestRunRecorder : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void manualRunIsRecordedAndReplays();
    void scenarioRunIsNamedAfterItsScenario();
    void connectionChangeEndsTheRecording();
    void streamLossIsShownUntilTheReset();
    void aDropNoticeCountsOnceAsTheRunCountsIt();
    void writerLossIsShown();
    void unwritableFolderLeavesTheRunUnrecorded();
    void retentionKeepsTheNewestRuns();
    void closingTheWindowFinishesTheRecording();
    void retentionIsASetting();

private:
    void startWindow(bool embedded);
    // Pushes `n` small events into the run's stream and pumps them.
    void pushEvents(int n);
    void waitClosed();
    QStringList recordings() const;
    RecordingStatus* status() const { return window_->findChild<RecordingStatus*>(); }

    MainWindow* window_ = nullptr;
    std::unique_ptr<QTemporaryDir> runs_;
    std::vector<Event> seen_;  // every event the pump handed to the views
};

void TestRunRecorder::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
}

void TestRunRecorder::init() {
    runs_ = std::make_unique<QTemporaryDir>();
    QVERIFY(runs_->isValid());
    seen_.clear();
}

void TestRunRecorder::cleanup() {
    delete window_;
    window_ = nullptr;
    runs_.reset();
}

void TestRunRecorder::startWindow(bool embedded) {
    MainWindowOptions options;
    options.autoConnect = false;
    options.useSettings = false;  // records all the same: test mode
    window_ = new MainWindow(options);
    // The runs folder is the user's data location's "runs" (here test mode's).
    QCOMPARE(window_->recorder()->folder(), RunRecorder::defaultFolder());
    QCOMPARE(RunRecorder::defaultFolder(),
             QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                 QStringLiteral("/runs"));
    QVERIFY(RunRecorder::defaultFolder().contains(QStringLiteral(".qttest")));
    window_->recorder()->setFolder(runs_->path());
    window_->show();
    window_->pump()->addSink(
        [this](const std::vector<Event>& b) { seen_.insert(seen_.end(), b.begin(), b.end()); },
        QStringLiteral("test"));
    if (embedded) {
        QString error;
        QVERIFY2(window_->connection()->startEmbedded(0, &error), qPrintable(error));
    }
}

void TestRunRecorder::pushEvents(int n) {
    for (int i = 0; i < n; ++i) {
        Event e;
        e.timeNs = qs::monotonicNanos();
        e.kind = EventKind::Error;
        e.source = EventSource::Pool;
        e.detail = "test event " + std::to_string(i);
        window_->run()->stream().push(std::move(e));
    }
    window_->pump()->pumpOnce();
}

void TestRunRecorder::waitClosed() {
    QTRY_COMPARE_WITH_TIMEOUT(window_->recorder()->closing(), 0, 30000);
}

QStringList TestRunRecorder::recordings() const {
    return QDir(runs_->path()).entryList({QStringLiteral("*.qsrun")}, QDir::Files, QDir::Name);
}

void TestRunRecorder::manualRunIsRecordedAndReplays() {
    startWindow(true);
    RunRecorder* recorder = window_->recorder();
    QVERIFY(recorder->isEnabled());
    RunController* run = window_->run();
    workers::WorkerConfig c = run->config();
    c.batchSize = 5;
    c.waitMs = 1000;
    c.work = workers::WorkProfile::fixed(20.0);
    QVERIFY(run->setConfig(c));
    QString error;
    QVERIFY2(run->setWorkerCount(3, &error), qPrintable(error));
    window_->producerPanel()->setCount(10);
    window_->producerPanel()->send();
    QTRY_VERIFY_WITH_TIMEOUT(run->snapshot() && run->snapshot()->totals.acked == 10, 30000);

    // Under way: the status bar names the file, which is in the runs folder.
    const QString path = recorder->currentPath();
    QVERIFY(!path.isEmpty());
    QCOMPARE(QFileInfo(path).absolutePath(), QFileInfo(runs_->path()).absoluteFilePath());
    QVERIFY2(QFileInfo(path).fileName().endsWith(QStringLiteral("_manual.qsrun")),
             qPrintable(path));
    QVERIFY(QFileInfo::exists(path));
    QVERIFY2(status()->recordingText().contains(QFileInfo(path).fileName()),
             qPrintable(status()->recordingText()));
    QVERIFY(status()->recordingText().startsWith(QStringLiteral("● Recording")));
    QVERIFY(status()->lostEventsText().isEmpty());

    // The server's version comes with its first Ping; the recording takes it then.
    QTRY_VERIFY_WITH_TIMEOUT(!window_->connection()->serverInfo().version.empty(), 30000);
    QSignalSpy closed(recorder, &RunRecorder::recordingClosed);
    // The run's events and the console's own ledger at its end (the recorder
    // pumps the last events into every view on runEnding, before this later
    // connection runs).
    std::size_t runEvents = 0;
    std::uint64_t consoleRunEvents = 0;
    LedgerSummary consoleLedger;
    std::size_t consoleWorkers = 0;
    connect(run, &RunController::runEnding, this, [&] {
        runEvents = seen_.size();
        consoleRunEvents = window_->consoleRun()->run().eventCount();
        consoleLedger = window_->consoleRun()->run().ledger().summary();
        consoleWorkers = window_->consoleRun()->run().ledger().workers().size();
    });
    window_->resetRun();
    QTRY_COMPARE_WITH_TIMEOUT(closed.count(), 1, 30000);
    QCOMPARE(closed.at(0).at(0).toString(), path);
    QCOMPARE(closed.at(0).at(1).toString(), QString());
    // The workers' streams closing after the end (client-disconnected) open no new run.
    QVERIFY(recorder->currentPath().isEmpty());
    QVERIFY(status()->recordingText().contains(QStringLiteral("Last recording")));
    QCOMPARE(recordings().size(), 1);

    runner::ReplayedRun replayed;
    std::string why;
    QVERIFY2(runner::replayRecording(path.toStdString(), &replayed, &why), why.c_str());
    QVERIFY(replayed.finished);
    QVERIFY2(replayed.note.empty(), replayed.note.c_str());
    QCOMPARE(replayed.scenario.name, std::string(runner::kManualRunName));
    QCOMPARE(replayed.scenario.channel, run->channel().toStdString());
    // The replay's ledger keeps the same latency caps as the console's Run.
    QCOMPARE(replayed.ledgerOptions.workerLatencySampleCap,
             LedgerOptions::kDefaultWorkerLatencySampleCap);
    QCOMPARE(replayed.ledgerOptions.latencySampleCap, LatencySamples::kDefaultCap);
    const runner::RunResult& r = replayed.result;
    QVERIFY2(r.error.empty(), r.error.c_str());
    QVERIFY(r.warnings.empty());
    QCOMPARE(r.producer.sent, 10u);
    QCOMPARE(r.pool.totals.acked, 10u);
    QCOMPARE(r.tasksLost, 0u);
    QVERIFY(r.embeddedBroker);
    QVERIFY(runEvents > 0);
    QCOMPARE(r.eventsRecorded, static_cast<std::uint64_t>(runEvents));

    QCOMPARE(consoleRunEvents, static_cast<std::uint64_t>(runEvents));

    // The summary's totals are what the console's own ledger said at the run's end.
    QCOMPARE(r.totals.sent, consoleLedger.sent);
    QCOMPARE(r.totals.sent, 10u);
    QCOMPARE(r.totals.messages, consoleLedger.messages);
    QCOMPARE(r.totals.deliveries, consoleLedger.deliveries);
    QCOMPARE(r.totals.exactlyOnce, consoleLedger.exactlyOnce);
    QCOMPARE(r.totals.redeliveries, consoleLedger.redeliveries);
    QCOMPARE(r.totals.acksLost, consoleLedger.acksLost);
    for (int s = 0; s < kMessageStateCount; ++s) {
        QCOMPARE(r.totals.byState[s], consoleLedger.byState[s]);
    }
    QCOMPARE(r.totals.count(qs::MessageState::Acked), 10u);
    QCOMPARE(r.workers.size(), consoleWorkers);
    // ... and what a ledger fed the events the views saw says.
    Ledger ledger(replayed.ledgerOptions);
    seen_.resize(runEvents);
    ledger.apply(seen_);
    QCOMPARE(ledger.summary().eventsApplied, r.totals.eventsApplied);
    QCOMPARE(ledger.summary().count(qs::MessageState::Acked), 10u);

    // The settings: the broker, its version, the pool's configuration and seed.
    std::string openError;
    const auto reader = recording::RecordingReader::open(path.toStdString(), &openError);
    QVERIFY2(reader, openError.c_str());
    QCOMPARE(reader->settingText("run_origin"), std::string("console"));
    QCOMPARE(reader->settingText("broker_address"),
             window_->connection()->settings().address.toStdString());
    QVERIFY(!reader->settingText("server_version").empty());
    QVERIFY(reader->settingText("worker_config").find("\"batch\":5") != std::string::npos);
    QVERIFY(!reader->settingText("seed").empty());
    QVERIFY(reader->settingText("scenario_json").empty());
}

void TestRunRecorder::scenarioRunIsNamedAfterItsScenario() {
    startWindow(true);
    ScenarioPlayer* player = window_->scenarioPlayer();
    QSignalSpy finished(player, &ScenarioPlayer::finished);
    QString error;
    QVERIFY2(window_->playScenario(QStringLiteral("01-classic-work-queue"), &error),
             qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
    const QString path = window_->recorder()->currentPath();
    QVERIFY2(QFileInfo(path).fileName().endsWith(QStringLiteral("_classic-work-queue.qsrun")),
             qPrintable(path));

    window_->resetRun();
    waitClosed();
    runner::ReplayedRun replayed;
    std::string why;
    QVERIFY2(runner::replayRecording(path.toStdString(), &replayed, &why), why.c_str());
    QVERIFY(replayed.finished);
    QCOMPARE(replayed.scenario.name, std::string("classic work queue"));
    QCOMPARE(replayed.scenario.tasks.count, 10);
    QCOMPARE(replayed.result.totals.count(qs::MessageState::Acked), 10u);
    QCOMPARE(replayed.result.producer.sent, 10u);
    QCOMPARE(replayed.result.tasksLost, 0u);
}

void TestRunRecorder::connectionChangeEndsTheRecording() {
    startWindow(true);
    pushEvents(5);
    const QString first = window_->recorder()->currentPath();
    QVERIFY(!first.isEmpty());
    QString error;
    QVERIFY2(window_->connection()->startEmbedded(0, &error), qPrintable(error));
    waitClosed();
    QVERIFY(window_->recorder()->currentPath().isEmpty());
    runner::ReplayedRun replayed;
    std::string why;
    QVERIFY2(runner::replayRecording(first.toStdString(), &replayed, &why), why.c_str());
    QVERIFY(replayed.finished);
    // Two runs within one second get two files.
    pushEvents(5);
    const QString second = window_->recorder()->currentPath();
    QVERIFY(!second.isEmpty());
    QVERIFY(second != first);
    QCOMPARE(recordings().size(), 2);
}

void TestRunRecorder::streamLossIsShownUntilTheReset() {
    startWindow(false);
    // A tiny stream: 4 of 100 events fit, the stream reports 96 dropped.
    window_->run()->stream().setCapacity(4);
    pushEvents(100);
    RunRecorder* recorder = window_->recorder();
    QCOMPARE(recorder->streamLost(), 96u);
    QVERIFY2(status()->lostEventsText().contains(
                 QStringLiteral("96 events lost — views and recording may be incomplete")),
             qPrintable(status()->lostEventsText()));
    QVERIFY(status()->findChild<QLabel*>(QStringLiteral("lostEventsLabel"))->isVisible());
    const QString path = recorder->currentPath();

    window_->resetRun();
    QVERIFY(status()->lostEventsText().isEmpty());
    QVERIFY(!status()->findChild<QLabel*>(QStringLiteral("lostEventsLabel"))->isVisible());
    waitClosed();
    runner::ReplayedRun replayed;
    std::string why;
    QVERIFY2(runner::replayRecording(path.toStdString(), &replayed, &why), why.c_str());
    QVERIFY(replayed.finished);
    QCOMPARE(replayed.result.eventsDropped, 96u);
    QCOMPARE(replayed.result.eventsRecorded, 5u);  // 4 events and the notice
    QCOMPARE(replayed.result.warnings.size(), std::size_t{1});
    QVERIFY(replayed.result.warnings.front().find("lost 96 events") != std::string::npos);
}

// One truth about lost events: the status bar, the recorder and the recorded
// outcome read the console's Run (its ledger's droppedEvents), so a notice
// the stream hands on is counted once; the writer's own losses come on top.
void TestRunRecorder::aDropNoticeCountsOnceAsTheRunCountsIt() {
    startWindow(false);
    RunRecorder* recorder = window_->recorder();
    const auto pushNotice = [this](std::int64_t dropped) {
        Event notice;
        notice.timeNs = qs::monotonicNanos();
        notice.kind = EventKind::EventsDropped;
        notice.value = dropped;
        window_->run()->stream().push(std::move(notice));
    };
    pushNotice(7);
    pushEvents(3);
    const LedgerSummary& summary = window_->consoleRun()->run().summaryNow();
    QCOMPARE(summary.droppedEvents, 7u);
    QCOMPARE(recorder->streamLost(), 7u);
    QCOMPARE(recorder->eventsLost(), 7u);
    QCOMPARE(status()->lostEventsText(),
             QStringLiteral("⚠ 7 events lost — views and recording may be incomplete"));
    QVERIFY(status()->findChild<QLabel*>(QStringLiteral("lostEventsLabel"))->isVisible());

    pushNotice(5);
    pushEvents(1);
    QCOMPARE(window_->consoleRun()->run().summaryNow().droppedEvents, 12u);
    QCOMPARE(status()->lostEventsText(),
             QStringLiteral("⚠ 12 events lost — views and recording may be incomplete"));
    const QString path = recorder->currentPath();
    QVERIFY(!path.isEmpty());

    window_->resetRun();
    QCOMPARE(recorder->streamLost(), 0u);
    QVERIFY(status()->lostEventsText().isEmpty());
    waitClosed();
    runner::ReplayedRun replayed;
    std::string why;
    QVERIFY2(runner::replayRecording(path.toStdString(), &replayed, &why), why.c_str());
    QCOMPARE(replayed.result.eventsDropped, 12u);
    QCOMPARE(replayed.result.warnings.size(), std::size_t{1});
    QVERIFY(replayed.result.warnings.front().find("lost 12 events") != std::string::npos);

    // The recording shown is the Run the console reads: its losses are said too.
    QString error;
    QVERIFY2(window_->openRecording(path, &error), qPrintable(error));
    QCOMPARE(recorder->streamLost(), 12u);
    QCOMPARE(status()->lostEventsText(),
             QStringLiteral("⚠ 12 events lost — views and recording may be incomplete"));
    window_->closeRecording();
    QVERIFY(status()->lostEventsText().isEmpty());
}

void TestRunRecorder::writerLossIsShown() {
    startWindow(false);
    RunRecorder* recorder = window_->recorder();
    recording::RecordingWriterOptions tiny;
    tiny.maxPendingEvents = 1;  // a batch of ten never fits: the writer loses it
    recorder->setWriterOptions(tiny);
    pushEvents(10);
    QTRY_COMPARE_WITH_TIMEOUT(recorder->recordingLost(), 10u, 10000);
    QVERIFY2(status()->lostEventsText().contains(QStringLiteral("10 events lost")),
             qPrintable(status()->lostEventsText()));
    const QString path = recorder->currentPath();
    window_->resetRun();
    QVERIFY(status()->lostEventsText().isEmpty());
    waitClosed();
    std::string why;
    const auto reader = recording::RecordingReader::open(path.toStdString(), &why);
    QVERIFY2(reader, why.c_str());
    QVERIFY(reader->finished());
    QCOMPARE(reader->lostEvents(), 10u);
}

void TestRunRecorder::unwritableFolderLeavesTheRunUnrecorded() {
    startWindow(false);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // A file where the folder should be: no folder can be made there, whoever runs the test.
    const QString blocker = dir.filePath(QStringLiteral("not-a-folder"));
    QFile file(blocker);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    RunRecorder* recorder = window_->recorder();
    recorder->setFolder(blocker + QStringLiteral("/runs"));
    pushEvents(3);
    QVERIFY(recorder->currentPath().isEmpty());
    QVERIFY2(status()->recordingText().contains(
                 QStringLiteral("Not recording this run: cannot create the folder")),
             qPrintable(status()->recordingText()));
    // The run goes on: the views got the events.
    QCOMPARE(seen_.size(), 3u);
    pushEvents(2);
    QCOMPARE(seen_.size(), 5u);
    // The next run tries again, into a folder that works.
    window_->resetRun();
    QVERIFY(recorder->problem().isEmpty());
    recorder->setFolder(dir.filePath(QStringLiteral("runs")));
    pushEvents(1);
    QVERIFY(!recorder->currentPath().isEmpty());
    QVERIFY(QFileInfo::exists(recorder->currentPath()));
}

void TestRunRecorder::retentionKeepsTheNewestRuns() {
    startWindow(false);
    RunRecorder* recorder = window_->recorder();
    recorder->setRetention({2, 0});
    QStringList paths;
    for (int i = 0; i < 4; ++i) {
        pushEvents(2);
        paths << recorder->currentPath();
        window_->resetRun();
        waitClosed();
    }
    // Each opening applies the retention: opening the fifth run leaves the
    // two newest, the fifth (being written) among them.
    pushEvents(1);
    const QString active = recorder->currentPath();
    QStringList expected{QFileInfo(paths[3]).fileName(), QFileInfo(active).fileName()};
    expected.sort();
    QCOMPARE(recordings(), expected);
}

void TestRunRecorder::closingTheWindowFinishesTheRecording() {
    startWindow(true);
    QVERIFY(window_->run()->setWorkerCount(2));
    window_->producerPanel()->setCount(5);
    window_->producerPanel()->send();
    QTRY_VERIFY_WITH_TIMEOUT(!window_->recorder()->currentPath().isEmpty(), 10000);
    const QString path = window_->recorder()->currentPath();
    // Quitting: the window closes, then goes (as when the app quits).
    window_->close();
    delete window_;
    window_ = nullptr;
    runner::ReplayedRun replayed;
    std::string why;
    QVERIFY2(runner::replayRecording(path.toStdString(), &replayed, &why), why.c_str());
    QVERIFY(replayed.finished);
    QVERIFY(replayed.result.started);
    QVERIFY(replayed.result.elapsedSeconds > 0.0);
    QCOMPARE(recordings().size(), 1);
    // One self-contained file: the close checkpointed the WAL away.
    QVERIFY(!QFileInfo::exists(path + QStringLiteral("-wal")));
}

void TestRunRecorder::retentionIsASetting() {
    QTemporaryDir config;
    QVERIFY(config.isValid());
    QSettings settings(config.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
    // Unset: 50 runs, 2 GB.
    recording::RetentionLimits limits = loadRetentionLimits(settings);
    QCOMPARE(limits.maxRuns, std::size_t{50});
    QCOMPARE(limits.maxBytes, std::uint64_t{2} << 30);
    saveRetentionLimits(settings, {7, std::uint64_t{3} << 29});  // 1.5 GB
    limits = loadRetentionLimits(settings);
    QCOMPARE(limits.maxRuns, std::size_t{7});
    QCOMPARE(limits.maxBytes, std::uint64_t{3} << 29);
    // A negative value (a hand-edited file) keeps the default.
    settings.setValue(QStringLiteral("recordings/maxRuns"), -3);
    QCOMPARE(loadRetentionLimits(settings).maxRuns, std::size_t{50});

    // File > Recordings holds the folder and the setting.
    startWindow(false);
    QMenu* menu = nullptr;
    QStringList actions;
    for (QMenu* m : window_->findChildren<QMenu*>()) {
        if (m->title() == QStringLiteral("Rec&ordings")) {
            menu = m;
            for (QAction* a : m->actions()) {
                actions << a->text();
            }
        }
    }
    QVERIFY(menu != nullptr);
    QCOMPARE(actions, QStringList({QStringLiteral("&Show recordings folder"),
                                   QStringLiteral("&Keep recordings…")}));
    // The dialog starts from the recorder's limits and gives back what it shows.
    window_->recorder()->setRetention({12, std::uint64_t{1} << 30});
    RetentionDialog dialog(*window_->recorder());
    QCOMPARE(dialog.limits().maxRuns, std::size_t{12});
    QCOMPARE(dialog.limits().maxBytes, std::uint64_t{1} << 30);
}

QTEST_MAIN(TestRunRecorder)
#include "tst_run_recorder.moc"
