#include <QTest>
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "events/broker_observer.h"
#include "event_test_names.h"
#include "events/broker_event_sink.h"
#include "events/event_stream.h"

using namespace qs;

class TestBrokerEventSink : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void forwardsEventsUnchanged();
    void stampsEventsWithoutTime();
    void disabledStreamTakesNothing();
    void concurrentBrokerThreadsShareOneTimeline();
};

namespace {

Event brokerEvent(EventKind kind, std::string id, std::uint64_t seq) {
    Event e;
    e.timeNs = 1000 + static_cast<std::int64_t>(seq);
    e.kind = kind;
    e.source = EventSource::Broker;
    e.actor = "client-1";
    e.channel = "q";
    e.messageId = std::move(id);
    e.sequence = seq;
    e.receiveCount = 1;
    e.transaction = "tx-1";
    return e;
}

}  // namespace

void TestBrokerEventSink::forwardsEventsUnchanged() {
    EventStream stream(16);
    BrokerEventSink sink(stream);
    BrokerObserver& observer = sink;  // used through the broker's interface
    const Event in = brokerEvent(EventKind::BrokerDelivered, "m1", 7);
    observer.onBrokerEvent(in);
    const auto out = stream.takeBatch(10);
    QCOMPARE(out.size(), std::size_t(1));
    QCOMPARE(out[0].timeNs, in.timeNs);
    QS_COMPARE_NAME(out[0].kind, EventKind::BrokerDelivered);
    QS_COMPARE_NAME(out[0].source, EventSource::Broker);
    QCOMPARE(out[0].actor, in.actor);
    QCOMPARE(out[0].messageId, in.messageId);
    QCOMPARE(out[0].sequence, in.sequence);
    QCOMPARE(out[0].transaction, in.transaction);
}

void TestBrokerEventSink::stampsEventsWithoutTime() {
    EventStream stream(16);
    BrokerEventSink sink(stream);
    Event in = brokerEvent(EventKind::BrokerStored, "m1", 1);
    in.timeNs = 0;
    sink.onBrokerEvent(in);
    const auto out = stream.takeBatch(10);
    QCOMPARE(out.size(), std::size_t(1));
    QVERIFY(out[0].timeNs > 0);
}

void TestBrokerEventSink::disabledStreamTakesNothing() {
    EventStream stream(16, false);
    BrokerEventSink sink(stream);
    sink.onBrokerEvent(brokerEvent(EventKind::BrokerAcked, "m1", 1));
    QCOMPARE(stream.pushedCount(), 0u);
    QCOMPARE(stream.takeBatch(10).size(), std::size_t(0));
}

void TestBrokerEventSink::concurrentBrokerThreadsShareOneTimeline() {
    // Broker gRPC threads and worker threads push at once into one small stream.
    constexpr int kBrokerThreads = 3;
    constexpr std::uint64_t kEach = 10000;
    EventStream stream(512);
    BrokerEventSink sink(stream);
    std::vector<std::thread> threads;
    for (int t = 0; t < kBrokerThreads; ++t) {
        threads.emplace_back([&, t] {
            for (std::uint64_t i = 1; i <= kEach; ++i)
                sink.onBrokerEvent(
                    brokerEvent(EventKind::BrokerDelivered, "b" + std::to_string(t), i));
        });
    }
    threads.emplace_back([&] {
        for (std::uint64_t i = 1; i <= kEach; ++i) {
            Event e = brokerEvent(EventKind::MessageAssigned, "worker", i);
            e.source = EventSource::Worker;
            stream.push(std::move(e));
        }
    });
    std::atomic<bool> done{false};
    std::uint64_t real = 0;
    std::uint64_t noticed = 0;
    std::vector<Event> batch;
    std::thread reader([&] {
        while (true) {
            const bool last = done.load();
            batch.clear();
            stream.drain(batch);
            for (const Event& e : batch) {
                if (e.kind == EventKind::EventsDropped) {
                    noticed += static_cast<std::uint64_t>(e.value);
                } else {
                    ++real;
                }
            }
            if (last && batch.empty())
                break;
            std::this_thread::yield();
        }
    });
    for (auto& t : threads)
        t.join();
    done = true;
    reader.join();
    const std::uint64_t total = (kBrokerThreads + 1) * kEach;
    QCOMPARE(stream.pushedCount(), total);
    QCOMPARE(real + noticed, total);
    QCOMPARE(noticed, stream.droppedCount());
}

QTEST_APPLESS_MAIN(TestBrokerEventSink)
#include "tst_broker_event_sink.moc"
