#include <QTest>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "client/queues_client.h"
#include "common/clock.h"
#include "events/broker_event_sink.h"
#include "events/event_stream.h"
#include "events/ledger.h"
#include "test_broker.h"

using namespace qs;
using namespace std::chrono_literals;

// The ledger fed by a real embedded broker (through BrokerEventSink) and the
// client side of the same run on one EventStream, as the console runs it:
// every hand-out must be paired across both reports, and a message returned by
// a dead consumer must be recognised as redelivered by identity.
class TestLedgerLive : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void crashReturnRejectAndAckOnOneTimeline();

private:
    void pump();
    bool waitFor(const std::function<bool()>& done);
    void clientEvent(EventKind kind, const std::string& worker, const std::string& txn,
                     const client::ReceivedMessage& rm);

    EventStream stream_{4096};
    Ledger ledger_;
    std::vector<Event> all_;
};

void TestLedgerLive::pump() {
    std::vector<Event> batch;
    stream_.drain(batch);
    ledger_.apply(batch);
    all_.insert(all_.end(), batch.begin(), batch.end());
}

// Returns as soon as done() holds; the deadline is for starved sanitizer runs.
bool TestLedgerLive::waitFor(const std::function<bool()>& done) {
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (true) {
        pump();
        if (done())
            return true;
        if (std::chrono::steady_clock::now() > deadline)
            return false;
        std::this_thread::sleep_for(10ms);
    }
}

void TestLedgerLive::clientEvent(EventKind kind, const std::string& worker, const std::string& txn,
                                 const client::ReceivedMessage& rm) {
    Event e;
    e.timeNs = monotonicNanos();
    e.kind = kind;
    e.source = EventSource::Worker;
    e.actor = worker;
    e.channel = rm.message().channel;
    e.messageId = rm.message().id;
    e.sequence = rm.sequence();
    e.receiveCount = rm.message().attributes.receiveCount;
    e.transaction = txn;
    stream_.push(std::move(e));
}

