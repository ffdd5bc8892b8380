// ChannelHistory (client/channel_history.h): rates per second from the
// counters of successive channel-list polls; a counter that went down is a
// reset counted from zero; levels kept as read; a channel that leaves the
// list and comes back is compared with its last counters; bounded memory.
#include <QTest>

#include "client/channel_history.h"

using namespace qs::client;

namespace {

constexpr std::int64_t kSecond = 1'000'000'000;

QueueChannelInfo channel(const std::string& name, std::int64_t sent, std::int64_t delivered,
                         std::int64_t waiting, std::int64_t expired = 0,
                         std::int64_t delayed = 0) {
    QueueChannelInfo c;
    c.name = name;
    c.incoming.messages = sent;
    c.incoming.waiting = waiting;
    c.incoming.expired = expired;
    c.incoming.delayed = delayed;
    c.outgoing.messages = delivered;
    return c;
}

}  // namespace

class TestChannelHistory : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void ratesBetweenPolls() {
        ChannelHistory h;
        h.record(10 * kSecond, {channel("q", 100, 40, 60, 1, 2)});
        QVERIFY(h.rates("q").empty());  // one poll: no interval yet
        QVERIFY(h.latest("q") == nullptr);
        h.record(12 * kSecond, {channel("q", 300, 140, 160, 5, 3)});
        const ChannelRatePoint* p = h.latest("q");
        QVERIFY(p != nullptr);
        QCOMPARE(p->timeNs, 12 * kSecond);
        QCOMPARE(p->seconds, 2.0);
        QCOMPARE(p->sentPerSecond, 100.0);
        QCOMPARE(p->deliveredPerSecond, 50.0);
        QCOMPARE(p->expiredPerSecond, 2.0);
        QCOMPARE(p->waiting, std::int64_t{160});
        QCOMPARE(p->delayed, std::int64_t{3});
        QCOMPARE(p->clients, std::int64_t{-1});  // not reported
        QVERIFY(!p->counterReset);
        QVERIFY(h.rates("other").empty());
        QCOMPARE(h.polls(), std::size_t{2});
    }

    // QueuesInfo carries waiting on both sides, the list on either; clients
    // (consumers polling) is a level like waiting.
    void levelsFromEitherDirectionAndClients() {
        ChannelHistory h;
        QueueChannelInfo c = channel("q", 10, 0, 0);
        h.record(1 * kSecond, {c});
        c.outgoing.waiting = 7;
        c.outgoing.delayed = 4;
        c.clients = 3;
        h.record(2 * kSecond, {c});
        QCOMPARE(h.latest("q")->waiting, std::int64_t{7});
        QCOMPARE(h.latest("q")->delayed, std::int64_t{4});
        QCOMPARE(h.latest("q")->clients, std::int64_t{3});
    }

    // The server restarted (or the channel was made again): 50 since zero.
    void aCounterThatWentDownIsAReset() {
        ChannelHistory h;
        h.record(1 * kSecond, {channel("q", 1000, 900, 100)});
        h.record(2 * kSecond, {channel("q", 50, 20, 30)});
        const ChannelRatePoint* p = h.latest("q");
        QVERIFY(p->counterReset);
        QCOMPARE(p->sentPerSecond, 50.0);
        QCOMPARE(p->deliveredPerSecond, 20.0);
        h.record(3 * kSecond, {channel("q", 60, 25, 35)});
        QVERIFY(!h.latest("q")->counterReset);
        QCOMPARE(h.latest("q")->sentPerSecond, 10.0);
    }

    void aChannelThatLeftAndCameBack() {
        ChannelHistory h;
        h.record(1 * kSecond, {channel("a", 10, 0, 10), channel("b", 5, 5, 0)});
        h.record(2 * kSecond, {channel("a", 20, 0, 20)});  // b not listed
        h.record(5 * kSecond, {channel("a", 30, 0, 30), channel("b", 35, 5, 30)});
        QCOMPARE(h.rates("a").size(), std::size_t{2});
        QCOMPARE(h.rates("b").size(), std::size_t{1});
        QCOMPARE(h.latest("b")->seconds, 4.0);  // since its last poll
        QCOMPARE(h.latest("b")->sentPerSecond, 7.5);
    }

    void aPollNoLaterThanTheLastIsIgnored() {
        ChannelHistory h;
        h.record(5 * kSecond, {channel("q", 10, 0, 10)});
        h.record(5 * kSecond, {channel("q", 20, 0, 20)});
        h.record(4 * kSecond, {channel("q", 30, 0, 30)});
        QVERIFY(h.rates("q").empty());
        QCOMPARE(h.polls(), std::size_t{1});
    }

    void memoryIsBounded() {
        ChannelHistory h(3);
        for (int i = 0; i < 10; ++i)
            h.record(i * kSecond + 1, {channel("q", i * 10, 0, 0)});
        QCOMPARE(h.rates("q").size(), std::size_t{3});
        QCOMPARE(h.rates("q").front().timeNs, 7 * kSecond + 1);
        h.clear();
        QVERIFY(h.rates("q").empty());
        QCOMPARE(h.polls(), std::size_t{0});
    }
};

QTEST_APPLESS_MAIN(TestChannelHistory)
#include "tst_channel_history.moc"
