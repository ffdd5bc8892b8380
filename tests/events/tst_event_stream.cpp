#include <QTest>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "event_test_names.h"
#include "events/event_stream.h"

using namespace qs;
using namespace std::chrono_literals;

namespace {

// Long enough to live on the heap, so a torn or double-moved string shows.
std::string payloadFor(int producer, std::uint64_t seq) {
    return "producer-" + std::to_string(producer) + "-event-" + std::to_string(seq) +
           "-with-a-detail-longer-than-the-small-string-buffer";
}

Event makeEvent(int producer, std::uint64_t seq) {
    Event e;
    e.timeNs = static_cast<std::int64_t>(seq) + 1;
    e.kind = EventKind::WorkStarted;
    e.source = EventSource::Worker;
    e.actor = "p" + std::to_string(producer);
    e.sequence = seq;
    e.detail = payloadFor(producer, seq);
    return e;
}

// Checks every event of a drained run: per-producer FIFO, intact payloads,
// notices adding up. Returns the number of real events.
struct RunCheck {
    std::vector<std::uint64_t> nextMin;  // per producer: sequences must increase
    std::uint64_t real = 0;
    std::uint64_t noticed = 0;
    std::int64_t lastNoticeTotal = 0;
    bool ok = true;
    std::string why;

    explicit RunCheck(int producers) : nextMin(static_cast<std::size_t>(producers), 0) {}

    void take(const std::vector<Event>& batch) {
        for (const Event& e : batch) {
            if (e.kind == EventKind::EventsDropped) {
                if (e.value <= 0 || e.count2 != lastNoticeTotal + e.value)
                    fail("bad notice");
                noticed += static_cast<std::uint64_t>(e.value);
                lastNoticeTotal = e.count2;
                continue;
            }
            ++real;
            const std::string actor = e.actor.str();
            if (actor.size() < 2 || actor[0] != 'p') {
                fail("bad actor " + actor);
                continue;
            }
            const int p = std::stoi(actor.substr(1));
            if (p < 0 || p >= static_cast<int>(nextMin.size())) {
                fail("bad producer");
                continue;
            }
            auto& min = nextMin[static_cast<std::size_t>(p)];
            if (e.sequence < min)
                fail("out of order for " + actor);
            min = e.sequence + 1;
            if (e.detail != payloadFor(p, e.sequence))
                fail("corrupt payload " + e.detail);
        }
    }
    void fail(const std::string& w) {
        if (ok)
            why = w;
        ok = false;
    }
};

}  // namespace

class TestEventStream : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fullBufferDropsAndReportsInBand();
    void takeBatchHonoursMaxAndOrder();
    void noticeStaysBetweenEventsItSeparates();
    void constPushCopies();
    void batchPushKeepsOrderAndCountsDrops();
    void disabledStreamIsInert();
    void recordDroppedCountsExactly();
    void capacityCanChange();
    void producersNeverWaitForAStalledReader();
    void slowReaderFastProducersLoseNothingUncounted();
};

void TestEventStream::fullBufferDropsAndReportsInBand() {
    EventStream stream(3);
    for (std::uint64_t i = 0; i < 5; ++i)
        QCOMPARE(stream.push(makeEvent(0, i)), i < 3);
    QCOMPARE(stream.pushedCount(), 5u);
    QCOMPARE(stream.droppedCount(), 2u);

    std::vector<Event> out;
    QCOMPARE(stream.drain(out), std::size_t(4));
    QCOMPARE(out[0].sequence, 0u);
    QCOMPARE(out[2].sequence, 2u);
    QS_COMPARE_NAME(out[3].kind, EventKind::EventsDropped);
    QCOMPARE(out[3].value, 2);
    QCOMPARE(out[3].count2, 2);
    QCOMPARE(out[3].timeNs, 4);  // the first dropped event's time
    QVERIFY(!out[3].detail.empty());

    // Room again: accepted, and no stale notice.
    QVERIFY(stream.push(makeEvent(0, 5)));
    out.clear();
    QCOMPARE(stream.drain(out), std::size_t(1));
    QCOMPARE(out[0].sequence, 5u);

    const EventStreamStats s = stream.stats();
    QCOMPARE(s.pushed, 6u);
    QCOMPARE(s.accepted, 4u);
    QCOMPARE(s.dropped, 2u);
    QCOMPARE(s.delivered, 4u);
    QCOMPARE(s.notices, 1u);
    QCOMPARE(s.waiting, std::size_t(0));
    QCOMPARE(s.pushed, s.delivered + s.dropped);
}

