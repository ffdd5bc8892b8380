#include <QTest>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "event_test_names.h"
#include "events/ledger.h"

using namespace qs;

namespace {

bool isBrokerKind(EventKind k) {
    switch (k) {
        case EventKind::BrokerStored:
        case EventKind::BrokerDelayed:
        case EventKind::BrokerReleased:
        case EventKind::BrokerDelivered:
        case EventKind::BrokerAcked:
        case EventKind::BrokerNacked:
        case EventKind::BrokerRequeued:
        case EventKind::BrokerReturned:
        case EventKind::BrokerExpired:
        case EventKind::BrokerDeadLettered:
        case EventKind::BrokerClientConnected:
        case EventKind::BrokerClientDisconnected:
        case EventKind::BrokerPeeked:
        case EventKind::BrokerPurged:
            return true;
        default:
            return false;
    }
}

// Hand-built timelines: times in ns, channel "q" unless given.
struct Timeline {
    std::vector<Event> events;

    Event& add(std::int64_t t, EventKind kind, std::string actor, std::string id,
               std::uint64_t seq = 0, std::int32_t rc = 0, std::string tx = {}) {
        Event e;
        e.timeNs = t;
        e.kind = kind;
        e.source = isBrokerKind(kind) ? EventSource::Broker
                   : kind == EventKind::TaskSent || kind == EventKind::SendFailed
                       ? EventSource::Producer
                       : EventSource::Worker;
        e.actor = std::move(actor);
        e.channel = "q";
        e.messageId = std::move(id);
        e.sequence = seq;
        e.receiveCount = rc;
        e.transaction = std::move(tx);
        events.push_back(std::move(e));
        return events.back();
    }
    Event& sent(std::int64_t t, const std::string& id) {
        return add(t, EventKind::TaskSent, "producer", id);
    }
    Event& worker(std::int64_t t, EventKind kind, const std::string& w) {
        return add(t, kind, w, {});
    }
};

const DeliveryRecord& delivery(const MessageRecord* rec, std::size_t i) {
    return rec->deliveries.at(i);
}

}  // namespace

class TestLedger : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void exactlyOnce();
    void waitingDelayedInFlight();
    void redeliveryAfterCrashClientOnly();
    void redeliveryRecognisedWithoutCrashEvent();
    void redeliveryReportedByWorkerIsNotDerivedAgain();
    void redeliveryAfterCrashWithBrokerEvents();
    void onlyAReturnJustBeforeACrashIsBlamedOnIt();
    void returnReportedAfterTheNextHandOut();
    void rejectionReportedAfterTheNextHandOut();
    void lostAckIsRecognised();
    void lostAckSeenByBroker();
    void rejectionGoesToTailWithReceiveCountTwo();
    void deadLetterAfterMaxReceiveCount();
    void deadLetterInferredWithoutBroker();
    void redriveBringsADeadLetterBack();
    void droppedAndExpired();
    void requeueMovesToAnotherChannel();
    void autoAckReportedByBothSides();
    void perWorkerStatsAndLatencies();
    void aWorkersLatenciesHaveTheirOwnCap();
    void memoryStaysBounded();
    void aCopyFindsAndForgetsItsOwnRecords();
    void aReopenedMessageCountsOnceAgainstTheCap();
    void keyedLookupsEqualLookupsByText();
    void unkeyedEventsAndDropNotices();
    void sendFailedAndPurge();
    void peekIsNotADeliveryAndPurgeNotAnAck();
    void purgeOfAMessageWhoseReturnIsLate();
    void channelPurgedWithoutBrokerEvents();
    void channelPurgedAfterTheBrokersOwnReport();
    void stateAndOutcomeNames();
    void observerToldWhatEachEventChanged();
};

void TestLedger::exactlyOnce() {
    Timeline tl;
    for (int i = 1; i <= 3; ++i) {
        const std::string id = "m" + std::to_string(i);
        const std::string w = i == 2 ? "w2" : "w1";
        tl.sent(i, id);
        tl.add(100 + i, EventKind::MessageAssigned, w, id, i, 1, "tx");
        tl.add(200 + i, EventKind::WorkStarted, w, id, i, 1, "tx");
        tl.add(300 + i, EventKind::WorkFinished, w, id, i, 1, "tx").value = 100;
        tl.add(400 + i, EventKind::Acked, w, id, i, 1, "tx");
    }
    Ledger ledger;
    ledger.apply(tl.events);
    const LedgerSummary s = ledger.summary();
    QCOMPARE(s.messages, 3u);
    QCOMPARE(s.sent, 3u);
    QCOMPARE(s.exactlyOnce, 3u);
    QCOMPARE(s.count(MessageState::Acked), 3u);
    QCOMPARE(s.redelivered, 0u);
    QCOMPARE(s.deliveries, 3u);
    QCOMPARE(s.processedMoreThanOnce, 0u);
    QCOMPARE(s.eventsApplied, tl.events.size());
    const MessageRecord* m2 = ledger.message("m2");
    QVERIFY(m2 != nullptr);
    QCOMPARE(m2->deliveries.size(), std::size_t(1));
    QCOMPARE(delivery(m2, 0).worker, std::string("w2"));
    QCOMPARE(delivery(m2, 0).outcome, DeliveryOutcome::Acked);
    QCOMPARE(delivery(m2, 0).assignedNs, 102);
    QCOMPARE(delivery(m2, 0).workStartNs, 202);
    QCOMPARE(delivery(m2, 0).settledNs, 402);
    QCOMPARE(m2->sentNs, 2);
    QCOMPARE(m2->processedCount, 1u);
    QCOMPARE(ledger.worker("w1")->acked, 2u);
    QCOMPARE(ledger.worker("w1")->received, 2u);
    QCOMPARE(ledger.worker("w2")->acked, 1u);
    QVERIFY(ledger.message("nope") == nullptr);
    QVERIFY(!ledger.worker("nobody").has_value());
}

void TestLedger::waitingDelayedInFlight() {
    Timeline tl;
    tl.sent(1, "waiting");
    tl.sent(2, "delayed").value = 5;  // delay seconds
    tl.sent(3, "busy");
    tl.add(4, EventKind::MessageAssigned, "w1", "busy", 3, 1);
    tl.sent(5, "released");
    tl.add(6, EventKind::BrokerDelayed, "producer", "released", 0, 0);
    tl.add(7, EventKind::BrokerReleased, "", "released", 4, 0);
    Ledger ledger;
    ledger.apply(tl.events);
    const LedgerSummary s = ledger.summary();
    QCOMPARE(s.count(MessageState::Waiting), 2u);
    QCOMPARE(s.count(MessageState::Delayed), 1u);
    QCOMPARE(s.count(MessageState::InFlight), 1u);
    QCOMPARE(ledger.message("released")->sequence, 4u);
    QCOMPARE(ledger.message("busy")->state, MessageState::InFlight);
}

