#include <QTest>
#include <chrono>
#include <thread>

#include "broker/channel_name.h"
#include "broker/event_sink.h"
#include "broker/message_codec.h"
#include "broker/queue_engine.h"

using namespace qs::broker;

namespace {
StoredMessage makeMessage(const std::string& id, int maxReceiveCount = 1024,
                          const std::string& dlq = {}) {
    kubemq::QueueMessage wire;
    wire.set_clientid("producer");
    wire.set_body("body-" + id);
    StoredMessage message;
    message.content = encodeContent(wire, id);
    message.maxReceiveCount = maxReceiveCount;
    if (!dlq.empty())
        message.setRouting(dlq, {});
    return message;
}

std::vector<StoredMessage> take(QueueEngine& engine, const std::string& channel, int max,
                                CollectResult* result = nullptr, CollectOptions options = {}) {
    std::vector<StoredMessage> out;
    const auto r = engine.collect(*engine.channel(channel), max, options, out, Actor{});
    if (result)
        *result = r;
    return out;
}

QString idOf(const StoredMessage& message) {
    return QString::fromStdString(std::string(messageIdOf(message.content)));
}
}  // namespace

class TestQueueEngine : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() {
        sink_ = std::make_unique<EventSink>();
        engine_ = std::make_unique<QueueEngine>(*sink_);
        engine_->start();
    }
    void cleanup() {
        engine_.reset();
        sink_.reset();
    }

    void channelNames_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("check");
        QTest::newRow("plain") << "orders" << int(ChannelNameCheck::Valid);
        QTest::newRow("dotted") << "a.b.c" << int(ChannelNameCheck::Valid);
        QTest::newRow("empty") << "" << int(ChannelNameCheck::Invalid);
        QTest::newRow("trailing dot") << "a." << int(ChannelNameCheck::Invalid);
        QTest::newRow("space") << "a b" << int(ChannelNameCheck::Invalid);
        QTest::newRow("star") << "a.*" << int(ChannelNameCheck::Invalid);
        QTest::newRow("gt") << "a.>" << int(ChannelNameCheck::Invalid);
        QTest::newRow("tab") << "a\tb" << int(ChannelNameCheck::Invalid);
        QTest::newRow("slash") << "a/b" << int(ChannelNameCheck::PublishRejected);
        QTest::newRow("double dot") << "a..b" << int(ChannelNameCheck::PublishRejected);
        QTest::newRow("leading dot") << ".a" << int(ChannelNameCheck::PublishRejected);
        QTest::newRow("colon") << "a:b" << int(ChannelNameCheck::ReceiveRejected);
    }
    void channelNames() {
        QFETCH(QString, name);
        QFETCH(int, check);
        QCOMPARE(int(checkChannelName(name.toStdString())), check);
    }

    void messageIdIsReadFromContent() {
        QCOMPARE(idOf(makeMessage("abc")), QStringLiteral("abc"));
        QVERIFY(messageIdOf(std::string("\x12\x01x", 3)).empty());
    }

    void sequencesStartAtOnePerChannel() {
        for (int i = 0; i < 3; ++i)
            engine_->send("qa", makeMessage("a" + std::to_string(i)), "p");
        engine_->send("qb", makeMessage("b0"), "p");
        const auto a = take(*engine_, "qa", 10);
        QCOMPARE(a.size(), std::size_t(3));
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(a[i].sequence, std::uint64_t(i + 1));
            QCOMPARE(a[i].receiveCount, 1);
            QVERIFY(i == 0 || a[i].timestamp >= a[i - 1].timestamp);
        }
        const auto b = take(*engine_, "qb", 10);
        QCOMPARE(b.size(), std::size_t(1));
        QCOMPARE(b[0].sequence, std::uint64_t(1));
    }

    void returnedMessageGoesBackToItsPosition() {
        for (int i = 1; i <= 3; ++i)
            engine_->send("q", makeMessage("m" + std::to_string(i)), "p");
        auto first = take(*engine_, "q", 2);
        QCOMPARE(first.size(), std::size_t(2));
        auto channel = engine_->channel("q");
        QVERIFY(engine_->giveBack(*channel, first[0].sequence, Actor{}));
        QVERIFY(!engine_->giveBack(*channel, first[0].sequence, Actor{}));  // not reserved any more
        const auto again = take(*engine_, "q", 10);
        QCOMPARE(again.size(), std::size_t(2));
        QCOMPARE(again[0].sequence, std::uint64_t(1));
        QCOMPARE(again[0].receiveCount, 1);  // redelivery after return does not count
        QCOMPARE(again[1].sequence, std::uint64_t(3));
    }

    void nackCopiesToTailWithHigherCount() {
        engine_->send("q", makeMessage("A"), "p");
        engine_->send("q", makeMessage("B"), "p");
        auto got = take(*engine_, "q", 1);
        QCOMPARE(idOf(got[0]), QStringLiteral("A"));
        QVERIFY(engine_->nack(*engine_->channel("q"), got[0].sequence, Actor{}));
        const auto next = take(*engine_, "q", 10);
        QCOMPARE(next.size(), std::size_t(2));
        QCOMPARE(idOf(next[0]), QStringLiteral("B"));
        QCOMPARE(idOf(next[1]), QStringLiteral("A"));
        QCOMPARE(next[1].sequence, std::uint64_t(3));
        QCOMPARE(next[1].receiveCount, 2);
    }

    void ackRemovesForGood() {
        engine_->send("q", makeMessage("A"), "p");
        auto got = take(*engine_, "q", 1);
        auto channel = engine_->channel("q");
        QVERIFY(engine_->ack(*channel, got[0].sequence, Actor{}));
        QVERIFY(!engine_->ack(*channel, got[0].sequence, Actor{}));
        QVERIFY(take(*engine_, "q", 10).empty());
        QCOMPARE(channel->stats().storedMessages, std::uint64_t(0));
    }

    void maxReceiveCountDeadLetters() {
        engine_->send("src", makeMessage("A", 2, "dlq"), "p");
        for (int round = 1; round <= 2; ++round) {
            auto got = take(*engine_, "src", 1);
            QCOMPARE(got.size(), std::size_t(1));
            QCOMPARE(got[0].receiveCount, round);
            QVERIFY(engine_->nack(*engine_->channel("src"), got[0].sequence, Actor{}));
        }
        QVERIFY(take(*engine_, "src", 10).empty());
        const auto dead = take(*engine_, "dlq", 10);
        QCOMPARE(dead.size(), std::size_t(1));
        QCOMPARE(idOf(dead[0]), QStringLiteral("A"));
        QVERIFY(dead[0].reRouted);
        QCOMPARE(QString::fromStdString(dead[0].reRoutedFromQueue()), QStringLiteral("src"));
        QCOMPARE(dead[0].receiveCount, 1);
        QCOMPARE(dead[0].maxReceiveCount, 0);
        QCOMPARE(dead[0].sequence, std::uint64_t(1));
    }

    void maxReceiveCountWithoutQueueDrops() {
        engine_->send("src", makeMessage("A", 1), "p");
        auto got = take(*engine_, "src", 1);
        QVERIFY(engine_->nack(*engine_->channel("src"), got[0].sequence, Actor{}));
        QVERIFY(take(*engine_, "src", 10).empty());
        QCOMPARE(engine_->channels().size(), std::size_t(1));
    }

    void expiredMessagesAreRemovedLazily() {
        auto message = makeMessage("E");
        message.expirationSeconds = 1;
        engine_->send("q", std::move(message), "p");
        engine_->send("q", makeMessage("F"), "p");
        QCOMPARE(engine_->channel("q")->stats().storedMessages, std::uint64_t(2));
        std::this_thread::sleep_for(std::chrono::milliseconds(1100));
        CollectResult result;
        const auto got = take(*engine_, "q", 10, &result);
        QCOMPARE(result.expired, 1);
        QCOMPARE(got.size(), std::size_t(1));
        QCOMPARE(idOf(got[0]), QStringLiteral("F"));
    }

    void getCountsDroppedMessagesAgainstMax() {
        auto message = makeMessage("E");
        message.expirationSeconds = 1;
        engine_->send("q", std::move(message), "p");
        engine_->send("q", makeMessage("F"), "p");
        std::this_thread::sleep_for(std::chrono::milliseconds(1100));
        CollectResult result;
        const auto got =
            take(*engine_, "q", 1, &result, CollectOptions{CheckOrder::ExpiryFirst, true});
        QCOMPARE(result.counted, 1);
        QVERIFY(got.empty());
    }

    void delayedMessageIsSequencedAtRelease() {
        auto delayed = makeMessage("M1");
        delayed.delaySeconds = 1;
        const auto stored = engine_->send("q", std::move(delayed), "p");
        QVERIFY(stored.delayedTo > 0);
        QCOMPARE(stored.sequence, std::uint64_t(0));
        engine_->send("q", makeMessage("M2"), "p");
        QCOMPARE(engine_->delayedCount(), std::size_t(1));
        QCOMPARE(engine_->channel("q")->stats().delayedMessages, std::uint64_t(1));
        auto early = take(*engine_, "q", 10);
        QCOMPARE(early.size(), std::size_t(1));
        QCOMPARE(idOf(early[0]), QStringLiteral("M2"));
        // Released 1 s after the send; the deadline is for starved sanitizer runs.
        QTRY_COMPARE_WITH_TIMEOUT(engine_->delayedCount(), std::size_t(0), 60000);
        auto late = take(*engine_, "q", 10);
        QCOMPARE(late.size(), std::size_t(1));
        QCOMPARE(idOf(late[0]), QStringLiteral("M1"));
        QCOMPARE(late[0].sequence, std::uint64_t(2));
        QCOMPARE(late[0].delayedTo, std::int64_t(0));
        QCOMPARE(late[0].delaySeconds, 0);
    }

    void requeueGoesThroughTheSendPath() {
        engine_->send("src", makeMessage("A"), "p");
        auto got = take(*engine_, "src", 1);
        auto channel = engine_->channel("src");
        const auto bad = engine_->requeue(*channel, got[0].sequence, "a b", Actor{});
        QVERIFY(bad.has_value());
        QVERIFY(bad->starts_with("Error 120"));
        QVERIFY(!engine_->requeue(*channel, got[0].sequence, "dst", Actor{}).has_value());
        const auto moved = take(*engine_, "dst", 10);
        QCOMPARE(moved.size(), std::size_t(1));
        QCOMPARE(moved[0].receiveCount, 1);
        QVERIFY(!moved[0].reRouted);
        QVERIFY(take(*engine_, "src", 10).empty());
    }

    void deleteChannelDropsContentAndRestartsSequences() {
        engine_->send("q", makeMessage("A"), "p");
        engine_->send("q", makeMessage("B"), "p");
        QVERIFY(engine_->deleteChannel("q"));
        QVERIFY(!engine_->deleteChannel("q"));
        QVERIFY(!engine_->findChannel("q"));
        engine_->send("q", makeMessage("C"), "p");
        const auto got = take(*engine_, "q", 10);
        QCOMPARE(got.size(), std::size_t(1));
        QCOMPARE(got[0].sequence, std::uint64_t(1));
    }

    void purgeTakesOnlyReadyMessages() {
        for (int i = 0; i < 5; ++i)
            engine_->send("q", makeMessage(std::to_string(i)), "p");
        auto reserved = take(*engine_, "q", 2);
        QCOMPARE(engine_->purgeReady(*engine_->channel("q"), Actor{}), std::size_t(3));
        QVERIFY(engine_->giveBack(*engine_->channel("q"), reserved[1].sequence, Actor{}));
        const auto left = take(*engine_, "q", 10);
        QCOMPARE(left.size(), std::size_t(1));
        QCOMPARE(left[0].sequence, std::uint64_t(2));
    }

    void concurrentConsumersNeverShareAMessage() {
        constexpr int kMessages = 2000;
        std::thread producer([&] {
            for (int i = 0; i < kMessages; ++i)
                engine_->send("q", makeMessage(std::to_string(i)), "p");
        });
        std::atomic<int> total{0};
        std::vector<std::thread> consumers;
        std::mutex seenMutex;
        std::set<std::uint64_t> seen;
        bool duplicate = false;
        for (int c = 0; c < 3; ++c) {
            consumers.emplace_back([&] {
                auto channel = engine_->channel("q");
                const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
                while (total.load() < kMessages && std::chrono::steady_clock::now() < deadline) {
                    std::vector<StoredMessage> out;
                    engine_->collect(*channel, 7, {}, out, Actor{});
                    for (const auto& message : out) {
                        {
                            std::lock_guard lock(seenMutex);
                            duplicate |= !seen.insert(message.sequence).second;
                        }
                        engine_->ack(*channel, message.sequence, Actor{});
                        ++total;
                    }
                    if (out.empty())
                        std::this_thread::yield();
                }
            });
        }
        producer.join();
        for (auto& consumer : consumers)
            consumer.join();
        QCOMPARE(total.load(), kMessages);
        QVERIFY(!duplicate);
    }

private:
    std::unique_ptr<EventSink> sink_;
    std::unique_ptr<QueueEngine> engine_;
};

QTEST_APPLESS_MAIN(TestQueueEngine)
#include "tst_queue_engine.moc"
