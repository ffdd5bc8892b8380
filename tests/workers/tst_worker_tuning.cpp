// Live retuning and per-worker controls while the pool runs.
#include <QtTest/QtTest>

#include "pool_harness.h"

using namespace qs;
using namespace qs::test;
using workers::WorkerPool;
using workers::WorkerState;

class TstWorkerTuning : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // A batch size change is visible in the next poll's count.
    void batchChangeAppliesAtNextPoll() {
        PoolHarness h;
        QVERIFY(h.sendTasks(tasks("q.retune", 20)));
        WorkerPool pool(h.poolOptions("q.retune"), config(5, 1000, 40));
        QCOMPARE(pool.addWorkers(1).size(), 1u);
        QVERIFY(waitUntil([&] { return pool.snapshot().totals.received == 5; }));
        workers::WorkerConfig c = pool.config();
        c.batchSize = 1;
        QVERIFY(pool.setConfig(c));  // mid-batch: the current batch is unaffected
        QVERIFY(waitUntil([&] { return pool.snapshot().totals.acked == 20; }));
        pool.stop();
        std::vector<std::int64_t> counts;
        std::vector<std::int64_t> asked;
        for (const Event& e : h.eventsOf(EventKind::PollReturned))
            counts.push_back(e.value);
        for (const Event& e : h.eventsOf(EventKind::PollStarted))
            asked.push_back(e.value);
        QVERIFY(counts.size() >= 16);
        QCOMPARE(counts[0], 5);
        QCOMPARE(asked[0], 5);
        for (std::size_t i = 1; i < 16; ++i) {
            QCOMPARE(asked[i], 1);
            QCOMPARE(counts[i], 1);
        }
        const auto changes = h.eventsOf(EventKind::ConfigChanged);
        QCOMPARE(changes.size(), 1u);
        QCOMPARE(changes.front().detail, std::string("batch=1"));
    }

    // Work duration and failure rate retuned live; per-worker override.
    void workAndFailureRetune() {
        PoolHarness h;
        workers::TaskSpec spec = tasks("q.fail", 10);
        spec.policy.maxReceiveCount = 1;  // first reject drops the task
        QVERIFY(h.sendTasks(spec));
        WorkerPool pool(h.poolOptions("q.fail"), config(1, 1000, 0));
        QCOMPARE(pool.addWorkers(2).size(), 2u);
        QVERIFY(waitUntil([&] { return pool.snapshot().totals.acked == 10; }));
        // The pause below cancels worker-1's poll, and with it any ack the
        // broker has not read yet (see waitForEvents).
        QVERIFY(h.waitForEvents(EventKind::BrokerAcked, 10));
        workers::WorkerConfig failing = pool.config();
        failing.failureRate = 1.0;
        QVERIFY(pool.setWorkerConfig("worker-2", failing));
        QCOMPARE(pool.workerConfig("worker-2")->failureRate, 1.0);
        QCOMPARE(pool.workerConfig("worker-1")->failureRate, 0.0);
        // Effective from worker-2's next poll (its current one uses the old settings).
        QVERIFY(
            waitUntil([&] { return pool.workerSnapshot("worker-2")->config.failureRate == 1.0; }));
        pool.pause("worker-1");
        QVERIFY(waitUntil(
            [&] { return pool.workerSnapshot("worker-1")->state == WorkerState::Paused; }));
        QVERIFY(h.sendTasks(spec));
        QVERIFY(waitUntil([&] { return pool.snapshot().totals.rejected == 10; }));
        QVERIFY(h.waitForEvents(EventKind::BrokerDeadLettered, 10));  // before the stop
        QCOMPARE(pool.workerSnapshot("worker-1")->counters.received,
                 0u + pool.workerSnapshot("worker-1")->counters.acked);
        QVERIFY(pool.clearWorkerConfig("worker-2"));
        QCOMPARE(pool.workerConfig("worker-2")->failureRate, 0.0);
        pool.stop();
        QCOMPARE(h.ledger().summary().count(MessageState::Dropped), 10u);
    }

    // Pause cancels a long poll at once; resume polls again.
    void pauseResume() {
        PoolHarness h;
        WorkerPool pool(h.poolOptions("q.pause"), config(1, 60000, 0));
        QCOMPARE(pool.addWorkers(1).size(), 1u);
        QVERIFY(waitUntil(
            [&] { return pool.workerSnapshot("worker-1")->state == WorkerState::Polling; }));
        // Polling is set before the Get is written: wait until the broker has it.
        QVERIFY(h.waitForEvents(EventKind::BrokerClientConnected, 1, "worker-1"));
        const auto start = std::chrono::steady_clock::now();
        QVERIFY(pool.pause("worker-1"));
        QVERIFY(waitUntil(
            [&] { return pool.workerSnapshot("worker-1")->state == WorkerState::Paused; }));
        QVERIFY(secondsSince(start) < 2.0);
        QVERIFY(h.sendTasks(tasks("q.pause", 3)));
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        QCOMPARE(pool.snapshot().totals.received, 0u);
        QVERIFY(pool.resume("worker-1"));
        QVERIFY(waitUntil([&] { return pool.snapshot().totals.acked == 3; }));
        QVERIFY(h.waitForEvents(EventKind::BrokerAcked, 3));  // before the stop: see waitForEvents
        pool.stop();
        QCOMPARE(h.eventsOf(EventKind::WorkerPaused).size(), 1u);
        QCOMPARE(h.eventsOf(EventKind::WorkerResumed).size(), 1u);
        QCOMPARE(h.ledger().summary().count(MessageState::Acked), 3u);
    }

    // Slowdown multiplies the work duration of that worker only.
    void slowdown() {
        PoolHarness h;
        QVERIFY(h.sendTasks(tasks("q.slow", 4)));
        WorkerPool pool(h.poolOptions("q.slow"), config(1, 1000, 20));
        QCOMPARE(pool.addWorkers(1).size(), 1u);
        QVERIFY(pool.setSlowdown("worker-1", 3.0));
        QVERIFY(!pool.setSlowdown("worker-1", 0.0));
        QVERIFY(!pool.setSlowdown("worker-9", 2.0));
        QVERIFY(waitUntil([&] { return pool.snapshot().totals.acked == 4; }));
        pool.stop();
        for (const Event& e : h.eventsOf(EventKind::WorkFinished)) {
            QCOMPARE(e.value, 60'000'000);  // 20 ms x 3, in ns
        }
        QCOMPARE(pool.snapshot().workers.size(), 0u);
        QCOMPARE(pool.snapshot().totals.busyNs, 4 * 60'000'000);
    }

    // Scaling up and down; removed workers' counters stay in the totals;
    // numbers are reused lowest first.
    void scaleUpAndDown() {
        PoolHarness h;
        QVERIFY(h.sendTasks(tasks("q.scale", 30)));
        WorkerPool pool(h.poolOptions("q.scale"), config(2, 1000, 5));
        QVERIFY(pool.scaleTo(2));
        QCOMPARE(pool.workerIds(), (std::vector<std::string>{"worker-1", "worker-2"}));
        QVERIFY(pool.scaleTo(5));
        QCOMPARE(pool.size(), 5);
        QVERIFY(waitUntil([&] { return pool.snapshot().totals.acked == 30; }));
        // Removing a worker stops it; see waitForEvents.
        QVERIFY(h.waitForEvents(EventKind::BrokerAcked, 30));
        QVERIFY(pool.removeWorker("worker-2"));
        QCOMPARE(pool.workerIds(),
                 (std::vector<std::string>{"worker-1", "worker-3", "worker-4", "worker-5"}));
        QVERIFY(pool.scaleTo(2));
        QCOMPARE(pool.workerIds(), (std::vector<std::string>{"worker-1", "worker-3"}));
        QVERIFY(pool.scaleTo(3));
        QCOMPARE(pool.workerIds(), (std::vector<std::string>{"worker-1", "worker-2", "worker-3"}));
        QCOMPARE(pool.snapshot().totals.acked, 30u);
        std::string error;
        QVERIFY(!pool.scaleTo(-1, &error));
        pool.stop();
        QCOMPARE(h.ledger().summary().exactlyOnce, 30u);
    }

    // A stopped worker (stop action / max polls) can be restarted.
    void stopAndRestartWorker() {
        PoolHarness h;
        WorkerPool pool(h.poolOptions("q.stopw"), config(1, 1000, 0));
        QCOMPARE(pool.addWorkers(2).size(), 2u);
        QVERIFY(pool.stopWorker("worker-1"));
        QVERIFY(pool.workerSnapshot("worker-1")->state == WorkerState::Stopped);
        QVERIFY(h.sendTasks(tasks("q.stopw", 4)));
        QVERIFY(waitUntil([&] { return pool.snapshot().totals.acked == 4; }));
        QCOMPARE(pool.workerSnapshot("worker-1")->counters.received, 0u);
        QVERIFY(pool.restart("worker-1"));
        QVERIFY(waitUntil(
            [&] { return pool.workerSnapshot("worker-1")->state == WorkerState::Polling; }));
        pool.stop();
    }
};

QTEST_APPLESS_MAIN(TstWorkerTuning)
#include "tst_worker_tuning.moc"