void TestEventStream::batchPushKeepsOrderAndCountsDrops() {
    EventStream stream(5);
    std::vector<Event> batch;
    for (std::uint64_t i = 0; i < 3; ++i)
        batch.push_back(makeEvent(0, i));
    QCOMPARE(stream.push(batch), std::size_t(3));
    QVERIFY(batch.empty());
    for (std::uint64_t i = 3; i < 7; ++i)
        batch.push_back(makeEvent(0, i));
    QCOMPARE(stream.push(batch), std::size_t(2));  // room for two; two dropped
    QVERIFY(batch.empty());
    QCOMPARE(stream.push(batch), std::size_t(0));  // an empty batch is nothing at all
    QCOMPARE(stream.pushedCount(), 7u);
    QCOMPARE(stream.droppedCount(), 2u);

    std::vector<Event> out;
    QCOMPARE(stream.drain(out), std::size_t(6));
    for (std::uint64_t i = 0; i < 5; ++i) {
        QCOMPARE(out[i].sequence, i);
        QCOMPARE(out[i].detail, payloadFor(0, i));
    }
    QS_COMPARE_NAME(out[5].kind, EventKind::EventsDropped);
    QCOMPARE(out[5].value, 2);
    QCOMPARE(out[5].timeNs, 6);  // the first dropped event's time

    stream.setEnabled(false);
    batch.push_back(makeEvent(0, 9));
    QCOMPARE(stream.push(batch), std::size_t(0));
    QVERIFY(batch.empty());
    QCOMPARE(stream.pushedCount(), 7u);  // a disabled stream counts nothing
    const EventStreamStats st = stream.stats();
    QCOMPARE(st.pushed, st.delivered + st.dropped);
}

void TestEventStream::takeBatchHonoursMaxAndOrder() {
    EventStream stream(100);
    for (std::uint64_t i = 0; i < 7; ++i)
        stream.push(makeEvent(0, i));
    std::vector<Event> out;
    QCOMPARE(stream.takeBatch(out, 3), std::size_t(3));
    QCOMPARE(stream.stats().waiting, std::size_t(4));
    QCOMPARE(stream.takeBatch(out, 3), std::size_t(3));
    QCOMPARE(stream.takeBatch(out, 3), std::size_t(1));
    QCOMPARE(stream.takeBatch(out, 3), std::size_t(0));
    QCOMPARE(stream.takeBatch(out, 0), std::size_t(0));
    QCOMPARE(out.size(), std::size_t(7));
    for (std::uint64_t i = 0; i < 7; ++i) {
        QCOMPARE(out[i].sequence, i);
        QCOMPARE(out[i].detail, payloadFor(0, i));
    }
    QCOMPARE(stream.takeBatch(5).size(), std::size_t(0));
}

void TestEventStream::noticeStaysBetweenEventsItSeparates() {
    EventStream stream(3);
    for (std::uint64_t i = 0; i < 5; ++i)
        stream.push(makeEvent(0, i));  // 3, 4 dropped
    std::vector<Event> first = stream.takeBatch(2);
    QCOMPARE(first.size(), std::size_t(2));
    QVERIFY(stream.push(makeEvent(0, 5)));  // pushed after the drops
    std::vector<Event> rest = stream.takeBatch(10);
    QCOMPARE(rest.size(), std::size_t(3));
    QCOMPARE(rest[0].sequence, 2u);
    QS_COMPARE_NAME(rest[1].kind, EventKind::EventsDropped);
    QCOMPARE(rest[1].value, 2);
    QCOMPARE(rest[2].sequence, 5u);

    // A max that cuts right before the notice delivers it next time.
    for (std::uint64_t i = 6; i < 10; ++i)
        stream.push(makeEvent(0, i));  // 9 dropped
    QCOMPARE(stream.takeBatch(3).size(), std::size_t(3));
    std::vector<Event> tail = stream.takeBatch(1);
    QCOMPARE(tail.size(), std::size_t(1));
    QS_COMPARE_NAME(tail[0].kind, EventKind::EventsDropped);
    QCOMPARE(tail[0].value, 1);
    QCOMPARE(tail[0].count2, 3);
}

