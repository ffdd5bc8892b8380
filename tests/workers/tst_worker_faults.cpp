// Crashes, rejects, poison tasks and forgotten acks: what the broker does with
// the messages and what the ledger records, against the real embedded broker.
#include <QtTest/QtTest>
#include <map>
#include <set>

#include "pool_harness.h"

using namespace qs;
using namespace qs::test;
using workers::WorkerPool;
using workers::WorkerState;

namespace {

// MessageAssigned events of `worker`, in order.
std::vector<Event> assigned(PoolHarness& h, const std::string& worker) {
    return h.eventsOf(EventKind::MessageAssigned, worker);
}

}  // namespace

class TstWorkerFaults : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Spec §2.8.5 / §6 item 1: a worker that dies mid-batch leaves its
    // unsettled tasks to the others, with the same sequences and the SAME
    // receive count; the ledger still records them as redeliveries.
    void crashMidBatchRedeliversToOthers() {
        PoolHarness h;
        QVERIFY(h.sendTasks(tasks("q.crash", 5)));
        WorkerPool pool(h.poolOptions("q.crash"), config(5, 10000, 300));
        QCOMPARE(pool.addWorkers(1).size(), 1u);  // worker-1 takes all five
        QVERIFY(waitUntil([&] { return pool.snapshot().totals.received == 5; }));
        // worker-2 waits with batch 1 so it returns as soon as one arrives.
        QCOMPARE(pool.addWorkers(1, nullptr, config(1, 10000, 0)).size(), 1u);
        // Crash worker-1 deep in a message's work, once the broker has applied
        // every ack it counted: a crash also drops an ack still on the wire (as
        // a killed process would), and that task would come back as well. Its
        // acks go out as each next message's work starts, so work slowed down
        // after its first ack (from the next message on) lasts past the crash.
        QVERIFY(waitUntil([&] {
            auto w = pool.workerSnapshot("worker-1");
            return w && w->counters.acked >= 1;
        }));
        QVERIFY(pool.setSlowdown("worker-1", 1000.0));  // 300 ms -> 300 s
        QVERIFY(waitUntil([&] {
            for (const Event& e : h.eventsOf(EventKind::WorkStarted, "worker-1")) {
                if (e.value >= std::int64_t{60'000'000'000})
                    return true;
            }
            return false;
        }));
        const std::uint64_t ackedBefore = pool.workerSnapshot("worker-1")->counters.acked;
        QVERIFY(ackedBefore >= 2 && ackedBefore < 5);
        QVERIFY(h.waitForEvents(EventKind::BrokerAcked, ackedBefore, "worker-1"));
        QVERIFY(pool.crash("worker-1"));
        QVERIFY(waitUntil(
            [&] { return pool.workerSnapshot("worker-1")->state == WorkerState::Crashed; }));
        const auto crashed = *pool.workerSnapshot("worker-1");
        QCOMPARE(crashed.counters.acked, ackedBefore);
        QCOMPARE(crashed.counters.crashes, 1u);
        QVERIFY(waitUntil([&] { return pool.snapshot().totals.acked == 5; }));
        QVERIFY(h.waitForEvents(EventKind::BrokerAcked, 5));  // see waitForEvents
        pool.stop();

        // What worker-1 held unsettled, by message id -> sequence.
        std::map<std::string, std::uint64_t> firstSequence;
        for (const Event& e : assigned(h, "worker-1"))
            firstSequence[e.messageId.str()] = e.sequence;
        std::set<std::string> ackedByW1;
        for (const Event& e : h.eventsOf(EventKind::Acked, "worker-1"))
            ackedByW1.insert(e.messageId.str());
        const auto byW2 = assigned(h, "worker-2");
        QCOMPARE(byW2.size(), 5 - ackedBefore);
        for (const Event& e : byW2) {
            QVERIFY(firstSequence.count(e.messageId.str()));
            QVERIFY(!ackedByW1.count(e.messageId.str()));
            QCOMPARE(e.sequence, firstSequence[e.messageId.str()]);  // same stored copy
            QCOMPARE(e.receiveCount, 1);                             // not incremented
        }
        QCOMPARE(h.eventsOf(EventKind::BrokerReturned).size(), byW2.size());

        QCOMPARE(h.countOf(EventKind::BrokerAcked, "worker-1"), ackedBefore);

        Ledger ledger = h.ledger();
        const LedgerSummary sum = ledger.summary();
        QCOMPARE(sum.count(MessageState::Acked), 5u);
        QCOMPARE(sum.redelivered, byW2.size());
        // The broker reports a return after the message is available again, and
        // worker-1 notices its crash later still: worker-2's hand-out can come
        // first in the stream. Either way the ledger records the first delivery
        // as returned.
        for (const Event& e : byW2) {
            const MessageRecord* rec = ledger.message(e.messageId);
            QVERIFY(rec);
            QCOMPARE(rec->deliveryCount, 2u);
            QCOMPARE(rec->deliveries.front().worker, std::string("worker-1"));
            QVERIFY(rec->deliveries.front().workerCrashed ||
                    rec->deliveries.front().outcome == DeliveryOutcome::Returned);
            QCOMPARE(rec->deliveries.back().worker, std::string("worker-2"));
            QVERIFY(rec->deliveries.back().redelivery);
            QCOMPARE(rec->deliveries.back().outcome, DeliveryOutcome::Acked);
        }
        auto w1 = ledger.worker("worker-1");
        QVERIFY(w1);
        QCOMPARE(w1->crashes, 1u);
        QCOMPARE(w1->returned, byW2.size());
        // The pool's own registry recognised them too.
        QCOMPARE(pool.snapshot().totals.redelivered, byW2.size());
        // ... and worker-2 reported each one itself, by identity.
        const auto reported = h.eventsOf(EventKind::Redelivered, "worker-2");
        QCOMPARE(reported.size(), byW2.size());
        for (const Event& e : reported) {
            QVERIFY(e.source == EventSource::Worker);
            QVERIFY(firstSequence.count(e.messageId.str()));
            QCOMPARE(e.detail, std::string("worker-1"));
            QCOMPARE(e.value, std::int64_t{2});  // the second hand-out
        }
        // A ledger that derives Redelivered events adds no twin of those.
        LedgerOptions derive;
        derive.maxPendingDerivedEvents = 100;
        Ledger withDerived = h.ledger(derive);
        std::vector<Event> derived;
        QCOMPARE(withDerived.takeDerivedEvents(derived), std::size_t{0});
        QCOMPARE(withDerived.summary().redelivered, byW2.size());
    }

    // A crashed worker can be restarted and works again.
    void restartAfterCrash() {
        PoolHarness h;
        WorkerPool pool(h.poolOptions("q.restart"), config(1, 1000, 0));
        QCOMPARE(pool.addWorkers(1).size(), 1u);
        QVERIFY(waitUntil(
            [&] { return pool.workerSnapshot("worker-1")->state == WorkerState::Polling; }));
        QVERIFY(pool.crash("worker-1"));
        QVERIFY(waitUntil(
            [&] { return pool.workerSnapshot("worker-1")->state == WorkerState::Crashed; }));
        QVERIFY(h.sendTasks(tasks("q.restart", 3)));
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        QCOMPARE(pool.snapshot().totals.received, 0u);  // a crashed worker does nothing
        QVERIFY(pool.restart("worker-1"));
        QVERIFY(waitUntil([&] { return pool.snapshot().totals.acked == 3; }));
        pool.stop();
        QCOMPARE(h.eventsOf(EventKind::WorkerCrashed).size(), 1u);
        QCOMPARE(h.eventsOf(EventKind::WorkerReconnected).size(), 1u);
    }

    // A crash rate with automatic restart still loses nothing.
    void randomCrashesLoseNothing() {
        PoolHarness h;
        QVERIFY(h.sendTasks(tasks("q.chaos", 60)));
        workers::WorkerConfig c = config(3, 1000, 2);
        c.crashRate = 0.1;
        c.restartDelayMs = 50;
        WorkerPool pool(h.poolOptions("q.chaos"), c);
        QCOMPARE(pool.addWorkers(3).size(), 3u);
        // Done when the broker has applied an ack of every task: a worker's ack
        // can be lost to a crash, or to the stop below while the broker has not
        // read it yet (see waitForEvents), and that task is handed out again.
        QVERIFY(h.waitForEvents(EventKind::BrokerAcked, 60));
        pool.stop();
        const LedgerSummary sum = h.ledger().summary();
        QCOMPARE(sum.count(MessageState::Acked), 60u);
        QVERIFY(pool.snapshot().totals.crashes > 0);
        QVERIFY(sum.redeliveries > 0);
    }

    // A rejected task goes back to the TAIL as a new copy with receive count 2.
    void rejectedTaskBackAtTailWithCount2() {
        PoolHarness h;
        workers::TaskSpec spec = tasks("q.reject", 3);
        spec.poison = {1};  // task 1 always fails
        spec.policy.maxReceiveCount = 5;
        QVERIFY(h.sendTasks(spec));
        WorkerPool pool(h.poolOptions("q.reject"), config(1, 1000, 0));
        QCOMPARE(pool.addWorkers(1).size(), 1u);
        QVERIFY(waitUntil([&] { return pool.snapshot().totals.received >= 4; }));
        pool.stop();
        const auto got = assigned(h, "worker-1");
        QVERIFY(got.size() >= 4);
        QCOMPARE(got[0].sequence, 1u);
        QCOMPARE(got[0].receiveCount, 1);
        QCOMPARE(got[1].sequence, 2u);
        QCOMPARE(got[2].sequence, 3u);
        QCOMPARE(got[3].messageId, got[0].messageId);  // the poison task again ...
        QCOMPARE(got[3].sequence, 4u);                 // ... at the tail, as a new copy
        QCOMPARE(got[3].receiveCount, 2);
        QVERIFY(!h.eventsOf(EventKind::Rejected).empty());
        QCOMPARE(h.eventsOf(EventKind::Rejected).front().detail, std::string("poison"));
    }

    // Spec §2.7: a poison task is rejected maxReceiveCount times, then the
    // broker moves it to the dead-letter queue; every other task is acked.
    void poisonTaskDeadLettered() {
        PoolHarness h;
        workers::TaskSpec spec = tasks("q.poison", 6);
        spec.poison = {2};
        spec.policy.maxReceiveCount = 3;
        spec.policy.deadLetterQueue = "q.poison.dead";
        QVERIFY(h.sendTasks(spec));
        WorkerPool pool(h.poolOptions("q.poison"), config(2, 1000, 0));
        QCOMPARE(pool.addWorkers(2).size(), 2u);
        QVERIFY(waitUntil([&] {
            auto s = h.ledger().summary();
            return s.count(MessageState::Acked) == 5 && s.count(MessageState::DeadLettered) == 1;
        }));
        pool.stop();
        Ledger ledger = h.ledger();
        std::string poisonId;
        for (const Event& e : h.eventsOf(EventKind::Rejected))
            poisonId = e.messageId;
        const MessageRecord* rec = ledger.message(poisonId);
        QVERIFY(rec);
        QCOMPARE(rec->state, MessageState::DeadLettered);
        QCOMPARE(rec->deliveryCount, 3u);
        QCOMPARE(h.eventsOf(EventKind::Rejected).size(), 3u);
        // Received from the dead-letter queue it is marked as re-routed.
        auto client = h.client();
        auto dead = client->receive("q.poison.dead", 1, std::chrono::milliseconds(1000));
        QVERIFY(dead.ok());
        QCOMPARE(dead->size(), 1u);
        const auto& m = dead->messages().front().message();
        QCOMPARE(m.id, poisonId);
        QVERIFY(m.attributes.reRouted);
        QCOMPARE(m.attributes.reRoutedFrom, std::string("q.poison"));
        QCOMPARE(m.tags.at("poison"), std::string("true"));
        QVERIFY(dead->ackAll().ok());
    }

    // The "forgot to ack" lesson: two receives of 5 with auto-ack off, then
    // the client closes: all 10 go back, and the next worker gets all of them
    // with the same sequences and receive count 1.
    void forgottenAcksAllComeBack() {
        PoolHarness h;
        QVERIFY(h.sendTasks(tasks("q.forgot", 10)));
        workers::WorkerConfig forgetful = config(5, 1000, 0);
        forgetful.settle = workers::SettleMode::Never;
        forgetful.maxPolls = 2;
        WorkerPool pool(h.poolOptions("q.forgot"), forgetful);
        QCOMPARE(pool.addWorkers(1).size(), 1u);
        QVERIFY(waitUntil(
            [&] { return pool.workerSnapshot("worker-1")->state == WorkerState::Stopped; }));
        const auto w1 = *pool.workerSnapshot("worker-1");
        QCOMPARE(w1.counters.received, 10u);
        QCOMPARE(w1.counters.acked, 0u);
        QCOMPARE(w1.counters.abandoned, 10u);
        QVERIFY(waitUntil([&] { return h.eventsOf(EventKind::BrokerReturned).size() == 10; }));
        QCOMPARE(pool.addWorkers(1, nullptr, config(10, 1000, 0)).size(), 1u);
        QVERIFY(waitUntil([&] { return pool.snapshot().totals.acked == 10; }));
        // worker-2 acks all ten in one AckRange and polls again at once: a stop
        // before the broker has read that write loses all ten acks.
        QVERIFY(h.waitForEvents(EventKind::BrokerAcked, 10));
        pool.stop();
        std::map<std::string, std::uint64_t> firstSeq;
        for (const Event& e : assigned(h, "worker-1"))
            firstSeq[e.messageId.str()] = e.sequence;
        const auto again = assigned(h, "worker-2");
        QCOMPARE(again.size(), 10u);
        for (const Event& e : again) {
            QCOMPARE(e.sequence, firstSeq[e.messageId.str()]);
            QCOMPARE(e.receiveCount, 1);
        }
        const LedgerSummary sum = h.ledger().summary();
        QCOMPARE(sum.count(MessageState::Acked), 10u);
        QCOMPARE(sum.redelivered, 10u);
        QCOMPARE(sum.exactlyOnce, 0u);
    }

    // Settle mode "async" (the Python SDK's async_ack, spec §5 item 7): each
    // ack is written while the next task works, and a worker that leaves
    // after its last poll drops the ack still queued. The broker gets four
    // acks of five, gives the fifth back, and the ledger counts one lost ack.
    void asyncAckOfALeavingWorkerNeverLeaves() {
        PoolHarness h;
        QVERIFY(h.sendTasks(tasks("q.async", 5)));
        workers::WorkerConfig leaving = config(5, 1000, 20);
        leaving.settle = workers::SettleMode::Async;
        leaving.maxPolls = 1;
        WorkerPool pool(h.poolOptions("q.async"), leaving);
        QCOMPARE(pool.addWorkers(1).size(), 1u);
        QVERIFY(waitUntil(
            [&] { return pool.workerSnapshot("worker-1")->state == WorkerState::Stopped; }));
        const auto w1 = *pool.workerSnapshot("worker-1");
        QCOMPARE(w1.counters.received, 5u);
        QCOMPARE(w1.counters.acked, 4u);
        QCOMPARE(w1.counters.abandoned, 1u);
        QCOMPARE(h.eventsOf(EventKind::Acked, "worker-1").size(), 5u);  // as the program saw it
        QVERIFY(h.waitForEvents(EventKind::BrokerAcked, 4));
        QVERIFY(waitUntil([&] { return h.eventsOf(EventKind::BrokerReturned).size() == 1; }));
        QCOMPARE(pool.addWorkers(1, nullptr, config(5, 1000, 0)).size(), 1u);
        QVERIFY(waitUntil([&] { return h.ledger().summary().count(MessageState::Acked) == 5; }));
        QVERIFY(h.waitForEvents(EventKind::BrokerAcked, 5));
        pool.stop();
        const auto again = assigned(h, "worker-2");
        QCOMPARE(again.size(), 1u);
        QCOMPARE(again.front().messageId, assigned(h, "worker-1").back().messageId);
        QCOMPARE(h.eventsOf(EventKind::BrokerAcked).size(), 5u);
        QCOMPARE(h.ledger().summary().acksLost, 1u);
    }

    // Failure action "requeue": failed tasks move to another channel.
    void failuresRequeuedToChannel() {
        PoolHarness h;
        QVERIFY(h.sendTasks(tasks("q.rq", 10)));
        workers::WorkerConfig c = config(5, 1000, 0);
        c.failureRate = 1.0;
        c.onFailure = workers::FailureAction::Requeue;
        c.requeueChannel = "q.rq.retry";
        WorkerPool pool(h.poolOptions("q.rq"), c);
        QCOMPARE(pool.addWorkers(1).size(), 1u);
        QVERIFY(waitUntil([&] { return pool.snapshot().totals.requeued == 10; }));
        // Settlements are not answered: the worker counts a requeue once it is
        // written. Stop only once the broker has applied all ten, since a
        // stop that cancels the worker's next long poll may discard writes the
        // server has not read yet (as it would for any KubeMQ client).
        QVERIFY(waitUntil([&] { return h.eventsOf(EventKind::BrokerRequeued).size() == 10; }));
        pool.stop();
        QCOMPARE(h.eventsOf(EventKind::Requeued).size(), 10u);
        QCOMPARE(h.eventsOf(EventKind::Requeued).front().detail, std::string("q.rq.retry"));
        auto client = h.client();
        auto moved = client->receive("q.rq.retry", 10, std::chrono::milliseconds(1000));
        QVERIFY(moved.ok());
        QCOMPARE(moved->size(), 10u);
        QVERIFY(moved->ackAll().ok());
    }

    // Batch settle mode: one AckAll per batch, failures rejected one by one.
    void batchSettleMode() {
        PoolHarness h;
        workers::TaskSpec spec = tasks("q.batchsettle", 10);
        spec.poison = {3};
        spec.policy.maxReceiveCount = 1;
        QVERIFY(h.sendTasks(spec));
        workers::WorkerConfig c = config(5, 1000, 0);
        c.settle = workers::SettleMode::Batch;
        WorkerPool pool(h.poolOptions("q.batchsettle"), c);
        QCOMPARE(pool.addWorkers(1).size(), 1u);
        QVERIFY(waitUntil([&] {
            auto s = h.ledger().summary();
            return s.count(MessageState::Acked) == 9 && s.count(MessageState::Dropped) == 1;
        }));
        pool.stop();
        QCOMPARE(pool.snapshot().totals.acked, 9u);
        QCOMPARE(pool.snapshot().totals.rejected, 1u);
    }

    // Auto-ack: the broker acks on hand-out; nothing to settle.
    void autoAck() {
        PoolHarness h;
        QVERIFY(h.sendTasks(tasks("q.auto", 8)));
        workers::WorkerConfig c = config(4, 1000, 0);
        c.autoAck = true;
        WorkerPool pool(h.poolOptions("q.auto"), c);
        QCOMPARE(pool.addWorkers(1).size(), 1u);
        QVERIFY(waitUntil([&] { return h.ledger().summary().count(MessageState::Acked) == 8; }));
        // The broker reports its auto-acks before it answers the Get; a stop
        // that cancels the receive before the worker has read the answer loses
        // that batch (auto-ack is at most once). Wait for the worker's count.
        QVERIFY(waitUntil([&] { return pool.snapshot().totals.acked == 8; }));
        pool.stop();
        QCOMPARE(pool.snapshot().totals.acked, 8u);
    }
};

QTEST_APPLESS_MAIN(TstWorkerFaults)
#include "tst_worker_faults.moc"