void TestLedger::redeliveryAfterCrashClientOnly() {
    // A remote server: only the workers' view. The crash returns the message
    // with the same sequence and receive count (spec §2.8.5), so only identity
    // tells it is a redelivery.
    Timeline tl;
    tl.sent(0, "m1");
    tl.add(10, EventKind::MessageAssigned, "w1", "m1", 5, 1, "txA");
    tl.add(11, EventKind::WorkStarted, "w1", "m1", 5, 1, "txA");
    tl.worker(20, EventKind::WorkerCrashed, "w1").value = 1;
    tl.add(30, EventKind::MessageAssigned, "w2", "m1", 5, 1, "txB");
    tl.add(35, EventKind::WorkFinished, "w2", "m1", 5, 1, "txB").value = 4;
    tl.add(40, EventKind::Acked, "w2", "m1", 5, 1, "txB");
    LedgerOptions options;
    options.maxPendingDerivedEvents = 10;
    Ledger ledger(options);
    ledger.apply(std::span<const Event>(tl.events).first(3));
    QCOMPARE(ledger.message("m1")->state, MessageState::InFlight);
    ledger.apply(tl.events[3]);
    QCOMPARE(ledger.message("m1")->state, MessageState::Waiting);  // back in the queue
    ledger.apply(std::span<const Event>(tl.events).subspan(4));

    const MessageRecord* m = ledger.message("m1");
    QCOMPARE(m->state, MessageState::Acked);
    QCOMPARE(m->deliveryCount, 2u);
    QCOMPARE(m->redeliveryCount(), 1u);
    QCOMPARE(delivery(m, 0).worker, std::string("w1"));
    QCOMPARE(delivery(m, 0).outcome, DeliveryOutcome::Returned);
    QVERIFY(delivery(m, 0).workerCrashed);
    QVERIFY(!delivery(m, 0).redelivery);
    QCOMPARE(delivery(m, 1).worker, std::string("w2"));
    QCOMPARE(delivery(m, 1).sequence, 5u);
    QCOMPARE(delivery(m, 1).receiveCount, 1);
    QVERIFY(delivery(m, 1).redelivery);
    QCOMPARE(delivery(m, 1).outcome, DeliveryOutcome::Acked);

    const LedgerSummary s = ledger.summary();
    QCOMPARE(s.redelivered, 1u);
    QCOMPARE(s.redeliveries, 1u);
    QCOMPARE(s.exactlyOnce, 0u);
    QCOMPARE(s.count(MessageState::Acked), 1u);
    const auto w1 = ledger.worker("w1");
    QCOMPARE(w1->crashes, 1u);
    QCOMPARE(w1->returned, 1u);
    QCOMPARE(w1->acked, 0u);
    QVERIFY(w1->lastLifecycle == EventKind::WorkerCrashed);
    const auto w2 = ledger.worker("w2");
    QCOMPARE(w2->received, 1u);
    QCOMPARE(w2->redelivered, 1u);
    QCOMPARE(w2->busyNs, 4);

    std::vector<Event> derived;
    QCOMPARE(ledger.takeDerivedEvents(derived), std::size_t(1));
    QS_COMPARE_NAME(derived[0].kind, EventKind::Redelivered);
    QCOMPARE(derived[0].actor, std::string("w2"));
    QCOMPARE(derived[0].detail, std::string("w1"));
    QCOMPARE(derived[0].messageId, std::string("m1"));
    QCOMPARE(derived[0].value, 2);
    QCOMPARE(derived[0].timeNs, 30);
    QCOMPARE(ledger.takeDerivedEvents(derived), std::size_t(0));
}

void TestLedger::redeliveryReportedByWorkerIsNotDerivedAgain() {
    // Workers report a redelivery themselves (source Worker), right after the
    // assignment or, from another reader's view, ahead of it: counted once
    // from the hand-outs, and no derived twin either way.
    for (const bool reportFirst : {false, true}) {
        Timeline tl;
        tl.sent(0, "m1");
        tl.add(10, EventKind::MessageAssigned, "w1", "m1", 5, 1, "txA");
        tl.worker(20, EventKind::WorkerCrashed, "w1").value = 1;
        Event report;
        report.timeNs = 30;
        report.kind = EventKind::Redelivered;
        report.source = EventSource::Worker;
        report.actor = "w2";
        report.channel = "q";
        report.messageId = "m1";
        report.value = 2;
        report.detail = "w1";
        if (reportFirst)
            tl.events.push_back(report);
        tl.add(30, EventKind::MessageAssigned, "w2", "m1", 5, 1, "txB");
        if (!reportFirst)
            tl.events.push_back(report);
        tl.add(40, EventKind::Acked, "w2", "m1", 5, 1, "txB");
        // A second message redelivered without a report still gets its event.
        tl.add(50, EventKind::MessageAssigned, "w1", "m2", 6, 1, "txC");
        tl.add(60, EventKind::MessageAssigned, "w2", "m2", 6, 1, "txD");
        LedgerOptions options;
        options.maxPendingDerivedEvents = 10;
        Ledger ledger(options);
        ledger.apply(tl.events);
        const LedgerSummary s = ledger.summary();
        QCOMPARE(s.redelivered, 2u);
        QCOMPARE(s.redeliveries, 2u);
        QCOMPARE(ledger.worker("w2")->redelivered, 2u);
        QVERIFY(delivery(ledger.message("m1"), 1).redelivery);
        std::vector<Event> derived;
        QCOMPARE(ledger.takeDerivedEvents(derived), std::size_t(1));
        QCOMPARE(derived[0].messageId, std::string("m2"));
    }
}

void TestLedger::redeliveryRecognisedWithoutCrashEvent() {
    // The crash event itself was lost; the second hand-out still counts.
    Timeline tl;
    tl.add(10, EventKind::MessageAssigned, "w1", "m1", 5, 1, "txA");
    tl.add(30, EventKind::MessageAssigned, "w2", "m1", 5, 1, "txB");
    Ledger ledger;
    ledger.apply(tl.events);
    const MessageRecord* m = ledger.message("m1");
    QCOMPARE(m->deliveryCount, 2u);
    QCOMPARE(delivery(m, 0).outcome, DeliveryOutcome::Superseded);
    QCOMPARE(m->state, MessageState::InFlight);
    QCOMPARE(ledger.worker("w1")->returned, 1u);
    QCOMPARE(ledger.summary().redelivered, 1u);
    QCOMPARE(ledger.summary().count(MessageState::InFlight), 1u);
}

void TestLedger::redeliveryAfterCrashWithBrokerEvents() {
    // Embedded broker: both sides report every step; each hand-out counts once.
    Timeline tl;
    tl.sent(0, "m1");
    tl.add(1, EventKind::BrokerStored, "producer", "m1", 5, 0);
    tl.add(10, EventKind::BrokerDelivered, "w1", "m1", 5, 1, "txA");
    tl.add(11, EventKind::MessageAssigned, "w1", "m1", 5, 1, "txA");
    tl.add(12, EventKind::WorkStarted, "w1", "m1", 5, 1, "txA");
    // The broker names only the stored copy when it returns it.
    tl.add(20, EventKind::BrokerReturned, "w1", "", 5, 0, "txA");
    tl.worker(21, EventKind::WorkerCrashed, "w1").value = 1;
    tl.add(30, EventKind::BrokerDelivered, "w2", "m1", 5, 1, "txB");
    tl.add(31, EventKind::MessageAssigned, "w2", "m1", 5, 1, "txB");
    tl.add(40, EventKind::Acked, "w2", "m1", 5, 1, "txB");
    tl.add(41, EventKind::BrokerAcked, "w2", "m1", 5, 1, "txB");
    Ledger ledger;
    ledger.apply(tl.events);

    const LedgerSummary s = ledger.summary();
    QCOMPARE(s.eventsWithoutMessageId, 0u);
    QCOMPARE(s.unmatchedBrokerEvents, 0u);
    QCOMPARE(s.deliveries, 2u);
    QCOMPARE(s.redelivered, 1u);
    QCOMPARE(s.count(MessageState::Acked), 1u);
    const MessageRecord* m = ledger.message("m1");
    QCOMPARE(m->deliveries.size(), std::size_t(2));
    QVERIFY(delivery(m, 0).seenByBroker && delivery(m, 0).seenByClient);
    QCOMPARE(delivery(m, 0).outcome, DeliveryOutcome::Returned);
    QCOMPARE(delivery(m, 0).assignedNs, 10);  // the first report of the hand-out
    QVERIFY(delivery(m, 1).seenByBroker && delivery(m, 1).seenByClient);
    QVERIFY(delivery(m, 1).brokerSettled && delivery(m, 1).clientSettled);
    QCOMPARE(ledger.worker("w1")->returned, 1u);  // once, though both sides said so
    QCOMPARE(ledger.worker("w2")->acked, 1u);
    QCOMPARE(ledger.worker("w2")->settleLatency.count, 1u);
    QCOMPARE(ledger.worker("w2")->settleLatency.p50Ns, 10);  // 30 -> 40
    // The broker's return came just before the crash report: the crash is why.
    QVERIFY(delivery(m, 0).workerCrashed);
}

