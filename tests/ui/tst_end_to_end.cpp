#include <QChartView>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QLabel>
#include <QLegendMarker>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTest>
#include <QTimer>

#include "client/queues_client.h"
#include "controllers/connection_controller.h"
#include "controllers/console_run.h"
#include "controllers/run_controller.h"
#include "controllers/scenario_library.h"
#include "controllers/scenario_player.h"
#include "main_window.h"
#include "models/charts_model.h"
#include "models/message_table_model.h"
#include "models/timeline_model.h"
#include "panels/channel_browser.h"
#include "panels/charts_panel.h"
#include "panels/explain_panel.h"
#include "panels/message_panel.h"
#include "panels/producer_panel.h"
#include "run/run.h"
#include "runner/scenario.h"
#include "workers/worker_pool.h"

using namespace qs;
using namespace qs::ui;

// The whole console against the embedded broker: real producer, real
// workers, real gRPC, the views fed by the event pump.
class TestEndToEnd : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void tenTasksThreeWorkersBatchFive();
    void crashMidBatchIsRedelivered();
    void firstLookShowsWhatTheScenarioUses();
    void scenarioSettingsStayWithItsRun();
    void poisonTaskIsOneDeadLetteredRow();
    void scenarioCreatesThenDeletesItsChannel();
    void timelineActionsAreTheRunnersSteps();
    void peekAndPurgeReachEveryView();
    void aDrainedScenarioSaysItFinished();
    void aClosedClientIsNotACrash();
    void theLiveConsoleTakesEventsInOnItsIngestThread();

private:
    bool allAcked(int n) const;
    // The kinds of the events in a task's history (the run's trail of it).
    QList<EventKind> kindsOf(const TaskView& task) const;
    MainWindow* window_ = nullptr;
};

void TestEndToEnd::init() {
    MainWindowOptions options;
    options.autoConnect = false;
    options.useSettings = false;
    window_ = new MainWindow(options);
    window_->show();
    QString error;
    QVERIFY2(window_->connection()->startEmbedded(0, &error), qPrintable(error));
}

void TestEndToEnd::cleanup() {
    delete window_;
    window_ = nullptr;
}

QList<EventKind> TestEndToEnd::kindsOf(const TaskView& task) const {
    const Run& run = window_->consoleRun()->run();
    QList<EventKind> kinds;
    for (const std::uint32_t i : run.messageEvents(task.index)) {
        kinds << run.event(i).kind;
    }
    return kinds;
}

bool TestEndToEnd::allAcked(int n) const {
    const MessageTableModel* m = window_->messages();
    if (m->rowCount() != n) {
        return false;
    }
    for (int r = 0; r < n; ++r) {
        if (m->task(r)->state != TaskState::Acked) {
            return false;
        }
    }
    return true;
}

void TestEndToEnd::tenTasksThreeWorkersBatchFive() {
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
    QTRY_VERIFY_WITH_TIMEOUT(allAcked(10), 30000);

    // Each task acked exactly once, by one worker.
    for (int r = 0; r < 10; ++r) {
        const auto rec = window_->messages()->task(r);
        QCOMPARE(kindsOf(*rec).count(EventKind::Acked), 1);
        QVERIFY(!rec->worker.isEmpty());
        QCOMPARE(window_->messages()->index(r, MessageTableModel::StateColumn).data().toString(),
                 QStringLiteral("acked"));
    }
    // Per-worker counts (pool and the share chart) sum to 10.
    QTRY_COMPARE_WITH_TIMEOUT(run->snapshot()->totals.acked, 10u, 5000);
    std::uint64_t sum = 0;
    const auto snapshot = run->snapshot();
    QVERIFY(snapshot.has_value());
    for (const auto& w : snapshot->workers) {
        sum += w.counters.acked;
    }
    QCOMPARE(sum, 10u);
    qint64 chartSum = 0;
    for (auto v : window_->chartsModel().ackedPerWorker()) {
        chartSum += v;
    }
    QCOMPARE(chartSum, 10);
    // The timeline shows 10 acked hand-outs across the lanes.
    std::size_t bars = 0;
    for (const auto& lane : window_->timelineModel().lanes()) {
        for (const auto& b : lane.bars) {
            bars += b.outcome == Outcome::Acked ? 1 : 0;
        }
    }
    QCOMPARE(bars, 10u);
}

