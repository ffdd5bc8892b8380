// The leases of a Run (run/leases.h) on a hand-built timeline: at every
// prefix they are exactly the ledger's in-flight messages with their latest
// delivery (holder, transaction, receive count, hand-out time), oldest
// hand-out first; the hand-out at MaxReceiveCount is the last chance; a
// crash and an ack end leases.
#include <QTest>
#include <string>
#include <vector>

#include "events/ledger.h"
#include "run/leases.h"
#include "run/run.h"
#include "run_test_events.h"

using namespace qs;
using namespace qs::test;

namespace {

// m1 and m2 to worker-a (m1 acked, worker-a crashes holding m2); m3 to
// worker-b, rejected, handed out again at receive count 2 (the max) and held;
// m2 handed to worker-b after the crash, acked.
std::vector<Event> timeline() {
    std::vector<Event> v;
    for (const char* id : {"m1", "m2", "m3"})
        v.push_back(makeEvent(100, EventKind::TaskSent, id, {}));
    const Event a1 = assigned(200, "m1", "worker-a", 1, 1);
    const Event a2 = assigned(210, "m2", "worker-a", 2, 1);
    const Event b3 = assigned(220, "m3", "worker-b", 3, 1);
    v.insert(v.end(), {a1, a2, b3});
    v.push_back(settled(300, EventKind::Acked, a1));
    v.push_back(settled(310, EventKind::Rejected, b3));
    v.push_back(assigned(320, "m3", "worker-b", 4, 2));
    Event crash = makeEvent(400, EventKind::WorkerCrashed, {}, "worker-a");
    crash.value = 1;
    v.push_back(crash);
    const Event b2 = assigned(500, "m2", "worker-b", 5, 1);
    v.push_back(b2);
    v.push_back(settled(600, EventKind::Acked, b2));
    return v;
}

// The leases a ledger fed the same events implies, oldest hand-out first.
std::vector<Lease> leasesFromLedger(const Run& run, const Ledger& ledger) {
    std::vector<Lease> want;
    for (std::uint32_t i = 0; i < run.messageCount(); ++i) {
        const MessageRecord* rec = ledger.message(run.messageId(i));
        if (rec == nullptr || rec->state != MessageState::InFlight)
            continue;
        const DeliveryRecord& d = rec->deliveries.back();
        Lease l;
        l.message = i;
        l.worker = Name(d.worker);
        l.channel = Name(rec->channel);
        l.transaction = d.transaction;
        l.handedOutNs = d.assignedNs;
        l.receiveCount = d.receiveCount;
        l.maxReceiveCount = ledger.options().maxReceiveCount;
        want.push_back(l);
    }
    std::stable_sort(want.begin(), want.end(),
                     [](const Lease& a, const Lease& b) { return a.handedOutNs < b.handedOutNs; });
    return want;
}

std::string describe(const std::vector<Lease>& leases) {
    std::string s;
    for (const Lease& l : leases)
        s += std::to_string(l.message) + ":" + l.worker.str() + "/" + l.transaction + "/rc" +
             std::to_string(l.receiveCount) + "@" + std::to_string(l.handedOutNs) + " ";
    return s;
}

}  // namespace

class TestLeases : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyPrefixMatchesTheLedger();
    void headIsTheLastPrefix();
    void headOfManyMessagesMatchesTheLedger();
    void lastChanceAtMaxReceiveCount();
    void unknownMaxMarksNothing();
    void bothReportsOfAHandOutArePaired();
    void v1HandOutCountsDownItsVisibility();
};

void TestLeases::everyPrefixMatchesTheLedger() {
    RunModelOptions options;
    options.ledger.maxReceiveCount = 2;
    options.checkpointInterval = 3;  // states from checkpoints and replays alike
    Run run(options);
    const std::vector<Event> events = timeline();
    run.append(events);
    for (std::uint64_t n = 0; n <= events.size(); ++n) {
        Ledger ledger(options.ledger);
        ledger.apply(std::span<const Event>(events.data(), n));
        const std::vector<Lease> got = leasesAt(run, run.stateAfter(n));
        const std::vector<Lease> want = leasesFromLedger(run, ledger);
        QVERIFY2(got == want, qPrintable(QStringLiteral("after %1 events: %2 vs %3")
                                             .arg(n)
                                             .arg(QString::fromStdString(describe(got)),
                                                  QString::fromStdString(describe(want)))));
    }
}