// A return long before a crash (a closed stream, say) is not the crash's doing.
void TestLedger::onlyAReturnJustBeforeACrashIsBlamedOnIt() {
    Timeline tl;
    tl.sent(0, "old");
    tl.sent(0, "new");
    tl.add(10, EventKind::BrokerDelivered, "w1", "old", 5, 1, "txA");
    tl.add(20, EventKind::BrokerReturned, "w1", "", 5, 0, "txA");
    const std::int64_t later = 5'000'000'000;
    tl.add(later, EventKind::BrokerDelivered, "w1", "new", 6, 1, "txB");
    tl.add(later + 10, EventKind::BrokerReturned, "w1", "", 6, 0, "txB");
    tl.worker(later + 20, EventKind::WorkerCrashed, "w1");
    Ledger ledger;
    ledger.apply(tl.events);
    QVERIFY(!delivery(ledger.message("old"), 0).workerCrashed);
    QVERIFY(delivery(ledger.message("new"), 0).workerCrashed);
    QCOMPARE(delivery(ledger.message("old"), 0).outcome, DeliveryOutcome::Returned);
}

void TestLedger::returnReportedAfterTheNextHandOut() {
    // The broker makes a returned copy available before it reports the return,
    // and the worker notices its own crash later still: the next consumer's
    // hand-out (and even its ack) can reach the stream before either. Both
    // orders describe the same history.
    Timeline tl;
    tl.sent(0, "m1");
    tl.sent(0, "m2");
    tl.add(10, EventKind::BrokerDelivered, "w1", "m1", 5, 1, "txA");
    tl.add(10, EventKind::BrokerDelivered, "w1", "m2", 6, 1, "txA");
    tl.add(11, EventKind::MessageAssigned, "w1", "m1", 5, 1, "txA");
    tl.add(11, EventKind::MessageAssigned, "w1", "m2", 6, 1, "txA");
    tl.add(12, EventKind::Acked, "w1", "m2", 6, 1, "txA");  // written, never read
    tl.add(30, EventKind::BrokerDelivered, "w2", "m1", 5, 1, "txB");
    tl.add(30, EventKind::BrokerDelivered, "w2", "m2", 6, 1, "txB");
    tl.add(31, EventKind::MessageAssigned, "w2", "m1", 5, 1, "txB");
    tl.add(31, EventKind::MessageAssigned, "w2", "m2", 6, 1, "txB");
    tl.add(40, EventKind::Acked, "w2", "m1", 5, 1, "txB");
    tl.add(40, EventKind::Acked, "w2", "m2", 6, 1, "txB");
    tl.add(41, EventKind::BrokerAcked, "w2", "m1", 5, 1, "txB");
    tl.add(41, EventKind::BrokerAcked, "w2", "m2", 6, 1, "txB");
    tl.add(50, EventKind::BrokerReturned, "w1", "", 5, 0, "txA");
    tl.add(50, EventKind::BrokerReturned, "w1", "", 6, 0, "txA");
    tl.worker(60, EventKind::WorkerCrashed, "w1").value = 1;
    Ledger ledger;
    ledger.apply(tl.events);

    const LedgerSummary s = ledger.summary();
    QCOMPARE(s.unmatchedBrokerEvents, 0u);
    QCOMPARE(s.eventsWithoutMessageId, 0u);
    QCOMPARE(s.deliveries, 4u);
    QCOMPARE(s.redelivered, 2u);
    QCOMPARE(s.count(MessageState::Acked), 2u);  // a late return reopens nothing
    QCOMPARE(s.acksLost, 1u);
    const MessageRecord* m1 = ledger.message("m1");
    QCOMPARE(m1->state, MessageState::Acked);
    QCOMPARE(delivery(m1, 0).outcome, DeliveryOutcome::Returned);
    QVERIFY(delivery(m1, 0).brokerSettled);
    QCOMPARE(delivery(m1, 0).settledNs, 30);  // ended no later than the next hand-out
    QCOMPARE(delivery(m1, 1).outcome, DeliveryOutcome::Acked);
    const MessageRecord* m2 = ledger.message("m2");
    QCOMPARE(m2->state, MessageState::Acked);
    QCOMPARE(delivery(m2, 0).outcome, DeliveryOutcome::Acked);
    QVERIFY(delivery(m2, 0).ackLost);
    const auto w1 = ledger.worker("w1");
    QCOMPARE(w1->returned, 1u);  // once, though superseded and then returned
    QCOMPARE(w1->acksLost, 1u);
    QCOMPARE(w1->crashes, 1u);
}

void TestLedger::lostAckIsRecognised() {
    // spec §6 item 7: the worker acked, the stream was cancelled before the
    // ack was written, the same copy came back and was processed again.
    Timeline tl;
    tl.sent(0, "m5");
    tl.add(10, EventKind::MessageAssigned, "w1", "m5", 5, 1, "txA");
    tl.add(15, EventKind::WorkFinished, "w1", "m5", 5, 1, "txA").value = 5;
    tl.add(16, EventKind::Acked, "w1", "m5", 5, 1, "txA");
    tl.worker(17, EventKind::WorkerStopped, "w1");
    tl.add(10000, EventKind::MessageAssigned, "w3", "m5", 5, 1, "txC");
    tl.add(10005, EventKind::WorkFinished, "w3", "m5", 5, 1, "txC").value = 5;
    tl.add(10006, EventKind::Acked, "w3", "m5", 5, 1, "txC");
    Ledger ledger;
    ledger.apply(std::span<const Event>(tl.events).first(5));
    QCOMPARE(ledger.summary().exactlyOnce, 1u);  // looks done, for now
    ledger.apply(std::span<const Event>(tl.events).subspan(5));

    const LedgerSummary s = ledger.summary();
    QCOMPARE(s.exactlyOnce, 0u);
    QCOMPARE(s.acksLost, 1u);
    QCOMPARE(s.redelivered, 1u);
    QCOMPARE(s.processedMoreThanOnce, 1u);
    QCOMPARE(s.count(MessageState::Acked), 1u);
    const MessageRecord* m = ledger.message("m5");
    QVERIFY(delivery(m, 0).ackLost);
    QVERIFY(!delivery(m, 1).ackLost);
    QCOMPARE(m->processedCount, 2u);
    QCOMPARE(ledger.worker("w1")->acksLost, 1u);
    QCOMPARE(ledger.worker("w1")->acked, 1u);
}

void TestLedger::lostAckSeenByBroker() {
    Timeline tl;
    tl.add(10, EventKind::BrokerDelivered, "w1", "m5", 5, 1, "txA");
    tl.add(11, EventKind::MessageAssigned, "w1", "m5", 5, 1, "txA");
    tl.add(16, EventKind::Acked, "w1", "m5", 5, 1, "txA");
    tl.add(20, EventKind::BrokerReturned, "w1", "", 5, 0, "txA");
    Ledger ledger;
    ledger.apply(tl.events);
    const MessageRecord* m = ledger.message("m5");
    QCOMPARE(m->state, MessageState::Waiting);
    QVERIFY(delivery(m, 0).ackLost);
    QCOMPARE(ledger.summary().acksLost, 1u);
    QCOMPARE(ledger.summary().exactlyOnce, 0u);
    QCOMPARE(ledger.summary().count(MessageState::Acked), 0u);
    QCOMPARE(ledger.summary().count(MessageState::Waiting), 1u);
}

void TestLedger::rejectionGoesToTailWithReceiveCountTwo() {
    Timeline tl;
    tl.sent(0, "m1");
    tl.add(1, EventKind::BrokerStored, "producer", "m1", 1, 0);
    tl.add(10, EventKind::BrokerDelivered, "w1", "m1", 1, 1, "txA");
    tl.add(11, EventKind::MessageAssigned, "w1", "m1", 1, 1, "txA");
    tl.add(20, EventKind::Rejected, "w1", "m1", 1, 1, "txA");
    tl.add(21, EventKind::BrokerNacked, "w1", "m1", 1, 1, "txA").count2 = 4;
    tl.add(30, EventKind::BrokerDelivered, "w2", "m1", 4, 2, "txB");
    tl.add(31, EventKind::MessageAssigned, "w2", "m1", 4, 2, "txB");
    tl.add(40, EventKind::Acked, "w2", "m1", 4, 2, "txB");
    tl.add(41, EventKind::BrokerAcked, "w2", "m1", 4, 2, "txB");
    Ledger ledger;
    ledger.apply(std::span<const Event>(tl.events).first(6));
    QCOMPARE(ledger.message("m1")->state, MessageState::Waiting);
    QCOMPARE(ledger.message("m1")->sequence, 4u);  // the copy at the tail
    ledger.apply(std::span<const Event>(tl.events).subspan(6));

    const MessageRecord* m = ledger.message("m1");
    QCOMPARE(m->state, MessageState::Acked);
    QCOMPARE(m->deliveries.size(), std::size_t(2));
    QCOMPARE(delivery(m, 0).outcome, DeliveryOutcome::Rejected);
    QCOMPARE(delivery(m, 0).receiveCount, 1);
    QCOMPARE(delivery(m, 1).sequence, 4u);
    QCOMPARE(delivery(m, 1).receiveCount, 2);
    QVERIFY(delivery(m, 1).redelivery);
    QCOMPARE(ledger.worker("w1")->rejected, 1u);
    QCOMPARE(ledger.worker("w2")->acked, 1u);
    QCOMPARE(ledger.summary().redelivered, 1u);
    QCOMPARE(ledger.summary().unmatchedBrokerEvents, 0u);
}

