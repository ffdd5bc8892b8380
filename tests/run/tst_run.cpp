// The Run on hand-built timelines: the time index at its edges (nothing yet,
// after the end, several events sharing one time, times out of stream order),
// every prefix against a ledger replayed from zero, and messages the head
// ledger has forgotten.
#include <QtTest/QtTest>
#include <string>
#include <vector>

#include "run/run.h"
#include "run_test_events.h"
#include "run_test_support.h"

using namespace qs;
using namespace qs::test;

namespace {

// A client-only timeline (as against a remote server): three tasks sent in
// one request, a batch of two to worker-a, who acks one and crashes holding
// the other; worker-b gets it back and rejects it twice (max receive 2:
// dead-lettered), worker-b acks the third.
std::vector<Event> crashAndDeadLetterTimeline() {
    std::vector<Event> v;
    for (const char* id : {"m1", "m2", "m3"})
        v.push_back(makeEvent(100, EventKind::TaskSent, id, {}));
    for (const char* w : {"worker-a", "worker-b"}) {
        Event started = makeEvent(110, EventKind::WorkerStarted, {}, w);
        v.push_back(started);
        v.push_back(makeEvent(120, EventKind::PollStarted, {}, w));
    }
    const Event a1 = assigned(200, "m1", "worker-a", 1, 1);
    const Event a2 = assigned(200, "m2", "worker-a", 2, 1);
    v.push_back(a1);
    v.push_back(a2);
    v.push_back(settled(210, EventKind::WorkStarted, a1));
    v.push_back(settled(230, EventKind::WorkFinished, a1));
    v.push_back(settled(230, EventKind::Acked, a1));
    v.push_back(makeEvent(240, EventKind::WorkerCrashed, {}, "worker-a"));
    const Event b2 = assigned(300, "m2", "worker-b", 2, 1);
    v.push_back(b2);
    v.push_back(settled(310, EventKind::Rejected, b2));
    const Event b2again = assigned(320, "m2", "worker-b", 4, 2);
    v.push_back(b2again);
    v.push_back(settled(330, EventKind::Rejected, b2again));
    const Event b3 = assigned(340, "m3", "worker-b", 3, 1);
    v.push_back(b3);
    v.push_back(settled(350, EventKind::Acked, b3));
    Event dropped = makeEvent(360, EventKind::EventsDropped);
    dropped.source = EventSource::Pool;
    dropped.value = 4;
    v.push_back(dropped);
    v.push_back(makeEvent(370, EventKind::WorkerStopped, {}, "worker-b"));
    return v;
}

}  // namespace

