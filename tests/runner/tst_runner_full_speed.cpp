// Nothing is dropped: a headless run at the pool's full speed keeps every
// event its producer, workers and broker reported (issue #19).
#include <QtTest/QtTest>

#include "runner_test_support.h"

using namespace qs;
using namespace qs::test;

class TstRunnerFullSpeed : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // 8 workers taking batches of 50 with no work time drain 200,000 tasks as
    // fast as the embedded broker hands them out: the recorder must keep up.
    void fullSpeedRunLosesNoEvent() {
        runner::Scenario s;
        s.name = "full speed";
        s.channel = "full-speed";
        s.tasks.count = 200'000;
        s.tasks.body = "t{n}";
        runner::WorkerGroup group;
        group.count = 8;
        group.config.batchSize = 50;
        group.config.work = workers::WorkProfile::none();
        s.workers.push_back(group);
        s.untilDrained = true;
        s.timeoutSeconds = 600;  // bounds a failure only; the run ends when drained
        QVERIFY2(s.validate().empty(), s.validate().c_str());

        runner::RunOptions options;
        options.keepMessageRecords = false;
        const runner::RunResult r = runScenario(s, options);

        QVERIFY2(r.error.empty(), r.error.c_str());
        QVERIFY(r.drained);
        QCOMPARE(r.totals.count(MessageState::Acked), 200'000u);
        QCOMPARE(r.eventsDropped, 0u);
        QCOMPARE(r.totals.droppedEvents, 0u);
        // Every task was sent, stored, handed out, worked on and acked by both
        // sides: at least 8 events a task reached the ledger.
        QVERIFY2(r.eventsRecorded >= 8u * 200'000u,
                 qPrintable(QStringLiteral("%1 events recorded").arg(r.eventsRecorded)));
        qInfo("%llu events recorded in %.2f s, none dropped",
              static_cast<unsigned long long>(r.eventsRecorded), r.elapsedSeconds);
    }
};

QTEST_APPLESS_MAIN(TstRunnerFullSpeed)
#include "tst_runner_full_speed.moc"