void TestLedger::rejectionReportedAfterTheNextHandOut() {
    // The broker makes a NAck's new copy available before it reports the NAck,
    // and the worker's own report comes later still: the next hand-out of the
    // copy can reach the stream first (tst_runner_scenarios saw it once). The
    // outcome is the same as with the reports in order.
    Timeline tl;
    tl.sent(0, "m1");
    tl.add(1, EventKind::BrokerStored, "producer", "m1", 1, 0);
    tl.add(10, EventKind::BrokerDelivered, "w1", "m1", 1, 1, "txA");
    tl.add(11, EventKind::MessageAssigned, "w1", "m1", 1, 1, "txA");
    tl.add(30, EventKind::BrokerDelivered, "w2", "m1", 4, 2, "txB");
    tl.add(31, EventKind::MessageAssigned, "w2", "m1", 4, 2, "txB");
    tl.add(32, EventKind::BrokerNacked, "w1", "m1", 1, 1, "txA").count2 = 4;
    tl.add(33, EventKind::Rejected, "w1", "m1", 1, 1, "txA");
    tl.add(40, EventKind::Acked, "w2", "m1", 4, 2, "txB");
    tl.add(41, EventKind::BrokerAcked, "w2", "m1", 4, 2, "txB");
    Ledger ledger;
    ledger.apply(std::span<const Event>(tl.events).first(7));
    QCOMPARE(ledger.message("m1")->state, MessageState::InFlight);  // w2 holds the copy
    ledger.apply(std::span<const Event>(tl.events).subspan(7));

    const MessageRecord* m = ledger.message("m1");
    QCOMPARE(m->state, MessageState::Acked);
    QCOMPARE(m->deliveries.size(), std::size_t(2));
    QCOMPARE(delivery(m, 0).outcome, DeliveryOutcome::Rejected);
    QCOMPARE(delivery(m, 1).outcome, DeliveryOutcome::Acked);
    QCOMPARE(ledger.worker("w1")->rejected, 1u);
    QCOMPARE(ledger.worker("w1")->returned, 0u);  // superseded first, then known
    QCOMPARE(ledger.worker("w2")->acked, 1u);
    QCOMPARE(ledger.summary().unmatchedBrokerEvents, 0u);
}

void TestLedger::deadLetterAfterMaxReceiveCount() {
    // MaxReceiveCount 2, dead-letter queue "dlq": the second NAck dead-letters.
    Timeline tl;
    tl.add(10, EventKind::BrokerDelivered, "w1", "m1", 1, 1, "txA");
    tl.add(11, EventKind::Rejected, "w1", "m1", 1, 1, "txA");
    tl.add(12, EventKind::BrokerNacked, "w1", "m1", 1, 1, "txA").count2 = 2;
    tl.add(20, EventKind::BrokerDelivered, "w2", "m1", 2, 2, "txB");
    tl.add(21, EventKind::Rejected, "w2", "m1", 2, 2, "txB");
    tl.add(22, EventKind::BrokerDeadLettered, "w2", "m1", 2, 2, "txB").detail = "dlq";
    Event& stored = tl.add(23, EventKind::BrokerStored, "w2", "m1", 1, 0);
    stored.channel = "dlq";
    Ledger ledger;
    ledger.apply(tl.events);
    const MessageRecord* m = ledger.message("m1");
    QCOMPARE(m->state, MessageState::DeadLettered);
    QVERIFY(!m->deadLetterInferred);
    QCOMPARE(m->channel, std::string("dlq"));
    QCOMPARE(m->endDetail, std::string("dlq"));
    QCOMPARE(m->endedNs, 22);
    QCOMPARE(delivery(m, 1).outcome, DeliveryOutcome::Rejected);
    QVERIFY(delivery(m, 1).brokerSettled);
    const LedgerSummary s = ledger.summary();
    QCOMPARE(s.count(MessageState::DeadLettered), 1u);
    QCOMPARE(s.count(MessageState::Waiting), 0u);
    QCOMPARE(s.unmatchedBrokerEvents, 0u);
    QCOMPARE(ledger.worker("w1")->rejected, 1u);
    QCOMPARE(ledger.worker("w2")->rejected, 1u);

    // Consuming the dead-letter queue is one more hand-out of the same message.
    Timeline more;
    Event& fromDlq = more.add(30, EventKind::MessageAssigned, "w3", "m1", 1, 1, "txC");
    fromDlq.channel = "dlq";
    ledger.apply(more.events);
    QCOMPARE(ledger.message("m1")->state, MessageState::InFlight);
    QCOMPARE(ledger.message("m1")->deliveryCount, 3u);
}

void TestLedger::deadLetterInferredWithoutBroker() {
    Timeline tl;
    tl.add(10, EventKind::MessageAssigned, "w1", "m1", 1, 1, "txA");
    tl.add(11, EventKind::Rejected, "w1", "m1", 1, 1, "txA");
    tl.add(20, EventKind::MessageAssigned, "w2", "m1", 2, 2, "txB");
    tl.add(21, EventKind::Rejected, "w2", "m1", 2, 2, "txB");
    LedgerOptions options;
    options.maxReceiveCount = 2;
    Ledger ledger(options);
    ledger.apply(std::span<const Event>(tl.events).first(2));
    QCOMPARE(ledger.message("m1")->state, MessageState::Waiting);
    ledger.apply(std::span<const Event>(tl.events).subspan(2));
    QCOMPARE(ledger.message("m1")->state, MessageState::DeadLettered);
    QVERIFY(ledger.message("m1")->deadLetterInferred);

    // Without the policy nothing is guessed.
    Ledger unknown;
    unknown.apply(tl.events);
    QCOMPARE(unknown.message("m1")->state, MessageState::Waiting);

    // A wrong guess is corrected by the broker re-enqueuing it.
    Timeline nack;
    nack.add(22, EventKind::BrokerNacked, "w2", "m1", 2, 2, "txB").count2 = 3;
    ledger.apply(nack.events);
    QCOMPARE(ledger.message("m1")->state, MessageState::Waiting);
    QVERIFY(!ledger.message("m1")->deadLetterInferred);
    QCOMPARE(ledger.summary().count(MessageState::DeadLettered), 0u);
}

// A redrive's MessageRedriven puts a dead-lettered message back to waiting in
// the target, where it can be handed out and dead-lettered again; the IDs a
// redrive of the run's dead letters moves follow its state.
void TestLedger::redriveBringsADeadLetterBack() {
    Timeline tl;
    tl.sent(0, "m1");
    tl.add(5, EventKind::MessageAssigned, "w1", "m1", 1, 1, "txA");
    tl.add(6, EventKind::BrokerDeadLettered, "w1", "m1", 1, 1, "txA").detail = "q.dlq";
    Ledger ledger;
    ledger.apply(tl.events);
    QCOMPARE(ledger.message("m1")->state, MessageState::DeadLettered);
    QCOMPARE(ledger.deadLetteredIds("q.dlq"), (std::vector<std::string>{"m1"}));
    QVERIFY(ledger.deadLetteredIds("other.dlq").empty());

    Timeline back;
    Event& moved = back.add(10, EventKind::MessageRedriven, "redrive", "m1");
    moved.source = EventSource::Client;
    moved.detail = "q.dlq";
    back.add(12, EventKind::MessageAssigned, "w2", "m1", 7, 1, "txB");
    ledger.apply(back.events);
    const MessageRecord* m = ledger.message("m1");
    QCOMPARE(m->state, MessageState::InFlight);
    QCOMPARE(m->channel, std::string("q"));
    QVERIFY(m->endDetail.empty());
    QCOMPARE(m->deliveryCount, 2u);
    QCOMPARE(ledger.summary().redriven, 1u);
    QCOMPARE(ledger.summary().count(MessageState::DeadLettered), 0u);
    QVERIFY(ledger.deadLetteredIds("q.dlq").empty());

    Timeline again;
    again.add(13, EventKind::BrokerDeadLettered, "w2", "m1", 7, 1, "txB").detail = "q.dlq";
    ledger.apply(again.events);
    QCOMPARE(ledger.message("m1")->state, MessageState::DeadLettered);
    QCOMPARE(ledger.summary().count(MessageState::DeadLettered), 1u);
}

