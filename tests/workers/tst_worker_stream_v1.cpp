// Workers that consume through the v1 stream (ConsumeMode::V1Stream) against
// the real embedded broker: one message per stream, settled on that stream; a
// slow worker whose visibility runs out has its ack refused and reports it
// as VisibilityExpired (not a success) while another worker gets the message
// with receive count 2; the ledger reads the broker's nack as "visibility
// expired", and so does a ledger fed the workers' events only (a server
// without an observer).
#include <QtTest/QtTest>
#include <algorithm>

#include "pool_harness.h"

using namespace qs;
using namespace qs::test;
using workers::ConsumeMode;
using workers::WorkerPool;

namespace {

workers::WorkerConfig v1Config(int visibilitySeconds, double workMs) {
    workers::WorkerConfig c = config(1, 1000, workMs);
    c.consume = ConsumeMode::V1Stream;
    c.visibilitySeconds = visibilitySeconds;
    return c;
}

std::vector<Event> workerEventsOnly(const std::vector<Event>& events) {
    std::vector<Event> out;
    std::copy_if(events.begin(), events.end(), std::back_inserter(out),
                 [](const Event& e) { return e.source != EventSource::Broker; });
    return out;
}

}  // namespace

class TestWorkerStreamV1 : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Two v1 workers drain ten tasks, each acked once on its own stream; every
    // hand-out names the visibility (ms) and the broker's name for it.
    void drainsEachTaskOnce() {
        PoolHarness h;
        QVERIFY(h.sendTasks(tasks("q.v1", 10)));
        WorkerPool pool(h.poolOptions("q.v1"), v1Config(30, 0));
        QCOMPARE(pool.addWorkers(2).size(), 2u);
        QVERIFY(h.waitForEvents(EventKind::BrokerAcked, 10));
        pool.stop();
        const auto assigned = h.eventsOf(EventKind::MessageAssigned);
        QCOMPARE(assigned.size(), 10u);
        for (const Event& e : assigned) {
            QCOMPARE(e.value, std::int64_t{30000});
            QCOMPARE(e.receiveCount, 1);
            QVERIFY(!e.transaction.empty());
        }
        const auto polls = h.eventsOf(EventKind::PollStarted);
        QVERIFY(!polls.empty());
        QCOMPARE(polls.front().value, std::int64_t{1});  // one message per stream
        Ledger ledger = h.ledger();
        QCOMPARE(ledger.summary().count(MessageState::Acked), 10u);
        QCOMPARE(ledger.summary().exactlyOnce, 10u);
        QCOMPARE(ledger.summary().unmatchedBrokerEvents, 0u);
        QCOMPARE(pool.snapshot().totals.acked, 10u);
    }

    // worker-1 takes the task with a 1 s visibility and works 3 s; the broker
    // takes it back at 1 s and worker-2 acks it (receive count 2); worker-1's
    // ack then fails and it says so.
    void lateAckIsReportedNotCounted() {
        PoolHarness h;
        QVERIFY(h.sendTasks(tasks("q.v1.late", 1)));
        WorkerPool pool(h.poolOptions("q.v1.late"), v1Config(1, 3000));
        QCOMPARE(pool.addWorkers(1).size(), 1u);
        QVERIFY(h.waitForEvents(EventKind::MessageAssigned, 1, "worker-1"));
        QCOMPARE(pool.addWorkers(1, nullptr, v1Config(30, 0)).size(), 1u);
        QVERIFY(h.waitForEvents(EventKind::Acked, 1, "worker-2"));
        QVERIFY(h.waitForEvents(EventKind::VisibilityExpired, 1, "worker-1"));
        pool.stop();

        const Event expired = h.eventsOf(EventKind::VisibilityExpired, "worker-1").front();
        QCOMPARE(expired.receiveCount, 1);
        QVERIFY2(expired.detail.find("Error 129") != std::string::npos, expired.detail.c_str());
        QCOMPARE(h.countOf(EventKind::Acked, "worker-1"), 0u);
        const Event acked = h.eventsOf(EventKind::Acked, "worker-2").front();
        QCOMPARE(acked.receiveCount, 2);
        QCOMPARE(acked.messageId, expired.messageId);
        const auto nacks = h.eventsOf(EventKind::BrokerNacked);
        QCOMPARE(nacks.size(), 1u);
        QCOMPARE(nacks.front().detail, std::string(kNackReasonVisibilityExpired));

        const auto snapshot = pool.snapshot();
        QCOMPARE(snapshot.totals.visibilityExpired, 1u);
        QCOMPARE(snapshot.totals.acked, 1u);
        QCOMPARE(snapshot.totals.rejected, 0u);

        const auto checkLedger = [&](const Ledger& ledger, const char* which) {
            const MessageRecord* m = ledger.message(std::string(expired.messageId.view()));
            QVERIFY2(m != nullptr, which);
            QCOMPARE(m->state, MessageState::Acked);
            QCOMPARE(m->deliveries.size(), std::size_t{2});
            QCOMPARE(m->deliveries[0].worker, std::string("worker-1"));
            QVERIFY2(m->deliveries[0].visibilityExpired, which);
            QCOMPARE(m->deliveries[0].outcome, DeliveryOutcome::Rejected);
            QCOMPARE(m->deliveries[1].worker, std::string("worker-2"));
            QCOMPARE(m->deliveries[1].receiveCount, 2);
            QVERIFY2(!m->deliveries[1].visibilityExpired, which);
            const auto w1 = ledger.worker("worker-1");
            QVERIFY(w1.has_value());
            QCOMPARE(w1->visibilityExpired, 1u);
            QCOMPARE(w1->rejected, 0u);
            QCOMPARE(w1->acked, 0u);
            QCOMPARE(w1->returned, 0u);
        };
        checkLedger(h.ledger(), "with the broker's events");
        Ledger clientOnly;
        clientOnly.apply(workerEventsOnly(h.collect()));
        checkLedger(clientOnly, "with the workers' events only");
    }

    void refusesWhatTheStreamCannotDo() {
        workers::WorkerConfig c = v1Config(5, 0);
        QVERIFY(c.validate().empty());
        c.autoAck = true;
        QVERIFY(c.validate().find("auto-ack") != std::string::npos);
        c.autoAck = false;
        c.settle = workers::SettleMode::Never;
        QVERIFY(c.validate().find("never") != std::string::npos);
        c.settle = workers::SettleMode::Each;
        c.visibilitySeconds = 0;
        QVERIFY(c.validate().find("visibility timeout") != std::string::npos);
        c.consume = ConsumeMode::Downstream;  // not used by the downstream API
        QVERIFY(c.validate().empty());
    }
};

QTEST_APPLESS_MAIN(TestWorkerStreamV1)
#include "tst_worker_stream_v1.moc"
