#include <QTest>

#include "charts_model.h"
#include "connection_controller.h"
#include "explain_panel.h"
#include "main_window.h"
#include "message_table_model.h"
#include "producer_panel.h"
#include "run_controller.h"
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

QTEST_MAIN(TestEndToEnd)
#include "tst_end_to_end.moc"