void TestLedger::droppedAndExpired() {
    Timeline tl;
    tl.sent(0, "m1");
    tl.add(5, EventKind::BrokerDeadLettered, "w1", "m1", 1, 3);  // no dead-letter queue
    tl.sent(1, "m2");
    tl.add(6, EventKind::BrokerExpired, "w1", "m2", 2, 1);
    Ledger ledger;
    ledger.apply(tl.events);
    QCOMPARE(ledger.message("m1")->state, MessageState::Dropped);
    QCOMPARE(ledger.message("m2")->state, MessageState::Expired);
    QCOMPARE(ledger.summary().count(MessageState::Dropped), 1u);
    QCOMPARE(ledger.summary().count(MessageState::Expired), 1u);
    QCOMPARE(ledger.summary().count(MessageState::Waiting), 0u);
}

void TestLedger::requeueMovesToAnotherChannel() {
    Timeline tl;
    tl.add(10, EventKind::MessageAssigned, "w1", "m1", 3, 1, "txA");
    tl.add(11, EventKind::Requeued, "w1", "m1", 3, 1, "txA").detail = "other";
    Event& again = tl.add(20, EventKind::MessageAssigned, "w2", "m1", 1, 1, "txB");
    again.channel = "other";
    tl.add(21, EventKind::Acked, "w2", "m1", 1, 1, "txB").channel = "other";
    Ledger ledger;
    ledger.apply(std::span<const Event>(tl.events).first(2));
    QCOMPARE(ledger.message("m1")->state, MessageState::Waiting);
    QCOMPARE(ledger.message("m1")->channel, std::string("other"));
    ledger.apply(std::span<const Event>(tl.events).subspan(2));
    const MessageRecord* m = ledger.message("m1");
    QCOMPARE(m->state, MessageState::Acked);
    QCOMPARE(delivery(m, 0).outcome, DeliveryOutcome::Requeued);
    QCOMPARE(delivery(m, 1).channel, std::string("other"));
    QVERIFY(delivery(m, 1).redelivery);
    QCOMPARE(ledger.worker("w1")->requeued, 1u);
}

void TestLedger::autoAckReportedByBothSides() {
    // AutoAck: the broker acks at hand-out, the worker reports afterwards.
    Timeline tl;
    tl.sent(0, "m1");
    tl.add(10, EventKind::BrokerDelivered, "w1", "m1", 1, 1, "txA");
    tl.add(10, EventKind::BrokerAcked, "w1", "m1", 1, 1, "txA");
    tl.add(12, EventKind::MessageAssigned, "w1", "m1", 1, 1, "txA");
    tl.add(13, EventKind::WorkStarted, "w1", "m1", 1, 1, "txA");
    tl.add(20, EventKind::WorkFinished, "w1", "m1", 1, 1, "txA").value = 7;
    tl.add(21, EventKind::Acked, "w1", "m1", 1, 1, "txA").detail = "auto-ack";
    Ledger ledger;
    ledger.apply(tl.events);
    const LedgerSummary s = ledger.summary();
    QCOMPARE(s.deliveries, 1u);
    QCOMPARE(s.exactlyOnce, 1u);
    const auto w = ledger.worker("w1");
    QCOMPARE(w->acked, 1u);
    QCOMPARE(w->received, 1u);
    QCOMPARE(w->processed, 1u);
    QCOMPARE(w->busyNs, 7);
    const MessageRecord* m = ledger.message("m1");
    QCOMPARE(delivery(m, 0).workStartNs, 13);
    QVERIFY(delivery(m, 0).clientSettled && delivery(m, 0).brokerSettled);
}

