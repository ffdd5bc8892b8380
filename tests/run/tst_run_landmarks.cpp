// Landmarks of a Run (run/run_landmarks.h): which events are landmarks, and
// the next / previous one of a kind from any index, at the run's edges too.
#include <QtTest/QtTest>
#include <string>
#include <vector>

#include "run/run.h"
#include "run/run_landmarks.h"
#include "run_test_events.h"

using namespace qs;
using namespace qs::test;

namespace {

// 0 sent, 1 config, 2 assigned, 3 crash, 4 redelivered, 5 assigned, 6 config, 7 dead-lettered
std::vector<Event> timeline() {
    std::vector<Event> v;
    v.push_back(makeEvent(10, EventKind::TaskSent, "m1"));
    v.push_back(makeEvent(20, EventKind::ConfigChanged, {}, "pool"));
    Event a = makeEvent(30, EventKind::MessageAssigned, "m1", "worker-a");
    a.sequence = 1;
    a.receiveCount = 1;
    a.transaction = "t1";
    v.push_back(a);
    v.push_back(makeEvent(40, EventKind::WorkerCrashed, {}, "worker-a"));
    v.push_back(makeEvent(50, EventKind::Redelivered, "m1", "worker-b"));
    Event b = a;
    b.timeNs = 50;
    b.actor = "worker-b";
    b.transaction = "t2";
    v.push_back(b);
    v.push_back(makeEvent(60, EventKind::ConfigChanged, {}, "pool"));
    Event dl = makeEvent(70, EventKind::BrokerDeadLettered, "m1");
    dl.source = EventSource::Broker;
    dl.detail = "q.dlq";
    v.push_back(dl);
    return v;
}

}  // namespace

class TestRunLandmarks : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void kindsOfEvents() {
        QCOMPARE(landmarkOf(makeEvent(1, EventKind::Redelivered)), Landmark::Redelivery);
        QCOMPARE(landmarkOf(makeEvent(1, EventKind::BrokerDeadLettered)), Landmark::DeadLetter);
        QCOMPARE(landmarkOf(makeEvent(1, EventKind::WorkerCrashed)), Landmark::Crash);
        QCOMPARE(landmarkOf(makeEvent(1, EventKind::ConfigChanged)), Landmark::Marker);
        QVERIFY(!landmarkOf(makeEvent(1, EventKind::Acked)).has_value());
        QCOMPARE(landmarkName(Landmark::DeadLetter), std::string_view("dead-letter"));
    }

    void nextFromEveryIndex() {
        Run run;
        run.append(timeline());
        QCOMPARE(nextLandmark(run, 0, Landmark::Marker), std::optional<std::uint64_t>(1));
        QCOMPARE(nextLandmark(run, 1, Landmark::Marker), std::optional<std::uint64_t>(1));
        QCOMPARE(nextLandmark(run, 2, Landmark::Marker), std::optional<std::uint64_t>(6));
        QVERIFY(!nextLandmark(run, 7, Landmark::Marker).has_value());
        QCOMPARE(nextLandmark(run, 0, Landmark::Crash), std::optional<std::uint64_t>(3));
        QCOMPARE(nextLandmark(run, 0, Landmark::Redelivery), std::optional<std::uint64_t>(4));
        QCOMPARE(nextLandmark(run, 0, Landmark::DeadLetter), std::optional<std::uint64_t>(7));
        QVERIFY(!nextLandmark(run, 8, Landmark::DeadLetter).has_value());
        QVERIFY(!nextLandmark(run, 1000, Landmark::DeadLetter).has_value());
    }

    void previousFromEveryIndex() {
        Run run;
        run.append(timeline());
        QVERIFY(!previousLandmark(run, 0, Landmark::Marker).has_value());
        QVERIFY(!previousLandmark(run, 1, Landmark::Marker).has_value());
        QCOMPARE(previousLandmark(run, 2, Landmark::Marker), std::optional<std::uint64_t>(1));
        QCOMPARE(previousLandmark(run, 6, Landmark::Marker), std::optional<std::uint64_t>(1));
        QCOMPARE(previousLandmark(run, 7, Landmark::Marker), std::optional<std::uint64_t>(6));
        QCOMPARE(previousLandmark(run, 1000, Landmark::DeadLetter), std::optional<std::uint64_t>(7));
        QVERIFY(!previousLandmark(run, 3, Landmark::Crash).has_value());
    }

    void emptyRun() {
        Run run;
        QVERIFY(!nextLandmark(run, 0, Landmark::Crash).has_value());
        QVERIFY(!previousLandmark(run, 5, Landmark::Crash).has_value());
    }
};

QTEST_APPLESS_MAIN(TestRunLandmarks)
#include "tst_run_landmarks.moc"