void TestLeases::headIsTheLastPrefix() {
    Run run;
    const std::vector<Event> events = timeline();
    for (std::size_t n = 0; n < events.size(); ++n) {
        run.append(events[n]);
        QVERIFY(leasesNow(run) == leasesAt(run, run.head()));
        // The in-flight rows the run keeps are those a scan of the head finds.
        std::vector<std::uint32_t> scanned;
        const RunState head = run.head();
        for (std::uint32_t i = 0; i < head.messages.size(); ++i) {
            if (head.messages[i].state == MessageState::InFlight)
                scanned.push_back(i);
        }
        QVERIFY(run.inFlightNow() == scanned);
    }
    // At the end only m3 is held: worker-b, its second hand-out.
    const std::vector<Lease> end = leasesNow(run);
    QCOMPARE(end.size(), std::size_t{1});
    QCOMPARE(run.messageId(end[0].message), std::string_view("m3"));
    QCOMPARE(end[0].worker.str(), std::string("worker-b"));
    QCOMPARE(end[0].receiveCount, 2);
    QCOMPARE(end[0].handedOutNs, std::int64_t{320});
    QCOMPARE(end[0].transaction, std::string("tx-worker-b-320"));
    QCOMPARE(end[0].heldNs(1320), std::int64_t{1000});
}

// More messages than one chunk of the head's rows (Run::messageNow reads them
// in place, chunk by chunk): every third is held, by one of four workers.
void TestLeases::headOfManyMessagesMatchesTheLedger() {
    Run run;
    Ledger ledger;
    std::vector<Event> events;
    for (int i = 0; i < 3000; ++i) {
        const std::string id = "m" + std::to_string(i);
        events.push_back(makeEvent(100 + i, EventKind::TaskSent, id, {}));
        if (i % 3 == 0) {
            const std::string worker = "worker-" + std::to_string(i % 4);
            events.push_back(assigned(5000 + i, id, worker, static_cast<std::uint64_t>(i + 1), 1));
        }
    }
    run.append(events);
    ledger.apply(events);
    const std::vector<Lease> now = leasesNow(run);
    QCOMPARE(now.size(), std::size_t{1000});
    QVERIFY(now == leasesFromLedger(run, ledger));
    QVERIFY(now == leasesAt(run, run.head()));
}

void TestLeases::lastChanceAtMaxReceiveCount() {
    RunModelOptions options;
    options.ledger.maxReceiveCount = 2;
    Run run(options);
    const std::vector<Event> events = timeline();
    run.append(events);
    // After m3's first hand-out (receive count 1 of 2): not yet.
    const std::vector<Lease> early = leasesAt(run, run.stateAt(220));
    QCOMPARE(early.size(), std::size_t{3});
    QCOMPARE(early[0].worker.str(), std::string("worker-a"));  // m1, the oldest
    QCOMPARE(run.messageId(early[0].message), std::string_view("m1"));
    for (const Lease& l : early)
        QVERIFY(!l.lastChance());
    // Its second hand-out shows 2: a reject now dead-letters it.
    const std::vector<Lease> late = leasesAt(run, run.stateAt(320));
    QCOMPARE(late.size(), std::size_t{2});
    QCOMPARE(run.messageId(late[1].message), std::string_view("m3"));
    QVERIFY(late[1].lastChance());
    QVERIFY(!late[0].lastChance());
}

void TestLeases::unknownMaxMarksNothing() {
    Run run;  // no MaxReceiveCount known
    run.append(timeline());
    for (const Lease& l : leasesAt(run, run.stateAt(320))) {
        QCOMPARE(l.maxReceiveCount, 0);
        QVERIFY(!l.lastChance());
    }
}

