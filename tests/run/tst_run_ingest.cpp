// The run's ingest thread (run/run_ingest.h): a Run appended there is the Run
// appended on the owner's thread, event for event and note for note; a job
// that throws throws at wait(); a job in hand is finished before the thread
// ends. Run under ThreadSanitizer (label threading): the owner reads the Run
// only between jobs.
#include <QtTest/QtTest>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "run/run.h"
#include "run/run_ingest.h"
#include "run/text_pool.h"
#include "run_test_events.h"
#include "run_test_support.h"

using namespace qs;
using namespace qs::test;

namespace {

// Three workers take tasks in turn and ack them; every 97th task's worker
// crashes holding it (its hand-out comes back), and restarts.
std::vector<Event> poolEvents(int tasks) {
    std::vector<Event> v;
    std::int64_t t = 0;
    for (int i = 0; i < tasks; ++i) {
        const std::string id = "m" + std::to_string(i);
        const std::string worker = "worker-" + std::to_string(i % 3);
        v.push_back(makeEvent(t += 10, EventKind::TaskSent, id));
        const Event a = assigned(t += 10, id, worker, static_cast<std::uint64_t>(i) + 1, 1);
        v.push_back(a);
        if (i % 97 == 0) {
            v.push_back(makeEvent(t += 10, EventKind::WorkerCrashed, {}, worker));
            v.push_back(makeEvent(t += 10, EventKind::WorkerStarted, {}, worker));
        } else {
            v.push_back(settled(t += 10, EventKind::Acked, a));
        }
    }
    return v;
}

}  // namespace

class TestRunIngest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void anIngestedRunIsTheRunAppendedHere();
    void aJobThatThrowsThrowsAtWait();
    void aJobInHandIsFinishedBeforeTheThreadEnds();
};

void TestRunIngest::anIngestedRunIsTheRunAppendedHere() {
    const std::vector<Event> events = poolEvents(3000);
    const std::span<const Event> all(events);
    Run here;
    Run there;
    run::AppendNotes hereNotes;
    run::AppendNotes thereNotes;
    run::RunIngest ingest;
    QVERIFY(!ingest.busy());
    for (std::size_t at = 0; at < events.size(); at += 700) {
        const auto batch = all.subspan(at, std::min<std::size_t>(700, events.size() - at));
        run::appendNoting(here, batch, hereNotes);
        ingest.start(there, std::vector<Event>(batch.begin(), batch.end()));
        QVERIFY(ingest.busy());
        ingest.wait(thereNotes);
        QVERIFY(!ingest.busy());
        QCOMPARE(there.eventCount(), here.eventCount());  // read between jobs only
    }
    QVERIFY(sameSummary(there.summaryNow(), here.summaryNow()));
    const std::string difference = differenceBetween(there.head(), here.head());
    QVERIFY2(difference.empty(), difference.c_str());
    QCOMPARE(thereNotes.returnedBy.size(), std::size_t{31});  // a crash every 97th of 3,000 tasks
    QCOMPARE(thereNotes.returnedBy, hereNotes.returnedBy);
    for (const auto& [event, messages] : thereNotes.returnedBy) {
        QVERIFY(there.eventKind(event) == EventKind::WorkerCrashed);
        QCOMPARE(messages.size(), std::size_t{1});
    }
    QVERIFY(thereNotes.coreNs > 0);
    std::vector<std::uint32_t> hereTouched;
    std::vector<std::uint32_t> thereTouched;
    here.takeTouchedMessages(hereTouched);
    there.takeTouchedMessages(thereTouched);
    QCOMPARE(thereTouched, hereTouched);
}

void TestRunIngest::aJobThatThrowsThrowsAtWait() {
    Run tiny({}, 2, run::TextPool::kMaxTexts);  // room for two events
    run::RunIngest ingest;
    run::AppendNotes notes;
    ingest.start(tiny, poolEvents(1));  // three events
    QVERIFY_THROWS_EXCEPTION(std::length_error, ingest.wait(notes));
    QVERIFY(!ingest.busy());
    QCOMPARE(tiny.eventCount(), std::uint64_t{2});
    ingest.start(tiny, {});  // the thread goes on working
    ingest.wait(notes);
    QCOMPARE(tiny.eventCount(), std::uint64_t{2});
}

void TestRunIngest::aJobInHandIsFinishedBeforeTheThreadEnds() {
    Run run;
    const std::vector<Event> events = poolEvents(2000);
    {
        run::RunIngest ingest;
        ingest.start(run, events);
    }
    QCOMPARE(run.eventCount(), static_cast<std::uint64_t>(events.size()));
}

QTEST_GUILESS_MAIN(TestRunIngest)
#include "tst_run_ingest.moc"
