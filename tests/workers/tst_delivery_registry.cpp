// DeliveryRegistry: recognises a redelivery by MessageID and forgets a
// message once it is settled for good, so it holds only what is in flight.
#include <QTest>
#include <string>
#include <thread>
#include <vector>

#include "workers/delivery_registry.h"

using qs::workers::DeliveryRegistry;

class TestDeliveryRegistry : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void recognisesASecondHandOut() {
        DeliveryRegistry registry;
        QVERIFY(!registry.record("m1", "worker-1"));
        const auto again = registry.record("m1", "worker-2");
        QVERIFY(again);
        QCOMPARE(again->worker, std::string("worker-1"));
        QCOMPARE(again->deliveries, 1);
        QCOMPARE(registry.deliveries("m1"), 2);
        QVERIFY(!registry.record("", "worker-1"));  // no identity, nothing to remember
        QCOMPARE(registry.distinctMessages(), std::uint64_t(1));
    }

    void forgetsSettledMessages() {
        DeliveryRegistry registry;
        registry.record("m1", "worker-1");
        registry.record("m2", "worker-1");
        registry.forget("m1");
        registry.forget("never-seen");  // harmless
        QCOMPARE(registry.deliveries("m1"), 0);
        QCOMPARE(registry.distinctMessages(), std::uint64_t(1));
        // A message re-sent under the same id after its ack is a new message.
        QVERIFY(!registry.record("m1", "worker-2"));
        QVERIFY(registry.record("m2", "worker-2"));
    }

    // Four threads record and settle 20,000 messages each: the registry ends
    // empty, and every hand-out seen twice was reported as a redelivery.
    void staysSmallUnderConcurrentUse() {
        DeliveryRegistry registry;
        constexpr int kThreads = 4;
        constexpr int kPerThread = 20000;
        std::vector<int> repeats(kThreads, 0);
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back([&registry, &repeats, t] {
                const std::string worker = "worker-" + std::to_string(t);
                for (int i = 0; i < kPerThread; ++i) {
                    const std::string id = worker + ":" + std::to_string(i);
                    registry.record(id, worker);
                    if (i % 10 == 0 && registry.record(id, worker))  // handed out again
                        ++repeats[static_cast<std::size_t>(t)];
                    registry.forget(id);
                }
            });
        }
        for (auto& thread : threads)
            thread.join();
        QCOMPARE(registry.distinctMessages(), std::uint64_t(0));
        for (int r : repeats)
            QCOMPARE(r, kPerThread / 10);
    }
};

QTEST_APPLESS_MAIN(TestDeliveryRegistry)
#include "tst_delivery_registry.moc"
