// The pool's basic distribution facts against the real embedded broker.
#include <QtTest/QtTest>
#include <map>
#include <set>

#include "pool_harness.h"

using namespace qs;
using namespace qs::test;
using workers::WorkerPool;
using workers::WorkerState;

class TstWorkerPool : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Spec §6 item 7 with a client that acks properly: 10 tasks, 3 workers,
    // batch 5, wait 10 s: every task acked exactly once, two workers take five
    // each, the third gets nothing, and stopping the long-polling pool is fast.
    void classicWorkQueue() {
        PoolHarness h;
        QVERIFY(h.sendTasks(tasks("q.classic", 10)));
        WorkerPool pool(h.poolOptions("q.classic"), config(5, 10000, 200));
        QCOMPARE(pool.addWorkers(1).size(), 1u);
        // Start one at a time so each Get finds the queue in a known state. The
        // first worker is paused (it finishes its batch, then does not poll) until
        // the second holds the other five: on a loaded machine a new worker's
        // connection can take longer than the first worker's whole batch.
        QVERIFY(waitUntil([&] { return pool.snapshot().totals.received == 5; }));
        QVERIFY(pool.pause("worker-1"));
        QCOMPARE(pool.addWorkers(1).size(), 1u);
        QVERIFY(waitUntil([&] { return pool.snapshot().totals.received == 10; }));
        QVERIFY(pool.resume("worker-1"));
        QCOMPARE(pool.addWorkers(1).size(), 1u);
        QVERIFY(waitUntil([&] { return pool.snapshot().totals.acked == 10; }));
        QVERIFY(h.waitForEvents(EventKind::BrokerAcked, 10));  // before the stop: see waitForEvents
        QVERIFY(waitUntil([&] {
            auto s = pool.snapshot();
            for (const auto& w : s.workers) {
                if (w.state != WorkerState::Polling)
                    return false;
            }
            return true;
        }));
        const auto stopStart = std::chrono::steady_clock::now();
        pool.stop();
        QVERIFY2(secondsSince(stopStart) < 2.0, "stopping a long-polling pool took >= 2 s");

        Ledger ledger = h.ledger();
        const LedgerSummary sum = ledger.summary();
        QCOMPARE(sum.sent, 10u);
        QCOMPARE(sum.count(MessageState::Acked), 10u);
        QCOMPARE(sum.exactlyOnce, 10u);
        QCOMPARE(sum.redeliveries, 0u);
        std::map<std::string, std::uint64_t> received;
        for (const WorkerStats& w : ledger.workers()) {
            received[w.worker] = w.received;
            QCOMPARE(w.acked, w.received);
        }
        QCOMPARE(received["worker-1"], 5u);
        QCOMPARE(received["worker-2"], 5u);
        QCOMPARE(received["worker-3"], 0u);
    }

    // All workers start together: still exactly-once, nothing lost.
    void concurrentStartExactlyOnce() {
        PoolHarness h;
        QVERIFY(h.sendTasks(tasks("q.concurrent", 60)));
        WorkerPool pool(h.poolOptions("q.concurrent"), config(4, 1000, 1));
        QCOMPARE(pool.addWorkers(4).size(), 4u);
        QVERIFY(waitUntil([&] { return pool.snapshot().totals.acked == 60; }));
        QVERIFY(h.waitForEvents(EventKind::BrokerAcked, 60));  // before the stop: see waitForEvents
        pool.stop();
        const LedgerSummary sum = h.ledger().summary();
        QCOMPARE(sum.count(MessageState::Acked), 60u);
        QCOMPARE(sum.exactlyOnce, 60u);
        QCOMPARE(sum.processedMoreThanOnce, 0u);
    }

    // Cancellation: a pool long-polling with a 60 s wait stops in < 2 s.
    void shutdownCancelsLongPolls() {
        PoolHarness h;
        WorkerPool pool(h.poolOptions("q.idle"), config(10, 60000, 0));
        QCOMPARE(pool.addWorkers(6).size(), 6u);
        QVERIFY(waitUntil([&] {
            auto s = pool.snapshot();
            for (const auto& w : s.workers) {
                if (w.state != WorkerState::Polling)
                    return false;
            }
            return true;
        }));
        QVERIFY(h.waitForEvents(EventKind::BrokerClientConnected, 6));  // polls on the wire
        const auto start = std::chrono::steady_clock::now();
        pool.stop();
        const double took = secondsSince(start);
        QVERIFY2(took < 2.0, qPrintable(QStringLiteral("stop took %1 s").arg(took)));
        QCOMPARE(pool.size(), 0);
        QCOMPARE(h.eventsOf(EventKind::WorkerStopped).size(), 6u);
    }

    // The destructor is just as quick.
    void destructorCancelsLongPolls() {
        PoolHarness h;
        auto pool = std::make_unique<WorkerPool>(h.poolOptions("q.idle2"), config(1, 60000, 0));
        QCOMPARE(pool->addWorkers(3).size(), 3u);
        QVERIFY(
            waitUntil([&] { return pool->snapshot().workers[2].state == WorkerState::Polling; }));
        QVERIFY(h.waitForEvents(EventKind::BrokerClientConnected, 3));  // polls on the wire
        const auto start = std::chrono::steady_clock::now();
        pool.reset();
        QVERIFY(secondsSince(start) < 2.0);
    }

    // The snapshot is readable at "frame rate" from another thread while the
    // workers run (meaningful under TSan).
    void snapshotWhileRunning() {
        PoolHarness h;
        QVERIFY(h.sendTasks(tasks("q.snap", 200)));
        WorkerPool pool(h.poolOptions("q.snap"), config(5, 1000, 0.5));
        QCOMPARE(pool.addWorkers(3).size(), 3u);
        std::uint64_t frames = 0;
        std::set<WorkerState> seen;
        const auto deadline = std::chrono::steady_clock::now() + kWaitDeadline;
        while (std::chrono::steady_clock::now() < deadline) {
            auto s = pool.snapshot();
            ++frames;
            for (const auto& w : s.workers) {
                seen.insert(w.state);
                QVERIFY(w.currentIndex < static_cast<int>(w.batch.size()));
            }
            if (s.totals.acked == 200)
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        QCOMPARE(pool.snapshot().totals.acked, 200u);
        QVERIFY(frames > 3);
        QVERIFY(seen.count(WorkerState::Processing) || seen.count(WorkerState::Polling));
        pool.stop();
        auto s = pool.snapshot();
        QCOMPARE(s.totals.acked, 200u);  // counters of stopped workers are kept
        QCOMPARE(s.totals.received, 200u);
    }

    // Settle mode "each" with work that takes no time: every message still has
    // its own Acked event and broker ack, but the acks due together go out as
    // one AckRange after the last such message's work; a failed message
    // (poison) is rejected on its own, after the acks due before it.
    void zeroWorkAcksGoOutTogether() {
        PoolHarness h;
        workers::TaskSpec spec = tasks("q.coalesce", 10);
        spec.poison = {6};
        spec.policy.maxReceiveCount = 1;  // the rejected one is dropped, not handed out again
        QVERIFY(h.sendTasks(spec));
        WorkerPool pool(h.poolOptions("q.coalesce"), config(10, 10000, 0));
        QCOMPARE(pool.addWorkers(1).size(), 1u);
        QVERIFY(waitUntil([&] {
            auto t = pool.snapshot().totals;
            return t.acked == 9 && t.rejected == 1;
        }));
        // The worker counts an ack when it is written; the broker reports it when
        // read, which a loaded machine can delay past the worker's count.
        QVERIFY(waitUntil([&] { return h.eventsOf(EventKind::BrokerAcked).size() == 9u; }));
        pool.stop();

        std::map<std::string, int> taskOf;  // message id -> task number
        for (const Event& e : h.eventsOf(EventKind::TaskSent))
            taskOf[e.messageId.str()] = static_cast<int>(e.count2);
        // The worker's own steps, in stream order, as (kind, task number).
        std::vector<std::pair<EventKind, int>> steps;
        for (const Event& e : h.collect()) {
            if (e.actor == "worker-1" &&
                (e.kind == EventKind::WorkFinished || e.kind == EventKind::Acked ||
                 e.kind == EventKind::Rejected))
                steps.emplace_back(e.kind, taskOf.at(e.messageId.str()));
        }
        using K = EventKind;
        const std::vector<std::pair<EventKind, int>> expected{
            {K::WorkFinished, 1}, {K::WorkFinished, 2}, {K::WorkFinished, 3}, {K::WorkFinished, 4},
            {K::WorkFinished, 5}, {K::WorkFinished, 6}, {K::Acked, 1},        {K::Acked, 2},
            {K::Acked, 3},        {K::Acked, 4},        {K::Acked, 5},        {K::Rejected, 6},
            {K::WorkFinished, 7}, {K::WorkFinished, 8}, {K::WorkFinished, 9}, {K::WorkFinished, 10},
            {K::Acked, 7},        {K::Acked, 8},        {K::Acked, 9},        {K::Acked, 10}};
        QCOMPARE(steps.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            QVERIFY2(steps[i] == expected[i], ("step " + std::to_string(i)).c_str());
        }
        QCOMPARE(h.eventsOf(EventKind::BrokerAcked).size(), 9u);
        const LedgerSummary sum = h.ledger().summary();
        QCOMPARE(sum.count(MessageState::Acked), 9u);
        QCOMPARE(sum.exactlyOnce, 9u);

        // One step, one time: the batch's hand-outs share the receive's time,
        // and the acks of one AckRange share its time.
        auto timesOf = [&](EventKind kind) {
            std::map<int, std::int64_t> times;  // task number -> time
            for (const Event& e : h.eventsOf(kind, "worker-1"))
                times[taskOf.at(e.messageId.str())] = e.timeNs;
            return times;
        };
        const auto assigned = timesOf(K::MessageAssigned);
        QCOMPARE(assigned.size(), std::size_t(10));
        for (const auto& [task, time] : assigned)
            QCOMPARE(time, assigned.at(1));
        const auto acked = timesOf(K::Acked);
        QCOMPARE(acked.size(), std::size_t(9));
        for (int task : {2, 3, 4, 5})
            QCOMPARE(acked.at(task), acked.at(1));
        for (int task : {8, 9, 10})
            QCOMPARE(acked.at(task), acked.at(7));
        QVERIFY(acked.at(7) >= acked.at(1));
        QVERIFY(acked.at(1) >= assigned.at(1));
    }

    // With work that takes time, each ack goes out right after its message's
    // work, before the next message starts.
    void timedWorkAcksEachMessageAtOnce() {
        PoolHarness h;
        QVERIFY(h.sendTasks(tasks("q.timed", 3)));
        WorkerPool pool(h.poolOptions("q.timed"), config(3, 10000, 20));
        QCOMPARE(pool.addWorkers(1).size(), 1u);
        QVERIFY(waitUntil([&] { return pool.snapshot().totals.acked == 3; }));
        pool.stop();
        std::vector<EventKind> steps;
        for (const Event& e : h.collect()) {
            if (e.actor == "worker-1" &&
                (e.kind == EventKind::WorkStarted || e.kind == EventKind::WorkFinished ||
                 e.kind == EventKind::Acked))
                steps.push_back(e.kind);
        }
        using K = EventKind;
        const std::vector<EventKind> expected{K::WorkStarted, K::WorkFinished, K::Acked,
                                              K::WorkStarted, K::WorkFinished, K::Acked,
                                              K::WorkStarted, K::WorkFinished, K::Acked};
        QVERIFY(steps == expected);
    }

    // Invalid configuration is refused with a reason; nothing starts.
    void invalidConfigRefused() {
        PoolHarness h;
        workers::WorkerConfig bad = config(0, 1000, 1);
        WorkerPool pool(h.poolOptions("q.bad"), bad);
        std::string error;
        QVERIFY(pool.addWorkers(2, &error).empty());
        QVERIFY(error.find("batch") != std::string::npos);
        QVERIFY(!pool.setConfig(bad, &error));
        workers::WorkerConfig requeueNoChannel = config(1, 1000, 1);
        requeueNoChannel.onFailure = workers::FailureAction::Requeue;
        QVERIFY(!pool.setConfig(requeueNoChannel, &error));
        QVERIFY(error.find("requeue channel") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TstWorkerPool)
#include "tst_worker_pool.moc"
