// naturalLess: numbers inside names compare as numbers.
#include <QtTest/QtTest>
#include <algorithm>
#include <string>
#include <vector>

#include "analysis/natural_order.h"

using qs::analysis::naturalLess;

class NaturalOrder : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void workersInNumberOrder() {
        std::vector<std::string> names = {"worker-10", "worker-2",  "worker-1", "b",
                                          "a",         "worker-02", "worker-1x"};
        std::sort(names.begin(), names.end(),
                  [](const std::string& x, const std::string& y) { return naturalLess(x, y); });
        const std::vector<std::string> expected = {"a",        "b",         "worker-1", "worker-1x",
                                                   "worker-2", "worker-02", "worker-10"};
        // worker-2 and worker-02 are equal as numbers: either order is fine.
        QCOMPARE(names.size(), expected.size());
        QCOMPARE(names[0], expected[0]);
        QCOMPARE(names[2], expected[2]);
        QCOMPARE(names[3], expected[3]);
        QCOMPARE(names.back(), std::string("worker-10"));
    }

    void strictWeakOrder() {
        QVERIFY(!naturalLess("worker-1", "worker-1"));
        QVERIFY(naturalLess("worker", "worker-1"));
        QVERIFY(!naturalLess("worker-1", "worker"));
        QVERIFY(naturalLess("w9", "w10"));
        QVERIFY(!naturalLess("w10", "w9"));
    }
};

QTEST_APPLESS_MAIN(NaturalOrder)
#include "tst_natural_order.moc"