class TstRun : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void emptyRun() {
        Run run;
        QCOMPARE(run.eventCount(), 0u);
        QCOMPARE(run.eventCountAt(0), 0u);
        QCOMPARE(run.eventCountAt(std::numeric_limits<std::int64_t>::max()), 0u);
        for (const RunState& s : {run.head(), run.stateAt(42), run.stateAfter(7)}) {
            QCOMPARE(s.events, 0u);
            QCOMPARE(s.timeNs, std::int64_t{0});
            QVERIFY(s.messages.empty());
            QVERIFY(s.workers.empty());
            QVERIFY(s.channels.empty());
            QCOMPARE(s.summary.messages, 0u);
        }
    }

    // Before the first event nothing has happened; after the last, the head.
    void beforeTheFirstAndAfterTheLastEvent() {
        Run run;
        const auto events = crashAndDeadLetterTimeline();
        run.append(events);
        QCOMPARE(run.eventCount(), events.size());
        const RunState before = run.stateAt(99);
        QCOMPARE(before.events, 0u);
        QVERIFY(before.messages.empty());
        const RunState after = run.stateAt(1'000'000);
        QCOMPARE(after.events, events.size());
        QCOMPARE(after.timeNs, std::int64_t{370});
        QCOMPARE(differenceBetween(after, run.head()), std::string());
        QCOMPARE(differenceBetween(run.stateAfter(events.size() + 5), run.head()), std::string());
    }

    // The events of one operation share a time: the state at that time holds
    // all of them, the state just before holds none.
    void eventsSharingATimeAreInTogether() {
        RunModelOptions options;
        options.ledger.maxReceiveCount = 2;
        Run run(options);
        run.append(crashAndDeadLetterTimeline());
        const RunState sent = run.stateAt(100);
        QCOMPARE(sent.events, 3u);
        QCOMPARE(sent.messages.size(), 3u);
        QCOMPARE(sent.count(MessageState::Waiting), 3u);
        QCOMPARE(differenceBetween(run.stateAt(109), sent), std::string());

        const RunState handedOut = run.stateAt(200);
        QCOMPARE(handedOut.count(MessageState::InFlight), 2u);
        QCOMPARE(handedOut.messages[0].worker.view(), std::string_view("worker-a"));
        QCOMPARE(handedOut.messages[1].worker.view(), std::string_view("worker-a"));
        QCOMPARE(handedOut.worker("worker-a")->holding, 2u);
        QCOMPARE(handedOut.worker("worker-a")->count(WorkerCounter::Received), std::int64_t{2});
        QCOMPARE(run.stateAt(199).count(MessageState::InFlight), 0u);

        const RunState crashed = run.stateAt(240);
        QCOMPARE(crashed.messages[1].state, MessageState::Waiting);  // m2 went back
        QCOMPARE(crashed.messages[0].state, MessageState::Acked);
        QCOMPARE(crashed.worker("worker-a")->holding, 0u);
        QVERIFY(crashed.worker("worker-a")->lifecycle == EventKind::WorkerCrashed);
        QCOMPARE(crashed.worker("worker-a")->count(WorkerCounter::Returned), std::int64_t{1});

        const RunState end = run.head();
        QCOMPARE(end.messages[1].state, MessageState::DeadLettered);  // inferred: max receive 2
        QCOMPARE(end.messages[1].receiveCount, 2);
        QCOMPARE(end.messages[1].deliveries, 3u);
        QCOMPARE(end.summary.droppedEvents, 4u);
        QVERIFY(end.worker("worker-b")->lifecycle == EventKind::WorkerStopped);
        QCOMPARE(end.channel("q")->count(MessageState::Acked), 2u);
    }

    // Stream order is not time order: an event stamped before one ahead of it
    // in the stream is on the time axis where that one is.
    void timesOutOfStreamOrder() {
        Run run;
        run.append(std::vector<Event>{
            makeEvent(100, EventKind::TaskSent, "a"), makeEvent(300, EventKind::TaskSent, "b"),
            makeEvent(200, EventKind::TaskSent, "c"), makeEvent(400, EventKind::TaskSent, "d")});
        QCOMPARE(run.streamTimeNs(2), std::int64_t{300});
        QCOMPARE(run.eventCountAt(99), 0u);
        QCOMPARE(run.eventCountAt(250), 1u);
        QCOMPARE(run.eventCountAt(300), 3u);
        QCOMPARE(run.eventCountAt(399), 3u);
        QCOMPARE(run.eventCountAt(400), 4u);
        QCOMPARE(run.stateAt(250).messages.size(), 1u);
        QCOMPARE(run.stateAt(300).timeNs, std::int64_t{300});
    }

    // Every prefix, from checkpoints every 1, 2, 3 or 1000 events, against a
    // ledger fed the same prefix from zero.
    void everyPrefixMatchesAReplay_data() {
        QTest::addColumn<int>("interval");
        QTest::newRow("1") << 1;
        QTest::newRow("2") << 2;
        QTest::newRow("3") << 3;
        QTest::newRow("1000") << 1000;
    }
    void everyPrefixMatchesAReplay() {
        QFETCH(int, interval);
        RunModelOptions options;
        options.ledger.maxReceiveCount = 2;
        options.checkpointInterval = static_cast<std::uint32_t>(interval);
        Run run(options);
        const auto events = crashAndDeadLetterTimeline();
        run.append(events);
        for (std::size_t n = 0; n <= events.size(); ++n) {
            Ledger replay(options.ledger);
            replay.apply(std::span(events).first(n));
            const RunState state = run.stateAfter(n);
            QCOMPARE(differenceFromLedger(state, run, replay), std::string());
        }
        QCOMPARE(differenceFromLedger(run.head(), run, run.ledger()), std::string());
    }

    // advance() from any earlier state, in one step or event by event, gives
    // what stateAfter() gives: messages, workers (holdings too), summary and
    // the per-channel split (the dead-lettered copy moves channel).
    void advanceEqualsAFreshState() {
        RunModelOptions options;
        options.ledger.maxReceiveCount = 2;
        options.checkpointInterval = 3;
        Run run(options);
        auto events = crashAndDeadLetterTimeline();
        Event dlq = makeEvent(335, EventKind::BrokerDeadLettered, "m2");
        dlq.source = EventSource::Broker;
        dlq.detail = "q.dead";
        events.insert(events.begin() + 16, dlq);
        run.append(events);
        auto same = [](const RunState& a, const RunState& b) {
            return a.events == b.events && a.timeNs == b.timeNs &&
                   sameSummary(a.summary, b.summary) && a.messages == b.messages &&
                   a.workers == b.workers && a.channels == b.channels;
        };
        RunState stepped = run.stateAfter(0);
        for (std::uint64_t to = 0; to <= events.size() + 1; ++to) {
            QVERIFY(run.advance(stepped, to));
            QVERIFY2(same(stepped, run.stateAfter(to)), qPrintable(QString::number(to)));
            for (std::uint64_t from = 0; from <= to; ++from) {
                RunState state = run.stateAfter(from);
                QVERIFY(run.advance(state, to));
                QVERIFY2(same(state, run.stateAfter(to)),
                         qPrintable(QStringLiteral("%1 -> %2").arg(from).arg(to)));
            }
        }
        RunState late = run.stateAfter(10);
        QVERIFY(!run.advance(late, 4));
        QCOMPARE(late.events, std::uint64_t(10));
        QVERIFY(run.advanceTo(late, 310));
        QVERIFY(same(late, run.stateAt(310)));
    }

    // The head ledger forgets finished messages beyond its bound; the run
    // keeps every message's state.
    void forgottenMessagesStayInTheRun() {
        RunModelOptions options;
        options.ledger.maxFinishedMessages = 1;
        options.checkpointInterval = 4;
        Run run(options);
        std::vector<Event> v;
        for (int i = 0; i < 5; ++i) {
            const std::string id = "m" + std::to_string(i);
            v.push_back(makeEvent(10 * i, EventKind::TaskSent, id));
            const Event a = assigned(10 * i + 1, id, "w", static_cast<std::uint64_t>(i + 1), 1);
            v.push_back(a);
            v.push_back(settled(10 * i + 2, EventKind::Acked, a));
        }
        run.append(v);
        QCOMPARE(run.ledger().trackedMessages(), 1u);
        const RunState head = run.head();
        QCOMPARE(head.messages.size(), 5u);
        for (const MessageAt& m : head.messages)
            QCOMPARE(m.state, MessageState::Acked);
        QCOMPARE(head.summary.evicted, 4u);
        QVERIFY(sameSummary(head.summary, run.ledger().summary()));
        QCOMPARE(run.messageId(3), std::string_view("m3"));
        QCOMPARE(run.messageIndex("m3").value_or(99), 3u);
        QVERIFY(!run.messageIndex("nope"));
        QCOMPARE(run.stateAt(21).messages[2].state, MessageState::InFlight);
    }

    // The head read in place says what a copied head() says, after every event.
    void headInPlaceMatchesTheCopiedHead() {
        RunModelOptions options;
        options.ledger.maxReceiveCount = 2;
        Run run(options);
        for (const Event& e : crashAndDeadLetterTimeline()) {
            run.append(e);
            const RunState head = run.head();
            QVERIFY(sameSummary(run.summaryNow(), head.summary));
            for (std::uint32_t i = 0; i < run.messageCount(); ++i)
                QVERIFY(run.messageNow(i) == head.messages[i]);
            QCOMPARE(run.channelsNow().size(), head.channels.size());
            for (const ChannelAt& c : head.channels) {
                const ChannelAt* now = run.channelNow(c.channel.view());
                QVERIFY(now != nullptr);
                QVERIFY(*now == c);
            }
        }
        QVERIFY(run.channelNow("nowhere") == nullptr);
    }

    // A message's trail holds the events naming it and the crash that
    // returned it without naming it, oldest first, each once.
    void aMessagesTrailHasEveryEventThatTouchedIt() {
        RunModelOptions options;
        options.ledger.maxReceiveCount = 2;
        Run run(options);
        const auto events = crashAndDeadLetterTimeline();
        run.append(events);
        const std::uint32_t m2 = run.messageIndex("m2").value();
        std::vector<std::uint32_t> want;
        for (std::uint32_t i = 0; i < events.size(); ++i) {
            const bool names = std::string_view(events[i].messageId) == "m2";
            const bool crash = events[i].kind == EventKind::WorkerCrashed;
            if (names || crash)
                want.push_back(i);
        }
        QCOMPARE(run.messageEvents(m2), want);
        QVERIFY(run.event(run.messageEvents(m2).front()).kind == EventKind::TaskSent);
        QVERIFY(run.messageEvents(99).empty());
        for (std::uint32_t m = 0; m < run.messageCount(); ++m)
            QCOMPARE(run.messageFirstEvent(m), std::optional(run.messageEvents(m).front()));
        QVERIFY(!run.messageFirstEvent(99).has_value());
    }

    // What changed since the last look, each message once.
    void touchedMessagesAreTakenOnce() {
        Run run;
        const auto events = crashAndDeadLetterTimeline();
        std::vector<std::uint32_t> touched;
        run.append(std::span(events).first(3));  // three sends
        run.takeTouchedMessages(touched);
        QCOMPARE(touched, (std::vector<std::uint32_t>{0, 1, 2}));
        touched.clear();
        run.takeTouchedMessages(touched);
        QVERIFY(touched.empty());
        run.append(std::span(events).subspan(3));
        run.takeTouchedMessages(touched);
        QCOMPARE(touched, (std::vector<std::uint32_t>{0, 1, 2}));
        QVERIFY(run.memory().trail > 0);
    }
};

QTEST_APPLESS_MAIN(TstRun)
#include "tst_run.moc"
