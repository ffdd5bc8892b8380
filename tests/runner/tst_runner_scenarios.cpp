// The shipped demo scenarios, run headless against the embedded broker, with
// the exact distribution facts each one is meant to show.
#include <QtTest/QtTest>
#include <set>

#include "runner/summary_table.h"
#include "runner_test_support.h"

using namespace qs;
using namespace qs::test;
using runner::RunResult;

class TstRunnerScenarios : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // (1) 10 tasks / 3 workers / batch 5 / wait 10 s / 0.1 s of work.
    void classicWorkQueue() {
        const auto s = shippedScenario("01-classic-work-queue.json");
        const auto start = std::chrono::steady_clock::now();
        const RunResult r = runScenario(s);
        QVERIFY2(r.error.empty(), r.error.c_str());
        QCOMPARE(r.exitCode(), 0);
        QVERIFY(r.drained);
        // The third worker's 10 s poll is cancelled at the end, not waited out.
        QVERIFY(std::chrono::steady_clock::now() - start < std::chrono::seconds(8));
        QCOMPARE(r.totals.count(MessageState::Acked), 10u);
        QCOMPARE(r.totals.exactlyOnce, 10u);
        QCOMPARE(r.totals.redeliveries, 0u);
        QCOMPARE(r.tasksLost, 0u);
        QCOMPARE(sortedReceived(r), (std::vector<std::uint64_t>{0, 5, 5}));
        for (const MessageRecord& m : r.messages)
            QCOMPARE(ackedDeliveries(m), 1);
        const std::string summary = runner::formatSummary(s, r);
        QVERIFY(summary.find("worker-3") != std::string::npos);
        QVERIFY(summary.find("Result: OK") != std::string::npos);
    }

    // (2) Channel created first, deleted at the end; two workers, five each.
    void createdThenDeletedChannel() {
        const RunResult r = runScenario(shippedScenario("02-created-then-deleted-channel.json"));
        QCOMPARE(r.exitCode(), 0);
        QVERIFY2(r.warnings.empty(), r.warnings.empty() ? "" : r.warnings.front().c_str());
        QCOMPARE(r.totals.count(MessageState::Acked), 10u);
        QCOMPARE(r.totals.exactlyOnce, 10u);
        QCOMPARE(sortedReceived(r), (std::vector<std::uint64_t>{5, 5}));
    }

    // (3) Two receives of 5 without acking, then the client closes: all 10
    // go back (same sequence, same receive count) and worker-2 does them all.
    void forgotToAck() {
        const RunResult r = runScenario(shippedScenario("03-forgot-to-ack.json"));
        QCOMPARE(r.exitCode(), 0);
        const WorkerStats* w1 = workerStats(r, "worker-1");
        const WorkerStats* w2 = workerStats(r, "worker-2");
        QVERIFY(w1 && w2);
        QCOMPARE(w1->received, 10u);
        QCOMPARE(w1->acked, 0u);
        QCOMPARE(w1->returned, 10u);
        QCOMPARE(w1->polls, 2u);
        QCOMPARE(w2->received, 10u);
        QCOMPARE(w2->redelivered, 10u);
        QCOMPARE(w2->acked, 10u);
        QCOMPARE(r.totals.count(MessageState::Acked), 10u);
        QCOMPARE(r.totals.redelivered, 10u);
        QCOMPARE(r.messages.size(), 10u);
        for (const MessageRecord& m : r.messages) {
            QCOMPARE(m.deliveries.size(), 2u);
            const DeliveryRecord& first = m.deliveries[0];
            const DeliveryRecord& second = m.deliveries[1];
            QCOMPARE(first.outcome, DeliveryOutcome::Returned);
            QCOMPARE(second.sequence, first.sequence);
            QCOMPARE(second.receiveCount, 1);
            QCOMPARE(first.receiveCount, 1);
            QVERIFY(second.redelivery);
            QCOMPARE(ackedDeliveries(m), 1);
        }
    }

    // (4) worker-2 crashes mid-batch; its unsettled tasks reach the other
    // workers with their original sequences, recorded as redeliveries though
    // the receive count did not rise (spec §2.8.5, §6 item 1).
    void workerCrash() {
        const RunResult r = runScenario(shippedScenario("04-worker-crash.json"));
        QCOMPARE(r.exitCode(), 0);
        QCOMPARE(r.totals.count(MessageState::Acked), 9u);
        const WorkerStats* w2 = workerStats(r, "worker-2");
        QVERIFY(w2);
        QCOMPARE(w2->crashes, 1u);
        QVERIFY2(w2->returned >= 1, "the crash left nothing unsettled");
        std::uint64_t moved = 0;
        for (const MessageRecord& m : r.messages) {
            QCOMPARE(ackedDeliveries(m), 1);  // every task acked exactly once
            for (std::size_t i = 0; i + 1 < m.deliveries.size(); ++i) {
                const DeliveryRecord& lost = m.deliveries[i];
                if (lost.worker != "worker-2" || lost.outcome != DeliveryOutcome::Returned)
                    continue;
                const DeliveryRecord& next = m.deliveries[i + 1];
                QVERIFY(next.worker == "worker-1" || next.worker == "worker-3");
                QCOMPARE(next.sequence, lost.sequence);
                QCOMPARE(next.receiveCount, lost.receiveCount);
                QCOMPARE(next.receiveCount, 1);
                QVERIFY(next.redelivery);
                QCOMPARE(next.outcome, DeliveryOutcome::Acked);
                ++moved;
            }
        }
        QCOMPARE(moved, w2->returned);
        QCOMPARE(r.totals.redelivered, moved);
    }

    // (5) The poison task is rejected max-receive-count times, each copy at
    // the tail with receive count + 1, then dead-lettered (spec §2.7).
    void poisonDeadLetter() {
        const RunResult r = runScenario(shippedScenario("05-poison-dead-letter.json"));
        QCOMPARE(r.exitCode(), 0);
        QCOMPARE(r.totals.count(MessageState::Acked), 5u);
        QCOMPARE(r.totals.count(MessageState::DeadLettered), 1u);
        int poison = 0;
        for (const MessageRecord& m : r.messages) {
            if (m.state != MessageState::DeadLettered)
                continue;
            ++poison;
            QCOMPARE(m.channel, std::string("tasks.poison.dead-letter"));
            QCOMPARE(m.deliveries.size(), 3u);
            std::uint64_t lastSeq = 0;
            for (std::size_t i = 0; i < m.deliveries.size(); ++i) {
                const DeliveryRecord& d = m.deliveries[i];
                QCOMPARE(d.outcome, DeliveryOutcome::Rejected);
                QCOMPARE(d.receiveCount, static_cast<int>(i) + 1);
                QVERIFY(d.sequence > lastSeq);  // a new copy at the tail each time
                lastSeq = d.sequence;
            }
            QCOMPARE(m.deliveries[1].sequence, 7u);  // behind the six original tasks
        }
        QCOMPARE(poison, 1);
    }

    // (6) Timeline actions on a stream of tasks; nothing is lost.
    void liveTuning() {
        const RunResult r = runScenario(shippedScenario("06-live-tuning.json"));
        QCOMPARE(r.exitCode(), 0);
        QVERIFY2(r.warnings.empty(), r.warnings.empty() ? "" : r.warnings.front().c_str());
        QCOMPARE(r.totals.count(MessageState::Acked) + r.totals.count(MessageState::DeadLettered),
                 80u);
        QCOMPARE(r.workers.size(), 4u);
        QVERIFY(workerStats(r, "worker-4")->received > 0);
    }
};

QTEST_APPLESS_MAIN(TstRunnerScenarios)
#include "tst_runner_scenarios.moc"
