#include <QLabel>
#include <QTest>

#include "charts_model.h"
#include "charts_panel.h"
#include "connection_controller.h"
#include "explain_panel.h"
#include "main_window.h"
#include "message_panel.h"
#include "message_table_model.h"
#include "producer_panel.h"
#include "run_controller.h"
#include "runner/scenario.h"
#include "scenario_library.h"
#include "scenario_player.h"
#include "timeline_model.h"
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

private:
    bool allAcked(int n) const;
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

bool TestEndToEnd::allAcked(int n) const {
    const MessageTableModel* m = window_->messages();
    if (m->rowCount() != n) {
        return false;
    }
    for (int r = 0; r < n; ++r) {
        if (m->record(r)->state != MessageState::Acked) {
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
        const MessageRecord* rec = window_->messages()->record(r);
        QCOMPARE(rec->acks, 1);
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
    const MessageRecord* redelivered = nullptr;
    for (int r = 0; r < 10; ++r) {
        const MessageRecord* rec = window_->messages()->record(r);
        if (rec->deliveries >= 2) {
            redelivered = rec;
        }
    }
    QVERIFY(redelivered);
    QCOMPARE(redelivered->worker, QStringLiteral("worker-2"));
    bool sawCrash = false;
    for (const auto& h : redelivered->history) {
        sawCrash = sawCrash || h.kind == EventKind::WorkerCrashed;
    }
    QVERIFY(sawCrash);

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

// What a first-time user sees: the producer form shows the playing scenario's
// queue and policy (not the defaults), the history pane says what it is for
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
    QVERIFY2(window_->playScenario(QStringLiteral("05-poison-dead-letter"), &error),
             qPrintable(error));
    const workers::TaskSpec shown = window_->producerPanel()->specFromForm(&error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(shown.channel, scenario.channel);
    QCOMPARE(shown.count, scenario.tasks.count);
    QCOMPARE(shown.policy.deadLetterQueue, scenario.tasks.policy.deadLetterQueue);
    QCOMPARE(shown.policy.maxReceiveCount, scenario.tasks.policy.maxReceiveCount);
    QCOMPARE(shown.poison, scenario.tasks.poison);
    // After the run reset the hint is back, not a blank pane.
    QVERIFY(window_->messagePanel()->historyText().contains(
        QStringLiteral("Select a message in the table")));

    QTRY_VERIFY_WITH_TIMEOUT(window_->chartsModel().ackedPerWorker().size() >= 2, 30000);
    window_->charts()->refresh();
    QTRY_VERIFY_WITH_TIMEOUT(
        window_->charts()->shareLegendText().contains(QStringLiteral("worker-1")), 5000);
    const QLabel* legend = window_->charts()->findChild<QLabel*>(QStringLiteral("shareLegend"));
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

QTEST_MAIN(TestEndToEnd)
#include "tst_end_to_end.moc"