void TestEndToEnd::crashMidBatchIsRedelivered() {
    RunController* run = window_->run();
    workers::WorkerConfig c = run->config();
    c.batchSize = 5;
    c.waitMs = 1000;
    c.work = workers::WorkProfile::fixed(300.0);
    QVERIFY(run->setConfig(c));
    QVERIFY(run->setWorkerCount(2));
    window_->producerPanel()->setCount(10);
    window_->producerPanel()->send();

    // Wait until worker-1 is mid-batch, then crash it.
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const auto w = run->pool()->workerSnapshot("worker-1");
            return w && w->batch.size() >= 2 && w->currentIndex >= 0 &&
                   w->currentIndex + 1 < int(w->batch.size());
        }(),
        20000);
    QVERIFY(run->crash(QStringLiteral("worker-1")));
    QTRY_VERIFY_WITH_TIMEOUT(allAcked(10), 40000);

    // The table: some task was delivered twice, the second time to worker-2.
    std::optional<TaskView> redelivered;
    for (int r = 0; r < 10; ++r) {
        const auto rec = window_->messages()->task(r);
        if (rec->deliveries >= 2) {
            redelivered = rec;
        }
    }
    QVERIFY(redelivered);
    QCOMPARE(redelivered->worker, QStringLiteral("worker-2"));
    // Its history shows the crash that brought it back, though the broker
    // reported the return first.
    const QList<EventKind> kinds = kindsOf(*redelivered);
    QVERIFY(kinds.contains(EventKind::WorkerCrashed));
    QVERIFY(kinds.count(EventKind::MessageAssigned) >= 2);

    // The timeline: a returned bar on worker-1, then a redelivery bar on worker-2.
    const auto path = window_->timelineModel().barsOf(redelivered->key);
    QVERIFY(path.size() >= 2);
    QCOMPARE(window_->timelineModel().lanes()[static_cast<std::size_t>(path.front().first)].worker,
             QStringLiteral("worker-1"));
    QVERIFY(path.front().second->outcome == Outcome::Returned);
    QVERIFY(path.back().second->outcome == Outcome::Acked);
    QVERIFY(path.back().second->redelivery);

    // The explain panel names it.
    const QString needle =
        QStringLiteral(
            "Task #%1 came back to the queue because worker-1 crashed before acking it; "
            "worker-2 received it at")
            .arg(redelivered->task);
    bool named = false;
    for (const QString& line : window_->explainPanel()->lines()) {
        named = named || line.contains(needle);
    }
    QVERIFY2(named, qPrintable(window_->explainPanel()->lines().join(QLatin1Char('\n'))));
}

