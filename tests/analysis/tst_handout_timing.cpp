// The timing class of a poll (analysis/handout_timing.h): a full batch is at
// once whatever it waited; a batch not full either waited out its timeout
// (taken at the 1 s floor both brokers apply) or came back early, which no
// KubeMQ server does; a poll whose start was not recorded is unknown.
#include <QtTest/QtTest>

#include "analysis/handout_timing.h"

using namespace qs::analysis;

class TstHandOutTiming : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void classes_data() {
        QTest::addColumn<int>("requested");
        QTest::addColumn<int>("waitMs");
        QTest::addColumn<int>("received");
        QTest::addColumn<int>("waitedMs");
        QTest::addColumn<int>("timing");
        const int full = static_cast<int>(HandOutTiming::FullBatch);
        const int after = static_cast<int>(HandOutTiming::AfterWaitTimeout);
        const int early = static_cast<int>(HandOutTiming::EarlyPartial);
        const int unknown = static_cast<int>(HandOutTiming::Unknown);
        QTest::newRow("full at once") << 5 << 10000 << 5 << 3 << full;
        QTest::newRow("full, slow machine") << 5 << 1000 << 5 << 1500 << full;
        QTest::newRow("partial at the timeout") << 3 << 1000 << 2 << 1001 << after;
        QTest::newRow("empty at the timeout") << 3 << 10000 << 0 << 10002 << after;
        QTest::newRow("90 % of the wait") << 3 << 2000 << 1 << 1800 << after;
        QTest::newRow("partial early") << 3 << 2000 << 1 << 1799 << early;
        QTest::newRow("wait below the floor") << 3 << 200 << 1 << 950 << after;
        QTest::newRow("wait below the floor, early") << 3 << 200 << 1 << 300 << early;
        QTest::newRow("start not recorded") << 0 << 0 << 2 << 5 << unknown;
    }
    void classes() {
        QFETCH(int, requested);
        QFETCH(int, waitMs);
        QFETCH(int, received);
        QFETCH(int, waitedMs);
        QFETCH(int, timing);
        const PollRecord poll{requested, waitMs, received, waitedMs};
        QCOMPARE(static_cast<int>(timingOf(poll)), timing);
    }
    void namesAreDistinct() {
        QStringList names;
        for (int t = 0; t < kHandOutTimingCount; ++t) {
            names << QString::fromUtf8(handOutTimingName(static_cast<HandOutTiming>(t)).data());
        }
        names.removeDuplicates();
        QCOMPARE(names.size(), kHandOutTimingCount);
    }
};

QTEST_APPLESS_MAIN(TstHandOutTiming)
#include "tst_handout_timing.moc"
