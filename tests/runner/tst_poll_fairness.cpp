// Poll efficiency and fairness (runner/poll_fairness.h): Jain's index with
// known answers, per-worker shares and poll figures from ledger statistics,
// and the hoarding counters the ledger keeps, from a hand-built timeline.
#include <QtTest/QtTest>

#include "events/ledger.h"
#include "runner/poll_fairness.h"

using namespace qs;
using namespace qs::runner;

namespace {

Event taskEvent(std::int64_t t, EventKind kind, const std::string& worker, const std::string& id,
                std::uint64_t sequence = 0) {
    Event e;
    e.timeNs = t;
    e.kind = kind;
    e.source = kind == EventKind::TaskSent ? EventSource::Producer : EventSource::Worker;
    e.actor = kind == EventKind::TaskSent ? std::string("producer") : worker;
    e.channel = "q";
    e.messageId = id;
    e.sequence = sequence;
    e.receiveCount = 1;
    e.transaction = worker + "-tx";
    return e;
}

Event emptyPoll(std::int64_t t, const std::string& worker) {
    Event e = taskEvent(t, EventKind::PollReturned, worker, {});
    e.value = 0;
    e.count2 = 1000;  // waited 1 s
    return e;
}

const WorkerStats& statsOf(const std::vector<WorkerStats>& all, const std::string& name) {
    for (const WorkerStats& w : all) {
        if (w.worker == name)
            return w;
    }
    qFatal("no worker %s", name.c_str());
}

}  // namespace

class TstPollFairness : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void jainIndexKnownAnswers() {
        QCOMPARE(jainFairnessIndex({5, 5, 5}), 1.0);
        QCOMPARE(jainFairnessIndex({10, 0, 0, 0}), 0.25);  // one of four got it all: 1/n
        QCOMPARE(jainFairnessIndex({0, 5, 5}), 2.0 / 3.0);
        QCOMPARE(jainFairnessIndex({}), 0.0);
        QCOMPARE(jainFairnessIndex({0, 0}), 0.0);
    }

    void sharesAndPollFiguresFromTheStats() {
        WorkerStats a;
        a.worker = "worker-1";
        a.received = 6;
        a.polls = 3;
        a.emptyPolls = 1;
        a.pollWaitNs = 2'500'000'000;
        WorkerStats b;
        b.worker = "worker-2";
        b.received = 2;
        b.polls = 4;
        b.emptyPolls = 3;
        const PollFairness f = computePollFairness({a, b}, 2.0);
        QCOMPARE(f.workers.size(), 2u);
        QCOMPARE(f.workers[0].share, 0.75);
        QCOMPARE(f.workers[1].share, 0.25);
        QCOMPARE(f.workers[0].fairShare, 0.5);
        QCOMPARE(f.workers[0].messagesPerPoll, 2.0);
        QCOMPARE(f.workers[1].messagesPerPoll, 0.5);
        QCOMPARE(f.workers[0].waitSeconds, 2.5);
        QCOMPARE(f.polls, 7u);
        QCOMPARE(f.emptyPolls, 4u);
        QCOMPARE(f.emptyPollsPerSecond, 2.0);
        QCOMPARE(f.jainIndex, 64.0 / (2.0 * 40.0));
        QCOMPARE(computePollFairness({a, b}, 0.0).emptyPollsPerSecond, 0.0);  // unknown time
    }

    // worker-1 takes three messages and sits on them; worker-2's empty poll
    // meanwhile counts as one "while others held 3"; once they are acked, its
    // next empty poll does not.
    void theLedgerCountsEmptyPollsWhileOthersHold() {
        std::vector<Event> events;
        for (int i = 1; i <= 3; ++i)
            events.push_back(taskEvent(i, EventKind::TaskSent, {}, "m" + std::to_string(i)));
        for (int i = 1; i <= 3; ++i)
            events.push_back(taskEvent(10, EventKind::MessageAssigned, "worker-1",
                                       "m" + std::to_string(i), static_cast<std::uint64_t>(i)));
        events.push_back(emptyPoll(20, "worker-2"));
        for (int i = 1; i <= 3; ++i)
            events.push_back(taskEvent(30, EventKind::Acked, "worker-1", "m" + std::to_string(i),
                                       static_cast<std::uint64_t>(i)));
        events.push_back(emptyPoll(40, "worker-2"));
        Ledger ledger;
        ledger.apply(events);
        const auto workers = ledger.workers();
        const WorkerStats& holder = statsOf(workers, "worker-1");
        const WorkerStats& poller = statsOf(workers, "worker-2");
        QCOMPARE(holder.maxHeld, 3u);
        QCOMPARE(poller.maxHeld, 0u);
        QCOMPARE(poller.emptyPolls, 2u);
        QCOMPARE(poller.emptyPollsWhileOthersHeld, 1u);
        QCOMPARE(poller.heldByOthersAtEmptyPolls, 3u);
        QCOMPARE(holder.emptyPollsWhileOthersHeld, 0u);
    }
};

QTEST_APPLESS_MAIN(TstPollFairness)
#include "tst_poll_fairness.moc"