void TestEventStream::constPushCopies() {
    EventStream stream(4);
    const Event e = makeEvent(1, 42);
    QVERIFY(stream.push(e));
    QCOMPARE(e.detail, payloadFor(1, 42));  // untouched
    const auto out = stream.takeBatch(10);
    QCOMPARE(out.size(), std::size_t(1));
    QCOMPARE(out[0].detail, e.detail);
}

void TestEventStream::disabledStreamIsInert() {
    EventStream stream(4, false);
    QVERIFY(!stream.isEnabled());
    QVERIFY(!stream.push(makeEvent(0, 1)));
    QCOMPARE(stream.pushedCount(), 0u);
    QCOMPARE(stream.droppedCount(), 0u);
    QCOMPARE(stream.takeBatch(10).size(), std::size_t(0));

    stream.setEnabled(true);
    QVERIFY(stream.push(makeEvent(0, 2)));
    stream.setEnabled(false);  // what is buffered stays readable
    const auto out = stream.takeBatch(10);
    QCOMPARE(out.size(), std::size_t(1));
    QCOMPARE(out[0].sequence, 2u);
}

void TestEventStream::recordDroppedCountsExactly() {
    EventStream stream(4);
    stream.push(makeEvent(0, 0));
    stream.recordDropped(3, 77);
    stream.recordDropped(0);  // no-op
    QCOMPARE(stream.pushedCount(), 4u);
    QCOMPARE(stream.droppedCount(), 3u);
    const auto out = stream.takeBatch(10);
    QCOMPARE(out.size(), std::size_t(2));
    QS_COMPARE_NAME(out[1].kind, EventKind::EventsDropped);
    QCOMPARE(out[1].value, 3);
    QCOMPARE(out[1].timeNs, 77);
}

void TestEventStream::capacityCanChange() {
    EventStream stream(0);  // clamped to 1
    QCOMPARE(stream.capacity(), std::size_t(1));
    QVERIFY(stream.push(makeEvent(0, 0)));
    QVERIFY(!stream.push(makeEvent(0, 1)));
    stream.setCapacity(3);
    QVERIFY(stream.push(makeEvent(0, 2)));
    QVERIFY(stream.push(makeEvent(0, 3)));
    QVERIFY(!stream.push(makeEvent(0, 4)));
    std::vector<Event> out;
    stream.drain(out);
    // Each notice stands where its drop happened in push order.
    QCOMPARE(out.size(), std::size_t(5));
    QCOMPARE(out[0].sequence, 0u);
    QS_COMPARE_NAME(out[1].kind, EventKind::EventsDropped);
    QCOMPARE(out[1].value, 1);
    QCOMPARE(out[1].count2, 1);
    QCOMPARE(out[2].sequence, 2u);
    QCOMPARE(out[3].sequence, 3u);
    QS_COMPARE_NAME(out[4].kind, EventKind::EventsDropped);
    QCOMPARE(out[4].value, 1);
    QCOMPARE(out[4].count2, 2);
}