// What a first-time user sees: a note over the producer form says what the
// playing scenario sends (queue, policy, poison; not the defaults) while the
// form keeps the user's own settings, the history pane says what it is for
// before anything is selected, and the share legend names every worker in full.
void TestEndToEnd::firstLookShowsWhatTheScenarioUses() {
    window_->resize(1280, 720);
    QVERIFY(window_->messagePanel()->historyText().contains(
        QStringLiteral("Select a message in the table")));

    runner::Scenario scenario;
    QString error;
    QVERIFY2(loadScenario(QStringLiteral("05-poison-dead-letter"), &scenario, &error),
             qPrintable(error));
    QVERIFY(!scenario.tasks.policy.deadLetterQueue.empty());
    const workers::TaskSpec mine = window_->producerPanel()->specFromForm(&error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(window_->producerPanel()->scenarioNote().isEmpty());
    QVERIFY2(window_->playScenario(QStringLiteral("05-poison-dead-letter"), &error),
             qPrintable(error));
    const QString note = window_->producerPanel()->scenarioNote();
    for (const QString& part :
         QStringList{QStringLiteral("sends 6 task(s) at once"),
                     QString::fromStdString(scenario.channel), QStringLiteral("max receives 3"),
                     QString(QStringLiteral("dead-letter ") +
                             QString::fromStdString(scenario.tasks.policy.deadLetterQueue)),
                     QStringLiteral("poison 3")}) {
        QVERIFY2(note.contains(part), qPrintable(note + QStringLiteral(" lacks ") + part));
    }
    const workers::TaskSpec shown = window_->producerPanel()->specFromForm(&error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(shown.channel, scenario.channel);  // the run's queue, which its workers consume
    QCOMPARE(shown.count, mine.count);
    QCOMPARE(shown.policy.deadLetterQueue, mine.policy.deadLetterQueue);
    QCOMPARE(shown.policy.maxReceiveCount, mine.policy.maxReceiveCount);
    QCOMPARE(shown.poison, mine.poison);
    // After the run reset the hint is back, not a blank pane.
    QVERIFY(window_->messagePanel()->historyText().contains(
        QStringLiteral("Select a message in the table")));

    QTRY_VERIFY_WITH_TIMEOUT(window_->chartsModel().ackedPerWorker().size() >= 2, 30000);
    window_->charts()->refresh();
    QTRY_VERIFY_WITH_TIMEOUT(
        window_->charts()->shareLegendText().contains(QStringLiteral("worker-1")), 5000);
    const ShareLegend* legend =
        window_->charts()->findChild<ShareLegend*>(QStringLiteral("shareLegend"));
    QVERIFY(legend);
    QVERIFY(legend->text().contains(QStringLiteral("worker-1")));
    QVERIFY(legend->text().contains(QStringLiteral("worker-2")));
    // Wide enough for its text once laid out: the label gets at least its size hint.
    QTRY_VERIFY2_WITH_TIMEOUT(
        legend->width() >= legend->sizeHint().width(),
        qPrintable(QStringLiteral("%1 < %2").arg(legend->width()).arg(legend->sizeHint().width())),
        5000);
    window_->scenarioPlayer()->stop();
}

// A scenario's settings belong to its run: after scenario 06 (80 tasks at
// 20/s, its own policy), the producer form still holds the user's own
// settings, and the next manual send goes out at once, not at 20/s.
void TestEndToEnd::scenarioSettingsStayWithItsRun() {
    ProducerPanel* form = window_->producerPanel();
    form->setCount(1000);
    QString error;
    const workers::TaskSpec mine = form->specFromForm(&error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(mine.ratePerSecond, 0.0);

    ScenarioPlayer* player = window_->scenarioPlayer();
    QSignalSpy finished(player, &ScenarioPlayer::finished);
    QVERIFY2(window_->playScenario(QStringLiteral("06-live-tuning"), &error), qPrintable(error));
    QVERIFY2(form->scenarioNote().contains(QStringLiteral("80 task(s) at 20/s")),
             qPrintable(form->scenarioNote()));
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
    // Its configuration changes are markers on the charts, never entries of their legends.
    window_->charts()->refresh();
    QVERIFY(!window_->chartsModel().markers().empty());
    for (QChartView* view : window_->charts()->findChildren<QChartView*>()) {
        for (QLegendMarker* m : view->chart()->legend()->markers()) {
            for (const auto& marker : window_->chartsModel().markers()) {
                QVERIFY2(!m->isVisible() || m->label() != marker.second, qPrintable(m->label()));
            }
        }
    }
    // The note stays, in the past tense, until the user's own next send.
    QVERIFY2(form->scenarioNote().contains(QStringLiteral("; it sent 80 task(s) at 20/s")),
             qPrintable(form->scenarioNote()));

    const workers::TaskSpec after = form->specFromForm(&error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(after.count, mine.count);
    QCOMPARE(after.ratePerSecond, mine.ratePerSecond);
    QCOMPARE(after.bodyTemplate, mine.bodyTemplate);
    QCOMPARE(after.tags, mine.tags);
    QCOMPARE(after.policy.maxReceiveCount, mine.policy.maxReceiveCount);
    QCOMPARE(after.policy.deadLetterQueue, mine.policy.deadLetterQueue);
    QCOMPARE(after.policy.delaySeconds, mine.policy.delaySeconds);
    QCOMPARE(after.policy.expirationSeconds, mine.policy.expirationSeconds);
    QCOMPARE(after.poison, mine.poison);

    form->send();
    QVERIFY(form->scenarioNote().isEmpty());  // the user's own send: the note has served
    const workers::TaskSpec* sent = window_->run()->producerSpec();
    QVERIFY(sent != nullptr);
    QCOMPARE(sent->count, 1000);
    QCOMPARE(sent->ratePerSecond, 0.0);
    QCOMPARE(sent->policy.maxReceiveCount, mine.policy.maxReceiveCount);
    window_->run()->stopAll();
}

// Scenario 05: the poison task is dead-lettered. The broker's copy in the
// dead-letter channel is that same task: one row (dead-lettered, naming the
// channel), and the work queue's depth ends at zero, so the scenario ends
// drained rather than at its time bound.
void TestEndToEnd::poisonTaskIsOneDeadLetteredRow() {
    runner::Scenario scenario;
    QString error;
    QVERIFY2(loadScenario(QStringLiteral("05-poison-dead-letter"), &scenario, &error),
             qPrintable(error));
    const QString work = QString::fromStdString(scenario.channel);
    const QString dlq = QString::fromStdString(scenario.tasks.policy.deadLetterQueue);
    QVERIFY(!dlq.isEmpty());
    ScenarioPlayer* player = window_->scenarioPlayer();
    QSignalSpy finished(player, &ScenarioPlayer::finished);
    QElapsedTimer clock;
    clock.start();
    QVERIFY2(window_->playScenario(QStringLiteral("05-poison-dead-letter"), &error),
             qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 45000);
    QVERIFY2(clock.elapsed() < scenario.timeoutSeconds * 1000 - 2000,
             "the scenario ran to its time bound instead of ending drained");

    MessageTableModel* m = window_->messages();
    m->commitPendingRows();
    QCOMPARE(m->rowCount(), scenario.tasks.count);
    int deadLettered = 0;
    for (int r = 0; r < m->rowCount(); ++r) {
        const auto rec = m->task(r);
        QCOMPARE(rec->key, messageKey(work.toStdString(), rec->messageId.toStdString()));
        if (rec->state == TaskState::DeadLettered) {
            ++deadLettered;
            QCOMPARE(rec->task, scenario.tasks.poison.front());
            QCOMPARE(rec->deadLetterChannel, dlq);
            // The copy's store in the dead-letter channel is in this task's history.
            bool storedThere = false;
            const Run& run = window_->consoleRun()->run();
            for (const std::uint32_t i : run.messageEvents(rec->index)) {
                storedThere |= run.event(i).kind == EventKind::BrokerStored &&
                               run.event(i).channel == dlq.toStdString();
            }
            QVERIFY(storedThere);
            QVERIFY(m->index(r, MessageTableModel::StateColumn).data().toString().contains(dlq));
        } else {
            QVERIFY(rec->state == TaskState::Acked);
        }
    }
    QCOMPARE(deadLettered, 1);
    // The table makes room for the dead-letter channel's name (not "dead-lettered → ...").
    const QTableView* table = window_->messagePanel()->view();
    const int needed =
        table->fontMetrics().horizontalAdvance(QStringLiteral("dead-lettered → ") + dlq);
    QTRY_VERIFY_WITH_TIMEOUT(table->columnWidth(MessageTableModel::StateColumn) > needed, 3000);
    const Run& run = window_->consoleRun()->run();
    QCOMPARE(run.channelNow(work.toStdString())->count(MessageState::Waiting), 0u);
    QCOMPARE(run.summaryNow().count(MessageState::Waiting), 0u);
    // The depth chart samples the work queue: it ends at 0 waiting.
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const auto& buckets = window_->chartsModel().buckets();
            for (auto it = buckets.rbegin(); it != buckets.rend(); ++it) {
                if (it->waiting >= 0) {
                    return it->waiting == 0 && it->inFlight == 0;
                }
            }
            return false;
        }(),
        3000);
}

// Scenario 02 asks for its channel to be created before the run and deleted
// after it: the console's player does both (off the UI thread), like the
// headless runner, against the real embedded broker.
void TestEndToEnd::scenarioCreatesThenDeletesItsChannel() {
    runner::Scenario scenario;
    QString error;
    QVERIFY2(loadScenario(QStringLiteral("02-created-then-deleted-channel"), &scenario, &error),
             qPrintable(error));
    QVERIFY(scenario.createChannel && scenario.deleteChannel);
    const std::string channel = scenario.channel;

    client::ClientOptions options;
    options.address = window_->connection()->settings().address.toStdString();
    options.clientId = "tst-end-to-end-admin";
    auto created = client::QueuesClient::create(options);
    QVERIFY(created.ok());
    std::unique_ptr<client::QueuesClient> admin = std::move(created).value();
    auto listed = [&](std::int64_t* sent) {
        auto list = admin->listQueues();
        if (!list.ok()) {
            return false;
        }
        for (const auto& info : list.value()) {
            if (info.name == channel) {
                if (sent) {
                    *sent = info.incoming.messages;
                }
                return true;
            }
        }
        return false;
    };
    QVERIFY(!listed(nullptr));

    ScenarioPlayer* player = window_->scenarioPlayer();
    QSignalSpy steps(player, &ScenarioPlayer::channelStepDone);
    QSignalSpy finished(player, &ScenarioPlayer::finished);
    // At the create step's answer the channel exists and nothing was sent yet:
    // it was created by channel management, not by the first send.
    bool existedEmpty = false;
    bool checked = false;
    connect(player, &ScenarioPlayer::channelStepDone, this, [&](bool ok, const QString& text) {
        if (!checked && ok && text.startsWith(QStringLiteral("created channel"))) {
            checked = true;
            std::int64_t sent = -1;
            existedEmpty =
                listed(&sent) && sent == 0 &&
                window_->consoleRun()->run().summaryNow().count(MessageState::Waiting) == 0;
        }
    });
    QVERIFY2(window_->playScenario(QStringLiteral("02-created-then-deleted-channel"), &error),
             qPrintable(error));
    QVERIFY(player->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 45000);
    QCOMPARE(steps.size(), 2);
    QCOMPARE(steps.at(0).at(0).toBool(), true);
    QCOMPARE(steps.at(0).at(1).toString(),
             QStringLiteral("created channel ") + QString::fromStdString(channel));
    QCOMPARE(steps.at(1).at(0).toBool(), true);
    QCOMPARE(steps.at(1).at(1).toString(),
             QStringLiteral("deleted channel ") + QString::fromStdString(channel));
    QVERIFY(checked);
    QVERIFY(existedEmpty);
    QTRY_VERIFY_WITH_TIMEOUT(allAcked(scenario.tasks.count), 5000);
    QVERIFY(!player->isRunning());
    QVERIFY(!listed(nullptr));  // deleted at the end
}

// The player applies its timeline with the headless runner's own step
// (runner::applyTimelineAction): an action ahead of the first workers still
// applies and the first group then follows it, the sliders follow a pool-wide
// "set", a "scale" refreshes the views, and a problem reaches the status bar.
void TestEndToEnd::timelineActionsAreTheRunnersSteps() {
    runner::Scenario s;
    s.name = "timeline-steps";
    s.channel = "e2e.timeline";
    s.tasks.count = 0;
    s.workers.resize(1);
    s.workers.front().startAt = 0.3;
    s.workers.front().config.batchSize = 2;
    s.workers.front().config.waitMs = 1000;
    auto step = [&](double at, runner::ActionKind kind) {
        runner::TimelineAction a;
        a.at = at;
        a.kind = kind;
        s.timeline.push_back(a);
        return &s.timeline.back();
    };
    step(0.0, runner::ActionKind::Set)->patch.batchSize = 3;
    step(0.5, runner::ActionKind::Crash)->worker = "worker-9";
    step(0.6, runner::ActionKind::Scale)->count = 2;
    s.untilDrained = false;
    s.runForSeconds = 1.0;

    RunController* run = window_->run();
    ScenarioPlayer* player = window_->scenarioPlayer();
    QSignalSpy applied(player, &ScenarioPlayer::actionApplied);
    QSignalSpy finished(player, &ScenarioPlayer::finished);
    QSignalSpy poolChanged(run, &RunController::poolChanged);
    QStringList shown;          // the status bar right after each action
    QList<qsizetype> poolSeen;  // poolChanged signals so far, at each action
    const auto watch = connect(player, &ScenarioPlayer::actionApplied, this, [&] {
        shown << window_->statusBar()->currentMessage();
        poolSeen << poolChanged.size();
    });
    QString error;
    QVERIFY2(player->start(s, &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 20000);

    QCOMPARE(applied.size(), 3);
    QCOMPARE(shown.size(), 3);
    QCOMPARE(applied.at(0).at(0).toString(), QStringLiteral("at 0 s: set all workers: batch=3"));
    QCOMPARE(applied.at(0).at(1).toBool(), false);
    QCOMPARE(applied.at(1).at(0).toString(),
             QStringLiteral("at 0.5 s: crash worker-9 (no worker worker-9)"));
    QCOMPARE(applied.at(1).at(1).toBool(), true);
    QCOMPARE(shown.at(1),
             QStringLiteral("⚠ Scenario: at 0.5 s: crash worker-9 (no worker worker-9)"));
    QCOMPARE(applied.at(2).at(0).toString(), QStringLiteral("at 0.6 s: scale to 2"));
    QCOMPARE(applied.at(2).at(1).toBool(), false);

    QCOMPARE(run->config().batchSize, 3);  // what the sliders show
    QVERIFY(run->pool());
    QCOMPARE(run->pool()->config().batchSize, 3);
    QCOMPARE(run->workerCount(), 2);
    QVERIFY(poolSeen.at(2) > poolSeen.at(1));  // the scale told the views
    // worker-1 (the first group) follows the patched shared configuration.
    QCOMPARE(run->pool()->workerConfig("worker-1")->batchSize, 3);
    QCOMPARE(run->pool()->workerConfig("worker-2")->batchSize, 3);
    disconnect(watch);
    run->stopAll();
}

// A first-time user's finding: with the workers stopped, 10 sent, peeked and
// purged, the table still said 10 waiting, and the history called the peek a
// delivery and the purge an ack. Now every view reads the run.
void TestEndToEnd::peekAndPurgeReachEveryView() {
    RunController* run = window_->run();
    QVERIFY(run->setWorkerCount(0));
    window_->producerPanel()->setCount(10);
    window_->producerPanel()->send();
    const Run& r = window_->consoleRun()->run();
    QTRY_COMPARE_WITH_TIMEOUT(r.summaryNow().count(MessageState::Waiting), 10u, 20000);

    ChannelBrowser* channels = window_->channelBrowser();
    QSignalSpy refreshed(channels, &ChannelBrowser::refreshed);
    // A listing already under way may answer first, from before the send: list
    // again until the run's queue is in the list.
    for (int attempt = 0; attempt < 20 && channels->selectedChannel() != run->channel();
         ++attempt) {
        refreshed.clear();
        channels->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!refreshed.isEmpty(), 10000);
        channels->selectChannel(run->channel());
    }
    QCOMPARE(channels->selectedChannel(), run->channel());
    QSignalSpy done(channels, &ChannelBrowser::actionFinished);
    channels->peekSelected();
    QTRY_COMPARE_WITH_TIMEOUT(r.summaryNow().peeks, 10u, 10000);
    QCOMPARE(r.summaryNow().count(MessageState::Waiting), 10u);  // a peek changes nothing
    channels->purgeChannel(run->channel());
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
    QVERIFY2(done.last().at(0).toBool(), qPrintable(channels->outcomeText()));

    QTRY_COMPARE_WITH_TIMEOUT(r.summaryNow().count(MessageState::Purged), 10u, 10000);
    QCOMPARE(r.summaryNow().count(MessageState::Waiting), 0u);
    QCOMPARE(r.summaryNow().count(MessageState::Acked), 0u);
    QCOMPARE(r.summaryNow().deliveries, 0u);
    QCOMPARE(r.channelNow(run->channel().toStdString())->count(MessageState::Waiting), 0u);
    MessageTableModel* m = window_->messages();
    m->commitPendingRows();
    QCOMPARE(m->rowCount(), 10);
    for (int row = 0; row < 10; ++row) {
        QCOMPARE(m->index(row, MessageTableModel::StateColumn).data().toString(),
                 QStringLiteral("purged"));
        const QList<EventKind> kinds = kindsOf(*m->task(row));
        QVERIFY(!kinds.contains(EventKind::MessageAssigned));
        QVERIFY(!kinds.contains(EventKind::BrokerDelivered));
        QVERIFY(!kinds.contains(EventKind::BrokerAcked));
        QVERIFY(kinds.contains(EventKind::BrokerPeeked));
        QVERIFY(kinds.contains(EventKind::BrokerPurged) ||
                kinds.contains(EventKind::ChannelPurged));
    }
    // The message panel's counters say the same.
    window_->messagePanel()->refresh();
    QVERIFY(window_->messagePanel()->countsText().contains(QStringLiteral("waiting 0")));
}

// Scenario 01 (#17 item 6): its third worker long-polls after the queue has
// drained, so nothing moving does not say the scenario is over; the status
// bar and the producer's scenario note do.
void TestEndToEnd::aDrainedScenarioSaysItFinished() {
    ScenarioPlayer* player = window_->scenarioPlayer();
    QSignalSpy finished(player, &ScenarioPlayer::finished);
    QString error;
    QVERIFY2(window_->playScenario(QStringLiteral("01-classic-work-queue"), &error),
             qPrintable(error));
    QVERIFY(!window_->statusBar()->currentMessage().contains(QStringLiteral("finished")));
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
    QVERIFY(player->lastEnd() == runner::RunEnd::Drained);
    QCOMPARE(window_->run()->workerCount(), 3);  // the workers stay, polling
    const QString status = window_->statusTextWhole();
    QVERIFY2(status.contains(QStringLiteral(
                 "Scenario \"classic work queue\" finished: every task was settled")),
             qPrintable(status));
    QVERIFY2(status.contains(QStringLiteral("keep polling")), qPrintable(status));
    const QString note = window_->producerPanel()->scenarioNote();
    QVERIFY2(note.contains(QStringLiteral("finished: every task was settled; it sent 10 task(s)")),
             qPrintable(note));
    // The bar ends at what the scenario sent, not at the last refresh before its producer went.
    QCOMPARE(window_->producerPanel()->progressText(), QStringLiteral("10 / 10 sent"));

    // Stopped early, it is not said to have finished.
    finished.clear();
    QVERIFY2(window_->playScenario(QStringLiteral("06-live-tuning"), &error), qPrintable(error));
    window_->scenarioPlayer()->stop();
    QCOMPARE(finished.size(), 1);
    QVERIFY(player->lastEnd() == runner::RunEnd::None);
    QVERIFY2(window_->producerPanel()->scenarioNote().contains(QStringLiteral("has ended")),
             qPrintable(window_->producerPanel()->scenarioNote()));
    window_->run()->stopAll();
}

// Scenario 03 (#17 item 6): worker-1 closes its client without acking; its
// returns are "returned (closed)" on the timeline, none "returned (crash)".
void TestEndToEnd::aClosedClientIsNotACrash() {
    ScenarioPlayer* player = window_->scenarioPlayer();
    QSignalSpy finished(player, &ScenarioPlayer::finished);
    QString error;
    QVERIFY2(window_->playScenario(QStringLiteral("03-forgot-to-ack"), &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
    QVERIFY(player->lastEnd() == runner::RunEnd::Drained);
    int closed = 0;
    for (const TimelineLane& lane : window_->timelineModel().lanes()) {
        for (const TimelineBar& bar : lane.bars) {
            QVERIFY2(bar.outcome != Outcome::Returned, qPrintable(lane.worker));
            closed += bar.outcome == Outcome::ReturnedClosed ? 1 : 0;
        }
    }
    QCOMPARE(closed, 10);
    window_->run()->stopAll();
}

// The console as it runs for a user: in its own event loop (QTest's waits
// never block, so they never hand the run over), each frame's events go in
// on the run's ingest thread, and every view ends where the run ends.
void TestEndToEnd::theLiveConsoleTakesEventsInOnItsIngestThread() {
    RunController* run = window_->run();
    workers::WorkerConfig c = run->config();
    c.batchSize = 10;
    c.work = workers::WorkProfile::fixed(2.0);
    QVERIFY(run->setConfig(c));
    QString error;
    QVERIFY2(run->setWorkerCount(4, &error), qPrintable(error));
    const std::uint64_t before = window_->consoleRun()->handedOver();
    window_->producerPanel()->setCount(200);
    window_->producerPanel()->send();
    const auto ackedBars = [this] {
        std::size_t bars = 0;
        for (const auto& lane : window_->timelineModel().lanes()) {
            for (const auto& b : lane.bars) {
                bars += b.outcome == Outcome::Acked ? 1 : 0;
            }
        }
        return bars;
    };
    const auto ackedInChart = [this] {
        qint64 sum = 0;
        for (auto v : window_->chartsModel().ackedPerWorker()) {
            sum += v;
        }
        return sum;
    };
    // The views hear of a frame's events at the next frame: wait for all three.
    QEventLoop top;
    QTimer check;
    connect(&check, &QTimer::timeout, &top, [&] {
        if (allAcked(200) && ackedBars() == 200 && ackedInChart() == 200) {
            top.quit();
        }
    });
    check.start(20);
    QTimer::singleShot(60000, &top, &QEventLoop::quit);
    top.exec();
    QVERIFY(allAcked(200));
    QCOMPARE(ackedBars(), std::size_t{200});
    QCOMPARE(ackedInChart(), qint64{200});
    QVERIFY(window_->consoleRun()->handedOver() > before);
    QCOMPARE(window_->consoleRun()->run().summaryNow().count(MessageState::Acked),
             std::uint64_t{200});
}

QTEST_MAIN(TestEndToEnd)
#include "tst_end_to_end.moc"