void TestLedgerLive::crashReturnRejectAndAckOnOneTimeline() {
    BrokerEventSink sink(stream_);  // outlives the broker, even when a check fails
    test::TestBroker broker;
    QVERIFY2(broker.ok(), broker.error().c_str());
    broker.broker().setObserver(&sink);

    auto makeClient = [&](const std::string& id) {
        client::ClientOptions options;
        options.address = broker.address();
        options.clientId = id;
        auto created = client::QueuesClient::create(options);
        if (!created.ok())
            qFatal("client: %s", created.error().describe().c_str());
        return std::move(created.value());
    };
    const std::string channel = "ledger.live";

    auto producer = makeClient("producer");
    for (const std::string id : {"m1", "m2", "m3"}) {
        Event sent;
        sent.timeNs = monotonicNanos();
        sent.kind = EventKind::TaskSent;
        sent.source = EventSource::Producer;
        sent.actor = "producer";
        sent.channel = channel;
        sent.messageId = id;
        stream_.push(std::move(sent));
        client::QueueMessage m;
        m.id = id;
        m.channel = channel;
        m.body = "task " + id;
        auto r = producer->send(m);
        QVERIFY2(r.ok() && !r->isError, r.ok() ? r->error.c_str() : r.error().describe().c_str());
    }

    // Worker A takes all three: acks m1, rejects m2, then dies holding m3.
    auto a = makeClient("worker-a");
    auto batchA = a->receive(channel, 3, 2000ms);
    QVERIFY2(batchA.ok(), batchA.ok() ? "" : batchA.error().describe().c_str());
    QCOMPARE(batchA->size(), std::size_t(3));
    const std::string txA = batchA->transactionId();
    for (const auto& rm : batchA->messages())
        clientEvent(EventKind::MessageAssigned, "worker-a", txA, rm);
    auto& msgs = batchA->messages();
    QCOMPARE(msgs[0].message().id, std::string("m1"));
    QVERIFY(msgs[0].ack().ok());
    clientEvent(EventKind::Acked, "worker-a", txA, msgs[0]);
    QVERIFY(msgs[1].reject().ok());
    clientEvent(EventKind::Rejected, "worker-a", txA, msgs[1]);
    // Settlements are fire-and-forget: let them land before the crash.
    QVERIFY(waitFor([&] {
        const MessageRecord* m1 = ledger_.message("m1");
        const MessageRecord* m2 = ledger_.message("m2");
        return m1 && m2 && !m1->deliveries.empty() && m1->deliveries[0].brokerSettled &&
               !m2->deliveries.empty() && m2->deliveries[0].brokerSettled;
    }));
    a->abandon();
    Event crash;
    crash.timeNs = monotonicNanos();
    crash.kind = EventKind::WorkerCrashed;
    crash.source = EventSource::Worker;
    crash.actor = "worker-a";
    crash.value = 1;
    stream_.push(std::move(crash));
    QVERIFY(waitFor([&] {
        const MessageRecord* m3 = ledger_.message("m3");
        return m3 && !m3->deliveries.empty() && m3->deliveries[0].brokerSettled;
    }));

    // Worker B gets m3 back (same copy) and the NAck copy of m2; acks both.
    auto b = makeClient("worker-b");
    auto batchB = b->receive(channel, 2, 2000ms);
    QVERIFY2(batchB.ok(), batchB.ok() ? "" : batchB.error().describe().c_str());
    QCOMPARE(batchB->size(), std::size_t(2));
    const std::string txB = batchB->transactionId();
    for (const auto& rm : batchB->messages())
        clientEvent(EventKind::MessageAssigned, "worker-b", txB, rm);
    for (auto& rm : batchB->messages()) {
        QVERIFY(rm.ack().ok());
        clientEvent(EventKind::Acked, "worker-b", txB, rm);
    }
    QVERIFY(waitFor([&] { return ledger_.summary().count(MessageState::Acked) == 3; }));
    QVERIFY(waitFor([&] {
        const MessageRecord* m2 = ledger_.message("m2");
        const MessageRecord* m3 = ledger_.message("m3");
        return m2->deliveries.back().brokerSettled && m3->deliveries.back().brokerSettled;
    }));
    broker.broker().setObserver(nullptr);
    pump();

    const LedgerSummary s = ledger_.summary();
    QCOMPARE(s.messages, 3u);
    QCOMPARE(s.deliveries, 5u);  // each hand-out once, though both sides reported it
    QCOMPARE(s.exactlyOnce, 1u);
    QCOMPARE(s.redelivered, 2u);
    QCOMPARE(s.eventsWithoutMessageId, 0u);
    QCOMPARE(s.unmatchedBrokerEvents, 0u);
    QCOMPARE(s.droppedEvents, 0u);
    QCOMPARE(s.acksLost, 0u);

    const MessageRecord* m3 = ledger_.message("m3");
    QCOMPARE(m3->deliveries.size(), std::size_t(2));
    QCOMPARE(m3->deliveries[0].worker, std::string("worker-a"));
    QCOMPARE(m3->deliveries[0].outcome, DeliveryOutcome::Returned);
    QCOMPARE(m3->deliveries[1].worker, std::string("worker-b"));
    QVERIFY(m3->deliveries[1].redelivery);
    // The broken stream returned the same stored copy: same sequence and
    // receive count, so only identity shows the redelivery.
    QCOMPARE(m3->deliveries[1].sequence, m3->deliveries[0].sequence);
    QCOMPARE(m3->deliveries[1].receiveCount, m3->deliveries[0].receiveCount);
    for (const auto& d : m3->deliveries)
        QVERIFY(d.seenByBroker && d.seenByClient);

    const MessageRecord* m2 = ledger_.message("m2");
    QCOMPARE(m2->deliveries.size(), std::size_t(2));
    QCOMPARE(m2->deliveries[0].outcome, DeliveryOutcome::Rejected);
    QCOMPARE(m2->deliveries[0].receiveCount, 1);
    QCOMPARE(m2->deliveries[1].receiveCount, 2);
    QVERIFY(m2->deliveries[1].sequence != m2->deliveries[0].sequence);

    const auto wa = ledger_.worker("worker-a");
    QVERIFY(wa.has_value());
    QCOMPARE(wa->received, 3u);
    QCOMPARE(wa->acked, 1u);
    QCOMPARE(wa->rejected, 1u);
    QCOMPARE(wa->returned, 1u);
    QCOMPARE(wa->crashes, 1u);
    const auto wb = ledger_.worker("worker-b");
    QCOMPARE(wb->received, 2u);
    QCOMPARE(wb->redelivered, 2u);
    QCOMPARE(wb->acked, 2u);
    QCOMPARE(wb->settleLatency.count, 2u);
    QVERIFY(!ledger_.worker("producer").has_value());
}

QTEST_APPLESS_MAIN(TestLedgerLive)
#include "tst_ledger_live.moc"
