#include <QTest>

#include "events/latency_samples.h"

using namespace qs;

class TestLatencySamples : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void emptyIsAllZero();
    void nearestRankPercentiles();
    void unsortedInputAndSingleSample();
    void reservoirKeepsExactMomentsAndIsReproducible();
};

void TestLatencySamples::emptyIsAllZero() {
    const LatencyStats s = LatencySamples().stats();
    QCOMPARE(s.count, 0u);
    QCOMPARE(s.p95Ns, 0);
    QCOMPARE(s.meanNs, 0.0);
    QVERIFY(!s.estimated);
}

void TestLatencySamples::nearestRankPercentiles() {
    LatencySamples a;
    for (int i = 1; i <= 20; ++i)
        a.add(i);
    LatencyStats s = a.stats();
    QCOMPARE(s.count, 20u);
    QCOMPARE(s.p50Ns, 10);  // 10th of 20
    QCOMPARE(s.p95Ns, 19);  // ceil(0.95 * 20) = 19th
    QCOMPARE(s.minNs, 1);
    QCOMPARE(s.maxNs, 20);
    QCOMPARE(s.meanNs, 10.5);

    LatencySamples b;
    for (int i = 1; i <= 10; ++i)
        b.add(i * 100);
    s = b.stats();
    QCOMPARE(s.p50Ns, 500);
    QCOMPARE(s.p95Ns, 1000);  // ceil(9.5) = 10th
    b.add(5);                 // the cache must notice new samples
    QCOMPARE(b.stats().count, 11u);
    QCOMPARE(b.stats().minNs, 5);
    QCOMPARE(b.stats().p50Ns, 500);  // 6th of 11: 5,100,...,500
}

void TestLatencySamples::unsortedInputAndSingleSample() {
    LatencySamples a;
    for (const int v : {90, 10, 50, 70, 30})
        a.add(v);
    QCOMPARE(a.stats().p50Ns, 50);
    QCOMPARE(a.stats().p95Ns, 90);
    LatencySamples one;
    one.add(42);
    QCOMPARE(one.stats().p50Ns, 42);
    QCOMPARE(one.stats().p95Ns, 42);
}

void TestLatencySamples::reservoirKeepsExactMomentsAndIsReproducible() {
    LatencySamples a(10);
    LatencySamples b(10);
    for (int i = 1; i <= 1000; ++i) {
        a.add(i);
        b.add(i);
    }
    const LatencyStats s = a.stats();
    QCOMPARE(s.count, 1000u);
    QVERIFY(s.estimated);
    QCOMPARE(s.meanNs, 500.5);
    QCOMPARE(s.minNs, 1);
    QCOMPARE(s.maxNs, 1000);
    QVERIFY(s.p50Ns >= 1 && s.p50Ns <= 1000);
    QVERIFY(s.p95Ns >= s.p50Ns);
    QCOMPARE(b.stats().p50Ns, s.p50Ns);
    QCOMPARE(b.stats().p95Ns, s.p95Ns);
}

QTEST_APPLESS_MAIN(TestLatencySamples)
#include "tst_latency_samples.moc"