void TestLedger::perWorkerStatsAndLatencies() {
    // w1: 20 messages, assignment -> ack = i us, send -> ack = i us + 1 ms.
    // w2: 10 messages, 5 acked (assignment -> ack 100..500 ns), 3 rejected
    //     (1000 ns), 2 requeued (2000 ns).
    Timeline tl;
    for (int i = 1; i <= 20; ++i) {
        const std::string id = "a" + std::to_string(i);
        const std::int64_t t0 = 5'000'000 + i * 1'000'000;
        tl.sent(t0 - 1'000'000, id);
        tl.add(t0, EventKind::MessageAssigned, "w1", id, i, 1, "tx");
        tl.add(t0 + 1, EventKind::WorkStarted, "w1", id, i, 1, "tx");
        tl.add(t0 + 2, EventKind::WorkFinished, "w1", id, i, 1, "tx").value = 10 * i;
        tl.add(t0 + i * 1000, EventKind::Acked, "w1", id, i, 1, "tx");
    }
    for (int i = 1; i <= 10; ++i) {
        const std::string id = "b" + std::to_string(i);
        const std::int64_t t0 = 100'000'000 + i * 1'000'000;
        tl.add(t0, EventKind::MessageAssigned, "w2", id, 100 + i, 1, "tx2");
        if (i <= 5) {
            tl.add(t0 + i * 100, EventKind::Acked, "w2", id, 100 + i, 1, "tx2");
        } else if (i <= 8) {
            tl.add(t0 + 1000, EventKind::Rejected, "w2", id, 100 + i, 1, "tx2");
        } else {
            tl.add(t0 + 2000, EventKind::Requeued, "w2", id, 100 + i, 1, "tx2").detail = "x";
        }
    }
    tl.worker(1, EventKind::PollReturned, "w2").count2 = 250;  // 0 messages after 250 ms
    Event& poll = tl.worker(2, EventKind::PollReturned, "w2");
    poll.value = 10;
    poll.count2 = 5;
    tl.worker(3, EventKind::Error, "w2").detail = "boom";
    Ledger ledger;
    ledger.apply(tl.events);

    const auto workers = ledger.workers();
    QCOMPARE(workers.size(), std::size_t(2));
    QCOMPARE(workers[0].worker, std::string("w1"));
    const WorkerStats& w1 = workers[0];
    QCOMPARE(w1.received, 20u);
    QCOMPARE(w1.acked, 20u);
    QCOMPARE(w1.processed, 20u);
    QCOMPARE(w1.busyNs, 10 * 210);
    QCOMPARE(w1.settleLatency.count, 20u);
    QCOMPARE(w1.settleLatency.p50Ns, 10'000);
    QCOMPARE(w1.settleLatency.p95Ns, 19'000);
    QCOMPARE(w1.settleLatency.meanNs, 10'500.0);
    QCOMPARE(w1.settleLatency.maxNs, 20'000);
    QCOMPARE(w1.sendToAck.count, 20u);
    QCOMPARE(w1.sendToAck.p50Ns, 1'010'000);
    QCOMPARE(w1.sendToAck.p95Ns, 1'019'000);

    const WorkerStats& w2 = workers[1];
    QCOMPARE(w2.received, 10u);
    QCOMPARE(w2.acked, 5u);
    QCOMPARE(w2.rejected, 3u);
    QCOMPARE(w2.requeued, 2u);
    QCOMPARE(w2.settleLatency.count, 10u);
    // sorted: 100 200 300 400 500 1000 1000 1000 2000 2000
    QCOMPARE(w2.settleLatency.p50Ns, 500);
    QCOMPARE(w2.settleLatency.p95Ns, 2000);
    QCOMPARE(w2.settleLatency.meanNs, 850.0);
    QCOMPARE(w2.sendToAck.count, 0u);  // never saw them sent
    QCOMPARE(w2.polls, 2u);
    QCOMPARE(w2.emptyPolls, 1u);
    QCOMPARE(w2.pollWaitNs, 255'000'000);
    QCOMPARE(w2.errors, 1u);

    QCOMPARE(ledger.settleLatency().count, 30u);
    QCOMPARE(ledger.sendToAckLatency().count, 20u);
    const LedgerSummary s = ledger.summary();
    QCOMPARE(s.count(MessageState::Acked), 25u);
    QCOMPARE(s.count(MessageState::Waiting), 5u);

    // workerCounts(): the same workers, order and counts, no percentiles.
    const auto counts = ledger.workerCounts();
    QCOMPARE(counts.size(), workers.size());
    for (std::size_t i = 0; i < counts.size(); ++i) {
        QCOMPARE(counts[i].worker, workers[i].worker);
        QCOMPARE(counts[i].received, workers[i].received);
        QCOMPARE(counts[i].acked, workers[i].acked);
        QCOMPARE(counts[i].rejected, workers[i].rejected);
        QCOMPARE(counts[i].polls, workers[i].polls);
        QCOMPARE(counts[i].settleLatency.count, 0u);
    }
}

void TestLedger::aWorkersLatenciesHaveTheirOwnCap() {
    // One worker acks 40 messages (assignment -> ack = i us); its reservoir
    // holds 8 samples, the all-workers one 64.
    Timeline tl;
    for (int i = 1; i <= 40; ++i) {
        const std::string id = "c" + std::to_string(i);
        const std::int64_t t0 = 1'000'000 + i * 1'000'000;
        tl.add(t0, EventKind::MessageAssigned, "w1", id, i, 1, "tx");
        tl.add(t0 + i * 1000, EventKind::Acked, "w1", id, i, 1, "tx");
    }
    LedgerOptions options;
    options.latencySampleCap = 64;
    options.workerLatencySampleCap = 8;
    Ledger ledger(options);
    ledger.apply(tl.events);

    const LatencyStats all = ledger.settleLatency();
    QVERIFY(!all.estimated);
    QCOMPARE(all.p50Ns, 20'000);
    QCOMPARE(all.p95Ns, 38'000);
    const LatencyStats own = ledger.worker("w1")->settleLatency;
    QVERIFY(own.estimated);
    QCOMPARE(own.count, 40u);  // count, mean, min and max stay exact
    QCOMPARE(own.meanNs, 20'500.0);
    QCOMPARE(own.minNs, 1'000);
    QCOMPARE(own.maxNs, 40'000);
    QVERIFY(own.p50Ns >= 1'000 && own.p50Ns <= 40'000);
}

void TestLedger::memoryStaysBounded() {
    LedgerOptions options;
    options.maxFinishedMessages = 5;
    options.maxDeliveriesPerMessage = 3;
    Ledger ledger(options);
    Timeline tl;
    for (int i = 1; i <= 20; ++i) {
        const std::string id = "m" + std::to_string(i);
        tl.add(i * 10, EventKind::MessageAssigned, "w1", id, i, 1, "tx");
        tl.add(i * 10 + 1, EventKind::Acked, "w1", id, i, 1, "tx");
    }
    // One message handed out six times, never finished: never forgotten.
    for (int n = 1; n <= 6; ++n)
        tl.add(1000 + n, EventKind::MessageAssigned, "w" + std::to_string(n), "hot", 99, 1,
               "tx" + std::to_string(n));
    ledger.apply(tl.events);
    const LedgerSummary s = ledger.summary();
    QCOMPARE(s.evicted, 15u);
    QCOMPARE(ledger.trackedMessages(), std::size_t(6));
    QCOMPARE(s.messages, 21u);
    QCOMPARE(s.exactlyOnce, 20u);  // counts survive eviction
    QCOMPARE(s.count(MessageState::Acked), 20u);
    QVERIFY(ledger.message("m1") == nullptr);
    QVERIFY(ledger.message("m20") != nullptr);
    const MessageRecord* hot = ledger.message("hot");
    QCOMPARE(hot->deliveryCount, 6u);
    QCOMPARE(hot->deliveries.size(), std::size_t(3));
    QCOMPARE(hot->omittedDeliveries, 3u);
    QCOMPARE(hot->deliveries.front().worker, std::string("w4"));
    QCOMPARE(hot->deliveries.back().worker, std::string("w6"));
    int visited = 0;
    ledger.forEachMessage([&](const MessageRecord&) { ++visited; });
    QCOMPARE(visited, 6);
}

// The ledger keeps each record once and indexes it by pointer (by id, by its
// latest (channel, sequence), in the order it finished): a copy must find
// and forget its own records, after the original is gone.
void TestLedger::aCopyFindsAndForgetsItsOwnRecords() {
    LedgerOptions options;
    options.maxFinishedMessages = 2;
    Timeline before;
    for (int i = 1; i <= 3; ++i) {
        const std::string id = "m" + std::to_string(i);
        before.add(i * 10, EventKind::BrokerDelivered, "w1", id, i, 1, "tx" + id);
    }
    before.add(40, EventKind::BrokerAcked, "w1", "m1", 1, 1, "txm1");
    auto original = std::make_unique<Ledger>(options);
    original->apply(before.events);
    Ledger copy = *original;
    Ledger assigned(options);
    assigned = *original;
    original.reset();

    Timeline after;
    // The broker names only the stored copy: found through the copy's index.
    after.add(50, EventKind::BrokerReturned, "w1", "", 2, 0, "txm2");
    after.add(60, EventKind::BrokerAcked, "w1", "m3", 3, 1, "txm3");
    after.add(70, EventKind::BrokerDelivered, "w2", "m4", 4, 1, "txm4");
    after.add(71, EventKind::BrokerAcked, "w2", "m4", 4, 1, "txm4");  // the cap: m1 goes
    for (Ledger* ledger : {&copy, &assigned}) {
        ledger->apply(after.events);
        const LedgerSummary s = ledger->summary();
        QCOMPARE(s.eventsWithoutMessageId, 0u);
        QCOMPARE(s.unmatchedBrokerEvents, 0u);
        QCOMPARE(s.evicted, 1u);
        QVERIFY(ledger->message("m1") == nullptr);
        QCOMPARE(ledger->message("m2")->state, MessageState::Waiting);
        QCOMPARE(delivery(ledger->message("m2"), 0).outcome, DeliveryOutcome::Returned);
        QCOMPARE(ledger->message("m3")->state, MessageState::Acked);
        QCOMPARE(ledger->message("m4")->state, MessageState::Acked);
        QCOMPARE(ledger->trackedMessages(), std::size_t(3));
        // A forgotten message's stored copy names nothing any more.
        Timeline late;
        late.add(80, EventKind::BrokerReturned, "w1", "", 1, 0, "txm1");
        ledger->apply(late.events);
        QCOMPARE(ledger->summary().eventsWithoutMessageId, 1u);
    }
}

// A message reopened by an ack that did not take effect finishes twice; it
// counts once against the cap, so the cap keeps as many finished messages as
// it says (it once forgot one message too early per reopening).
void TestLedger::aReopenedMessageCountsOnceAgainstTheCap() {
    LedgerOptions options;
    options.maxFinishedMessages = 3;
    Ledger ledger(options);
    Timeline tl;
    for (int i = 1; i <= 3; ++i) {
        const std::string id = "m" + std::to_string(i);
        tl.add(i * 10, EventKind::MessageAssigned, "w1", id, i, 1, "tx" + id);
        tl.add(i * 10 + 1, EventKind::Acked, "w1", id, i, 1, "tx" + id);
    }
    // m3's ack never took effect: the same stored copy is handed out again.
    tl.add(100, EventKind::MessageAssigned, "w2", "m3", 3, 1, "tx-again");
    tl.add(101, EventKind::Acked, "w2", "m3", 3, 1, "tx-again");
    ledger.apply(tl.events);
    QCOMPARE(ledger.summary().acksLost, 1u);
    QCOMPARE(ledger.summary().evicted, 0u);
    for (const char* id : {"m1", "m2", "m3"}) {
        QVERIFY2(ledger.message(id) != nullptr, id);
    }
    Timeline more;  // a fourth finished message: now the oldest finished one goes
    more.add(200, EventKind::MessageAssigned, "w1", "m4", 4, 1, "tx4");
    more.add(201, EventKind::Acked, "w1", "m4", 4, 1, "tx4");
    ledger.apply(more.events);
    QCOMPARE(ledger.summary().evicted, 1u);
    QVERIFY(ledger.message("m1") == nullptr);
    for (const char* id : {"m2", "m3", "m4"}) {
        QVERIFY2(ledger.message(id) != nullptr, id);
    }
}

// Records found by the caller's key for their MessageID (Ledger::apply(e,
// key), what a Run does) decide exactly what records found by the id's text
// decide: through evictions (a forgotten id seen again gets a new record,
// found by the same key), crashes, broker events naming only the sequence,
// keys given to some events and not others, and a copy of a keyed ledger.
void TestLedger::keyedLookupsEqualLookupsByText() {
    LedgerOptions options;
    options.maxFinishedMessages = 7;
    options.maxDeliveriesPerMessage = 4;
    std::mt19937 random(3);
    Timeline tl;
    std::int64_t t = 0;
    for (int round = 0; round < 400; ++round) {
        const std::string id = "m" + std::to_string(random() % 60);  // ids recur after eviction
        const std::string w = "w" + std::to_string(random() % 3);
        const std::uint64_t seq = 1 + static_cast<std::uint64_t>(round);
        const std::string tx = "tx" + std::to_string(round);
        tl.sent(++t, id);
        tl.add(++t, EventKind::BrokerStored, "producer", id, seq, 0);
        tl.add(++t, EventKind::BrokerDelivered, w, id, seq, 1, tx);
        tl.add(++t, EventKind::MessageAssigned, w, id, seq, 1, tx);
        switch (random() % 5) {
            case 0:
                tl.worker(++t, EventKind::WorkerCrashed, w);
                break;
            case 1:
                tl.add(++t, EventKind::BrokerReturned, w, {}, seq, 1);  // no id: by sequence
                break;
            case 2:
                tl.add(++t, EventKind::Rejected, w, id, seq, 1, tx);
                break;
            default:
                tl.add(++t, EventKind::Acked, w, id, seq, 1, tx);
                tl.add(++t, EventKind::BrokerAcked, w, id, seq, 1, tx);
                break;
        }
    }
    std::map<std::string, std::uint32_t, std::less<>> keyOf;
    Ledger byText(options);
    Ledger byKey(options);
    std::unique_ptr<Ledger> copy;
    for (std::size_t i = 0; i < tl.events.size(); ++i) {
        const Event& e = tl.events[i];
        std::uint32_t key = 0;
        if (!e.messageId.empty() && i % 11 != 0)  // every 11th event without its key
            key = keyOf.try_emplace(e.messageId.str(), keyOf.size() + 1).first->second;
        byText.apply(e);
        byKey.apply(e, key);
        if (i == tl.events.size() / 2)
            copy = std::make_unique<Ledger>(byKey);
        else if (copy)
            copy->apply(e, key);
    }
    const LedgerSummary a = byText.summary();
    QVERIFY2(a.evicted > 50, std::to_string(a.evicted).c_str());  // many evictions
    for (const Ledger* other : {&byKey, copy.get()}) {
        const LedgerSummary b = other->summary();
        QVERIFY(std::memcmp(&a, &b, sizeof a) == 0);
        QCOMPARE(other->trackedMessages(), byText.trackedMessages());
        byText.forEachMessage([&](const MessageRecord& m) {
            const MessageRecord* k = other->message(m.messageId);
            QVERIFY(k != nullptr);
            QCOMPARE(k->ordinal, m.ordinal);
            QCOMPARE(k->state, m.state);
            QCOMPARE(k->deliveryCount, m.deliveryCount);
            QCOMPARE(k->deliveries.size(), m.deliveries.size());
        });
        const std::vector<WorkerStats> wa = byText.workers();
        const std::vector<WorkerStats> wb = other->workers();
        QCOMPARE(wb.size(), wa.size());
        for (std::size_t w = 0; w < wa.size(); ++w) {
            QCOMPARE(wb[w].worker, wa[w].worker);
            QCOMPARE(wb[w].received, wa[w].received);
            QCOMPARE(wb[w].acked, wa[w].acked);
            QCOMPARE(wb[w].returned, wa[w].returned);
            QCOMPARE(wb[w].crashes, wa[w].crashes);
        }
    }
}

void TestLedger::unkeyedEventsAndDropNotices() {
    Timeline tl;
    tl.add(1, EventKind::Acked, "w1", "");                  // no id: cannot be keyed
    tl.add(2, EventKind::BrokerReturned, "w1", "", 77, 0);  // unknown stored copy
    Event& notice = tl.add(3, EventKind::EventsDropped, "event-stream", "");
    notice.value = 12;
    notice.count2 = 12;
    tl.add(4, EventKind::BrokerAcked, "w1", "m9", 9, 1);  // acked, never handed out: a purge
    Ledger ledger;
    ledger.apply(tl.events);
    const LedgerSummary s = ledger.summary();
    QCOMPARE(s.eventsWithoutMessageId, 2u);
    QCOMPARE(s.droppedEvents, 12u);
    QCOMPARE(s.eventsApplied, 4u);
    QCOMPARE(ledger.trackedMessages(), std::size_t(1));
}

void TestLedger::sendFailedAndPurge() {
    Timeline tl;
    tl.sent(1, "bad");
    tl.add(2, EventKind::SendFailed, "producer", "bad").detail = "Error 120: invalid channel";
    tl.sent(3, "purged");
    tl.add(4, EventKind::BrokerStored, "producer", "purged", 1, 0);
    tl.add(5, EventKind::BrokerAcked, "someone", "purged", 1, 1);  // AckAll on the queue
    Ledger ledger;
    ledger.apply(tl.events);
    QCOMPARE(ledger.message("bad")->state, MessageState::SendFailed);
    QCOMPARE(ledger.message("bad")->endDetail, std::string("Error 120: invalid channel"));
    QCOMPARE(ledger.message("purged")->state, MessageState::Acked);
    QCOMPARE(ledger.message("purged")->deliveryCount, 0u);
    const LedgerSummary s = ledger.summary();
    QCOMPARE(s.sendFailed, 1u);
    QCOMPARE(s.count(MessageState::SendFailed), 1u);
    QCOMPARE(s.exactlyOnce, 0u);  // never handed out
    QCOMPARE(s.unmatchedBrokerEvents, 0u);
}

void TestLedger::peekIsNotADeliveryAndPurgeNotAnAck() {
    Timeline tl;
    tl.sent(1, "m1");
    tl.add(2, EventKind::BrokerStored, "producer", "m1", 1, 0);
    tl.add(3, EventKind::BrokerPeeked, "console", "m1", 1, 1, "peek-1");
    tl.add(4, EventKind::BrokerPeeked, "console", "m1", 1, 1, "peek-2");
    Ledger ledger;
    ledger.apply(tl.events);
    const MessageRecord* rec = ledger.message("m1");
    QCOMPARE(rec->state, MessageState::Waiting);
    QCOMPARE(rec->deliveryCount, 0u);
    QVERIFY(rec->deliveries.empty());
    QCOMPARE(rec->peekCount, 2u);
    QCOMPARE(rec->lastPeekedNs, std::int64_t(4));
    QCOMPARE(ledger.summary().deliveries, 0u);
    QCOMPARE(ledger.summary().peeks, 2u);

    tl.events.clear();
    tl.add(5, EventKind::BrokerPurged, "console", "m1", 1, 1, "purge-1");
    ledger.apply(tl.events);
    QCOMPARE(rec->state, MessageState::Purged);
    QCOMPARE(rec->endedNs, std::int64_t(5));
    QCOMPARE(rec->endDetail, std::string("purged by console"));
    QCOMPARE(rec->deliveryCount, 0u);
    const LedgerSummary s = ledger.summary();
    QCOMPARE(s.count(MessageState::Purged), 1u);
    QCOMPARE(s.count(MessageState::Acked), 0u);
    QCOMPARE(s.count(MessageState::Waiting), 0u);
    QCOMPARE(s.exactlyOnce, 0u);
    QCOMPARE(s.unmatchedBrokerEvents, 0u);
    QVERIFY(isTerminal(MessageState::Purged));
    QCOMPARE(std::string(messageStateName(MessageState::Purged)), std::string("purged"));
}

// The broker makes a stream-end return available before it reports it, so a
// purge can take the message while the ledger still has it in flight.
void TestLedger::purgeOfAMessageWhoseReturnIsLate() {
    Timeline tl;
    tl.sent(1, "m1");
    tl.add(2, EventKind::BrokerStored, "producer", "m1", 1, 0);
    tl.add(3, EventKind::BrokerDelivered, "w1", "m1", 1, 1, "tx1");
    tl.add(4, EventKind::BrokerPurged, "console", "m1", 1, 1, "purge-1");
    tl.add(5, EventKind::BrokerReturned, "w1", "", 1, 0, "tx1");
    Ledger ledger;
    ledger.apply(tl.events);
    const MessageRecord* rec = ledger.message("m1");
    QCOMPARE(rec->state, MessageState::Purged);
    QCOMPARE(delivery(rec, 0).outcome, DeliveryOutcome::Returned);
    QCOMPARE(ledger.worker("w1")->returned, 1u);
    QCOMPARE(ledger.summary().unmatchedBrokerEvents, 0u);
}

// A real server reports nothing: the client's ChannelPurged (N removed) ends
// the N oldest messages waiting in that channel, and nothing else.
void TestLedger::channelPurgedWithoutBrokerEvents() {
    Timeline tl;
    for (const char* id : {"m1", "m2", "m3", "m4", "m5"})
        tl.sent(1, id);
    tl.sent(1, "elsewhere").channel = "other";
    tl.add(2, EventKind::MessageAssigned, "w1", "m1", 1, 1, "tx1");
    tl.add(3, EventKind::TaskSent, "producer", "later").value = 30;  // delayed 30 s
    Event purge;
    purge.timeNs = 10;
    purge.kind = EventKind::ChannelPurged;
    purge.source = EventSource::Client;
    purge.actor = "console";
    purge.channel = "q";
    purge.transaction = "purge-1";
    purge.value = 3;
    tl.events.push_back(purge);
    Ledger ledger;
    ledger.apply(tl.events);
    QCOMPARE(ledger.message("m1")->state, MessageState::InFlight);  // reserved: not purged
    for (const char* id : {"m2", "m3", "m4"}) {
        QCOMPARE(ledger.message(id)->state, MessageState::Purged);
        QCOMPARE(ledger.message(id)->endedNs, std::int64_t(10));
        QCOMPARE(ledger.message(id)->endDetail, std::string("purged by console"));
    }
    QCOMPARE(ledger.message("m5")->state, MessageState::Waiting);  // beyond N
    QCOMPARE(ledger.message("elsewhere")->state, MessageState::Waiting);
    QCOMPARE(ledger.message("later")->state, MessageState::Delayed);
    QCOMPARE(ledger.summary().count(MessageState::Purged), 3u);
    QCOMPARE(ledger.summary().purgedUnknown, 0u);

    // More removed than the ledger had waiting: the rest is counted, unnamed.
    purge.timeNs = 11;
    purge.transaction = "purge-2";
    purge.value = 4;
    ledger.apply(purge);
    QCOMPARE(ledger.message("m5")->state, MessageState::Purged);
    QCOMPARE(ledger.summary().count(MessageState::Purged), 4u);
    QCOMPARE(ledger.summary().purgedUnknown, 3u);
    QCOMPARE(ledger.summary().count(MessageState::Acked), 0u);
    QCOMPARE(ledger.summary().deliveries, 1u);

    // A peek reported by the client changes nothing.
    Event peek = purge;
    peek.kind = EventKind::ChannelPeeked;
    peek.value = 1;
    const LedgerSummary before = ledger.summary();
    ledger.apply(peek);
    QCOMPARE(ledger.summary().count(MessageState::Waiting), before.count(MessageState::Waiting));
    QCOMPARE(ledger.summary().peeks, 0u);
    QCOMPARE(ledger.summary().eventsApplied, before.eventsApplied + 1);
}

// The embedded broker and the client both report one purge: the client's
// count is what the broker already named, so nothing is purged twice.
void TestLedger::channelPurgedAfterTheBrokersOwnReport() {
    Timeline tl;
    for (const char* id : {"m1", "m2"}) {
        tl.sent(1, id);
        tl.add(2, EventKind::BrokerStored, "producer", id, id[1] == '1' ? 1 : 2, 0);
    }
    tl.add(3, EventKind::BrokerPurged, "console", "m1", 1, 1, "purge-1");
    tl.add(3, EventKind::BrokerPurged, "console", "m2", 2, 1, "purge-1");
    tl.sent(4, "m3");  // sent after the purge ended
    Event purge;
    purge.timeNs = 5;
    purge.kind = EventKind::ChannelPurged;
    purge.source = EventSource::Client;
    purge.actor = "console";
    purge.channel = "q";
    purge.transaction = "purge-1";
    purge.value = 2;
    tl.events.push_back(purge);
    Ledger ledger;
    ledger.apply(tl.events);
    QCOMPARE(ledger.message("m1")->state, MessageState::Purged);
    QCOMPARE(ledger.message("m2")->state, MessageState::Purged);
    QCOMPARE(ledger.message("m3")->state, MessageState::Waiting);
    QCOMPARE(ledger.summary().count(MessageState::Purged), 2u);
    QCOMPARE(ledger.summary().purgedUnknown, 0u);
}

void TestLedger::stateAndOutcomeNames() {
    std::set<std::string_view> names;
    for (int i = 0; i < kMessageStateCount; ++i) {
        const auto state = static_cast<MessageState>(i);
        QVERIFY(names.insert(messageStateName(state)).second);
        QVERIFY(messageStateName(state) != "unknown");
    }
    QVERIFY(isTerminal(MessageState::Acked) && isTerminal(MessageState::Expired));
    QVERIFY(!isTerminal(MessageState::InFlight) && !isTerminal(MessageState::Waiting));
    QVERIFY(deliveryOutcomeName(DeliveryOutcome::Superseded) == "superseded");
}

namespace {

// Records what the ledger reports, event by event.
struct ChangeRecorder final : LedgerObserver {
    std::vector<std::string> calls;
    void messageChanged(const MessageRecord& m) override {
        calls.push_back(m.messageId.str() + ":" + std::string(messageStateName(m.state)) + "#" +
                        std::to_string(m.ordinal));
    }
    void workerChanged(const WorkerStats& w) override {
        calls.push_back(w.worker + ":received=" + std::to_string(w.received) +
                        ",returned=" + std::to_string(w.returned));
    }
};

}  // namespace

void TestLedger::observerToldWhatEachEventChanged() {
    Timeline tl;
    tl.sent(0, "m1");
    tl.sent(0, "m2");
    tl.add(10, EventKind::MessageAssigned, "w1", "m1", 1, 1, "txA");
    tl.add(10, EventKind::MessageAssigned, "w1", "m2", 2, 1, "txA");
    tl.worker(20, EventKind::WorkerCrashed, "w1").value = 2;
    Ledger ledger;
    ChangeRecorder recorder;
    ledger.setObserver(&recorder);
    using Calls = std::vector<std::string>;
    ledger.apply(tl.events[0]);
    ledger.apply(tl.events[1]);
    QCOMPARE(recorder.calls, (Calls{"m1:waiting#0", "m2:waiting#1"}));
    recorder.calls.clear();
    ledger.apply(tl.events[2]);  // the message, then its worker once
    QCOMPARE(recorder.calls, (Calls{"m1:in-flight#0", "w1:received=1,returned=0"}));
    ledger.apply(tl.events[3]);
    recorder.calls.clear();
    ledger.apply(tl.events[4]);  // a crash: every message it returned, the worker once
    std::sort(recorder.calls.begin(), recorder.calls.end() - 1);
    QCOMPARE(recorder.calls, (Calls{"m1:waiting#0", "m2:waiting#1", "w1:received=2,returned=2"}));

    // A copy starts with no observer.
    Ledger copy = ledger;
    recorder.calls.clear();
    copy.apply(tl.events[2]);
    QVERIFY(recorder.calls.empty());
    ledger.setObserver(nullptr);
    ledger.apply(tl.events[2]);
    QVERIFY(recorder.calls.empty());
}

QTEST_APPLESS_MAIN(TestLedger)
#include "tst_ledger.moc"
