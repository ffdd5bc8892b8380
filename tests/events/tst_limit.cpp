// Limit: the one record of a setting's range, and the texts made from it.
#include <QtTest/QtTest>
#include <cmath>
#include <limits>

#include "common/limit.h"
#include "common/protocol_limits.h"
#include "workers/setting_limits.h"

using qs::Limit;
namespace protocol = qs::protocol;
namespace wl = qs::workers::limits;

class TstLimit : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void containsIsInclusive() {
        constexpr Limit<int> batch{"batch size", 1, 1024, 1};
        static_assert(batch.contains(1) && batch.contains(1024));
        QVERIFY(!batch.contains(0));
        QVERIFY(!batch.contains(1025));
    }

    void notANumberIsOutside() {
        constexpr Limit<double> rate{"failure rate", 0.0, 1.0, 0.0};
        QVERIFY(rate.contains(0.5));
        QVERIFY(!rate.contains(std::numeric_limits<double>::quiet_NaN()));
        QVERIFY(!rate.contains(std::numeric_limits<double>::infinity()));
        QVERIFY(!rate.contains(-0.001));
    }

    void textsNameTheRangeAndUnit() {
        constexpr Limit<int> wait{"wait timeout", 0, 3'600'000, 1000, "ms"};
        QCOMPARE(wait.range(), std::string("0..3600000 ms"));
        QCOMPARE(wait.bounds(), std::string("between 0 and 3600000 ms"));
        QCOMPARE(wait.problem(10), std::string());
        QCOMPARE(wait.problem(-1),
                 std::string("wait timeout must be between 0 and 3600000 ms (got -1)"));
        constexpr Limit<double> rate{"crash rate", 0.0, 1.0, 0.0};
        QCOMPARE(rate.problem(1.5), std::string("crash rate must be between 0 and 1 (got 1.5)"));
        QCOMPARE(rate.problem(std::numeric_limits<double>::quiet_NaN()),
                 std::string("crash rate must be between 0 and 1 (got nan)"));
        // Whole numbers in full, never "8.64e+07".
        QCOMPARE(wl::kWorkMs.range(), std::string("0..86400000 ms"));
    }

    void scaledKeepsTheNameAndConvertsTheBounds() {
        constexpr Limit<double> seconds = wl::kWaitMs.scaled(0.001, "s");
        QCOMPARE(std::string(seconds.name), std::string(wl::kWaitMs.name));
        QCOMPARE(seconds.min, 0.0);
        QCOMPARE(seconds.max, 3600.0);
        QCOMPARE(seconds.defaultValue, 1.0);
        QCOMPARE(seconds.range(), std::string("0..3600 s"));
    }

    // The pool settings that are protocol values are built on them (spec §2.15).
    void poolSettingsFollowTheProtocol() {
        QCOMPARE(wl::kBatchSize.min, 1);
        QCOMPARE(wl::kBatchSize.max, protocol::kMaxNumberOfMessages.max);
        QCOMPARE(protocol::kMaxNumberOfMessages.max, 1024);
        QCOMPARE(wl::kWaitMs.max, protocol::kWaitTimeSeconds.max * 1000);
        QCOMPARE(protocol::kMaxReceiveCount.max, 1024);
        QCOMPARE(protocol::kDelaySeconds.max, 43200);
        QCOMPARE(protocol::kExpirationSeconds.max, 43200);
    }
};

QTEST_APPLESS_MAIN(TstLimit)
#include "tst_limit.moc"