void TestEventStream::producersNeverWaitForAStalledReader() {
    constexpr int kProducers = 4;
    constexpr std::uint64_t kEach = 20000;
    constexpr std::size_t kCapacity = 64;
    EventStream stream(kCapacity);
    std::atomic<int> finished{0};
    std::vector<std::thread> threads;
    for (int p = 0; p < kProducers; ++p) {
        threads.emplace_back([&, p] {
            for (std::uint64_t i = 0; i < kEach; ++i)
                stream.push(makeEvent(p, i));
            finished.fetch_add(1);
        });
    }
    // Nobody reads. Blocking producers would never finish; the bound is
    // generous (a loaded machine, sanitizers) - only a hang fails it.
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (finished.load() < kProducers && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(5ms);
    if (finished.load() < kProducers)
        qFatal("producers blocked on a full, unread stream");
    for (auto& t : threads)
        t.join();

    QCOMPARE(stream.pushedCount(), kProducers * kEach);
    QCOMPARE(stream.droppedCount(), kProducers * kEach - kCapacity);
    std::vector<Event> out;
    stream.drain(out);
    QCOMPARE(out.size(), kCapacity + 1);
    QS_COMPARE_NAME(out.back().kind, EventKind::EventsDropped);
    QCOMPARE(static_cast<std::uint64_t>(out.back().value), kProducers * kEach - kCapacity);
    RunCheck check(kProducers);
    check.take(out);
    QVERIFY2(check.ok, check.why.c_str());
}

void TestEventStream::slowReaderFastProducersLoseNothingUncounted() {
    constexpr int kProducers = 4;
    constexpr std::uint64_t kEach = 30000;
    EventStream stream(256);
    std::atomic<int> finished{0};
    std::vector<std::thread> threads;
    std::vector<std::chrono::nanoseconds> took(kProducers);
    for (int p = 0; p < kProducers; ++p) {
        threads.emplace_back([&, p] {
            const auto start = std::chrono::steady_clock::now();
            if (p == kProducers - 1) {  // this one pushes groups of several sizes
                std::vector<Event> some;
                const std::size_t sizes[] = {7, 23, 1, 60};
                std::size_t turn = 0;
                for (std::uint64_t i = 0; i < kEach; ++i) {
                    some.push_back(makeEvent(p, i));
                    if (some.size() == sizes[turn % 4] || i + 1 == kEach) {
                        stream.push(some);
                        ++turn;
                    }
                }
                took[static_cast<std::size_t>(p)] = std::chrono::steady_clock::now() - start;
                finished.fetch_add(1);
                return;
            }
            for (std::uint64_t i = 0; i < kEach; ++i) {
                if (i % 2 == 0) {
                    stream.push(makeEvent(p, i));
                } else {
                    const Event e = makeEvent(p, i);
                    stream.push(e);
                }
            }
            took[static_cast<std::size_t>(p)] = std::chrono::steady_clock::now() - start;
            finished.fetch_add(1);
        });
    }

    // A reader well below the producers' pace: small batches, a nap between.
    RunCheck check(kProducers);
    std::vector<Event> batch;
    int reads = 0;
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (finished.load() < kProducers && std::chrono::steady_clock::now() < deadline) {
        batch.clear();
        stream.takeBatch(batch, 100);
        check.take(batch);
        ++reads;
        std::this_thread::sleep_for(1ms);
    }
    if (finished.load() < kProducers)
        qFatal("producers did not finish within 60 s");
    for (auto& t : threads)
        t.join();
    do {
        batch.clear();
        stream.drain(batch);
        check.take(batch);
    } while (!batch.empty());

    QVERIFY2(check.ok, check.why.c_str());
    const EventStreamStats s = stream.stats();
    QCOMPARE(s.pushed, kProducers * kEach);
    QCOMPARE(s.delivered, check.real);
    QCOMPARE(s.dropped, check.noticed);
    QCOMPARE(s.pushed, s.delivered + s.dropped);
    QCOMPARE(s.waiting, std::size_t(0));
    QVERIFY(s.dropped > 0);  // the reader really was slower
    QVERIFY(reads > 0);
    for (const auto& t : took)
        QVERIFY(t < 60s);
    qInfo("pushed %llu, delivered %llu, dropped %llu in %d reads; slowest producer %.1f ms",
          static_cast<unsigned long long>(s.pushed), static_cast<unsigned long long>(s.delivered),
          static_cast<unsigned long long>(s.dropped), reads,
          std::chrono::duration<double, std::milli>(*std::max_element(took.begin(), took.end()))
              .count());
}

QTEST_APPLESS_MAIN(TestEventStream)
#include "tst_event_stream.moc"