// The broker's and the worker's reports of one hand-out, with the worker's late
// report of its previous reject arriving between them (seen on a busy
// machine): the lease is the ledger's delivery, timed by the first report.
void TestLeases::bothReportsOfAHandOutArePaired() {
    const auto brokerReport = [](const Event& handOut, std::int64_t timeNs) {
        Event e = settled(timeNs, EventKind::BrokerDelivered, handOut);
        e.source = EventSource::Broker;
        return e;
    };
    std::vector<Event> events{makeEvent(100, EventKind::TaskSent, "m1")};
    const Event first = assigned(200, "m1", "worker-a", 1, 1);
    events.push_back(brokerReport(first, 199));
    events.push_back(first);
    Event nacked = settled(301, EventKind::BrokerNacked, first);
    nacked.source = EventSource::Broker;
    events.push_back(nacked);
    const Event second = assigned(305, "m1", "worker-a", 2, 2);
    events.push_back(brokerReport(second, 302));
    events.push_back(settled(300, EventKind::Rejected, first));  // late
    events.push_back(second);
    Run run;
    run.append(events);
    Ledger ledger(run.ledger().options());
    ledger.apply(events);
    const std::vector<Lease> got = leasesNow(run);
    QCOMPARE(describe(got), describe(leasesFromLedger(run, ledger)));
    QCOMPARE(got.size(), std::size_t{1});
    QCOMPARE(got[0].handedOutNs, std::int64_t{302});
    QCOMPARE(got[0].receiveCount, 2);
}

// A v1-stream hand-out carries its visibility (ms) in the worker's report: the
// lease knows when the broker takes the message back, whichever report came
// first; a downstream hand-out has no such timer. After the expiry the
// broker's nack and the next hand-out make it another worker's lease.
void TestLeases::v1HandOutCountsDownItsVisibility() {
    const auto brokerReport = [](const Event& handOut, std::int64_t timeNs) {
        Event e = settled(timeNs, EventKind::BrokerDelivered, handOut);
        e.source = EventSource::Broker;
        e.value = 0;
        return e;
    };
    constexpr std::int64_t kMs = 1'000'000;
    std::vector<Event> events{makeEvent(0, EventKind::TaskSent, "m1"),
                              makeEvent(0, EventKind::TaskSent, "m2")};
    Event v1 = assigned(100 * kMs, "m1", "worker-a", 1, 1);
    v1.value = 1000;  // visibility 1 s
    events.push_back(brokerReport(v1, 99 * kMs));
    events.push_back(v1);
    events.push_back(assigned(150 * kMs, "m2", "worker-b", 2, 1));  // downstream
    Run run;
    run.append(events);
    std::vector<Lease> held = leasesNow(run);
    QCOMPARE(held.size(), std::size_t{2});
    QCOMPARE(run.messageId(held[0].message), std::string_view("m1"));
    QCOMPARE(held[0].handedOutNs, 99 * kMs);  // the first report times the hand-out
    QVERIFY(held[0].hasVisibilityTimer());
    QCOMPARE(held[0].visibleAgainNs, 1100 * kMs);  // the worker's time + 1 s
    QCOMPARE(held[0].visibleInNs(900 * kMs), 200 * kMs);
    QVERIFY(held[0].visibleInNs(1200 * kMs) < 0);
    QVERIFY(!held[1].hasVisibilityTimer());

    // The timer fires: the broker's nack, then worker-b gets it (receive count 2).
    Event expired = settled(1100 * kMs, EventKind::BrokerNacked, v1);
    expired.source = EventSource::Broker;
    expired.value = 0;
    expired.detail = std::string(kNackReasonVisibilityExpired);
    run.append(expired);
    QCOMPARE(leasesNow(run).size(), std::size_t{1});  // m1 waits again
    Event again = assigned(1200 * kMs, "m1", "worker-b", 3, 2);
    again.value = 30000;
    run.append(again);
    held = leasesNow(run);
    QCOMPARE(held.size(), std::size_t{2});
    QCOMPARE(held[1].worker.str(), std::string("worker-b"));
    QCOMPARE(held[1].receiveCount, 2);
    QCOMPARE(held[1].visibleAgainNs, 31200 * kMs);
    // At a past instant the lease is the first hand-out's, with its own timer.
    const std::vector<Lease> before = leasesAt(run, run.stateAt(500 * kMs));
    QCOMPARE(before.front().visibleAgainNs, 1100 * kMs);
}

QTEST_APPLESS_MAIN(TestLeases)
#include "tst_leases.moc"
