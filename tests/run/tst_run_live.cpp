// The Run fed a real run: the embedded broker (through its observer) and a
// worker pool on one event stream, with rejects, poison tasks dead-lettered
// after their max receive count, random crashes with restarts and one forced
// crash. The state at 1,000 random instants must equal a replay from zero.
#include <QtTest/QtTest>
#include <algorithm>
#include <random>
#include <vector>

#include "pool_harness.h"
#include "run/run.h"
#include "run_test_support.h"

using namespace qs;
using namespace qs::test;

namespace {

constexpr int kTasks = 200;

// The events of one pool run, in stream order.
std::vector<Event> recordPoolRun() {
    PoolHarness h;
    workers::TaskSpec spec = tasks("q.run", kTasks);
    spec.poison = {3, 17, 40, 120};
    spec.policy.maxReceiveCount = 3;
    spec.policy.deadLetterQueue = "q.run.dead";
    if (!h.sendTasks(spec))
        qFatal("tasks not sent");
    workers::WorkerConfig c = config(4, 1000, 1);
    c.failureRate = 0.2;
    c.crashRate = 0.03;
    c.restartDelayMs = 50;
    workers::WorkerPool pool(h.poolOptions("q.run"), c);
    if (pool.addWorkers(3).size() != 3)
        qFatal("workers not started");
    // One crash for sure, once work is under way.
    if (!h.waitForEvents(EventKind::BrokerAcked, 10) || !pool.crash("worker-2"))
        qFatal("no crash");
    // Done when every task has ended: acked, or dead-lettered by the broker.
    const bool done = waitUntil([&] {
        const LedgerSummary s = h.ledger().summary();
        return s.count(MessageState::Acked) + s.count(MessageState::DeadLettered) == kTasks;
    });
    pool.stop();
    if (!done)
        qFatal("the run did not finish");
    return h.collect();
}

}  // namespace

class TstRunLive : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        events_ = recordPoolRun();
        qInfo("%zu events recorded", events_.size());
        const std::size_t interval = std::max<std::size_t>(events_.size() / 40, 1);
        RunModelOptions options;
        options.checkpointInterval = static_cast<std::uint32_t>(interval);
        run_ = std::make_unique<Run>(options);
        // In batches of uneven size, as a pump hands them over.
        for (std::size_t at = 0; at < events_.size();) {
            const std::size_t n = std::min<std::size_t>(1 + at % 97, events_.size() - at);
            run_->append(std::span(events_).subspan(at, n));
            at += n;
        }
    }

    // The run exercised what it should.
    void theRunHadRejectsCrashesAndDeadLetters() {
        const RunState head = run_->head();
        QCOMPARE(head.count(MessageState::DeadLettered) + head.count(MessageState::Acked),
                 std::uint64_t{kTasks});
        QVERIFY(head.count(MessageState::DeadLettered) >= 3);
        std::int64_t crashes = 0;
        std::int64_t rejected = 0;
        for (const WorkerAt& w : head.workers) {
            crashes += w.count(WorkerCounter::Crashes);
            rejected += w.count(WorkerCounter::Rejected);
        }
        QVERIFY(crashes >= 1);
        QVERIFY(rejected >= 9);
        QVERIFY(head.summary.redeliveries > 0);
        QVERIFY(head.channel("q.run.dead") != nullptr);
        QVERIFY(run_->checkpointCount() > 20);
    }

    void headEqualsTheHeadLedger() {
        QCOMPARE(differenceFromLedger(run_->head(), *run_, run_->ledger()), std::string());
    }

    // 1,000 random instants, from before the first event to after the last,
    // against one ledger fed from zero up to each instant in turn; the time
    // index against stream times computed here.
    void stateAtRandomInstantsEqualsAReplay() {
        std::vector<std::int64_t> streamTime;
        std::int64_t running = std::numeric_limits<std::int64_t>::min();
        for (const Event& e : events_)
            streamTime.push_back(running = std::max(running, e.timeNs));
        std::mt19937_64 random(19);
        std::uniform_int_distribution<std::int64_t> pick(events_.front().timeNs - 1000,
                                                         streamTime.back() + 1000);
        std::vector<std::int64_t> instants(1000);
        for (std::int64_t& t : instants)
            t = pick(random);
        // Exactly at event times too, where several events share one time.
        for (std::size_t i = 0; i < 100; ++i)
            instants[i] = streamTime[random() % streamTime.size()];
        std::sort(instants.begin(), instants.end());

        Ledger replay;
        std::size_t applied = 0;
        for (const std::int64_t t : instants) {
            const auto expected = static_cast<std::size_t>(
                std::upper_bound(streamTime.begin(), streamTime.end(), t) - streamTime.begin());
            QCOMPARE(run_->eventCountAt(t), expected);
            for (; applied < expected; ++applied)
                replay.apply(events_[applied]);
            const RunState state = run_->stateAt(t);
            QCOMPARE(differenceFromLedger(state, *run_, replay), std::string());
            if (expected > 0)
                QCOMPARE(state.timeNs, streamTime[expected - 1]);
        }
    }

    // A few instants against runs fed from zero: the very same state.
    void stateAtEqualsAFreshRun() {
        std::mt19937_64 random(7);
        for (int i = 0; i < 12; ++i) {
            const std::size_t n = random() % (events_.size() + 1);
            RunModelOptions fromZero;
            fromZero.checkpointInterval = 1u << 30;  // no checkpoint but the empty one
            Run fresh(fromZero);
            fresh.append(std::span(events_).first(n));
            RunState expected = fresh.head();
            QCOMPARE(differenceBetween(run_->stateAfter(n), expected), std::string());
        }
    }

private:
    std::vector<Event> events_;
    std::unique_ptr<Run> run_;
};

QTEST_APPLESS_MAIN(TstRunLive)
#include "tst_run_live.moc"
