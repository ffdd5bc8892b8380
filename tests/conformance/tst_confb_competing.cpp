// Competing downstream consumers on separate connections and threads: the
// work-queue example of spec §6.7 (every task delivered exactly once when the
// consumers ack before closing) and redelivery of a cut consumer's unsettled
// messages to another consumer (§2.8.5, §6.1).
#include <QTest>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "conformance_qt.h"
#include "conformance_streams.h"
#include "test_broker.h"

using namespace qs::test::conf;
using namespace std::chrono_literals;

namespace {

struct Delivery {
    std::string messageId;
    std::uint64_t sequence = 0;
    int receiveCount = 0;
};

// What one consumer thread saw; read by the test thread after join().
struct ConsumerLog {
    std::vector<Delivery> deliveries;
    int gets = 0;
    std::string failure;
};

// Gets up to 5 with a 10 s wait, acks each message by sequence (as the SDKs'
// per-message ack does), and stops after the first empty Get. The AckRange
// requests are processed before the next Get on the same stream, so every ack
// has reached the broker when the consumer leaves.
void runConsumer(std::shared_ptr<grpc::Channel> channel, const std::string& queue, int index,
                 ConsumerLog* log) {
    DownstreamSession stream(std::move(channel));
    for (int round = 0; round < 8; ++round) {
        const std::string requestId = "w" + std::to_string(index) + "-" + std::to_string(round);
        const auto frame = stream.get(requestId, queue, 5, 10000);
        ++log->gets;
        if (!frame) {
            log->failure = "no response to " + requestId;
            return;
        }
        if (frame->message.iserror() || frame->message.refrequestid() != requestId) {
            log->failure = "bad response to " + requestId + ": " + frame->message.error();
            return;
        }
        if (frame->message.messages_size() == 0)
            return;
        for (const auto& message : frame->message.messages()) {
            log->deliveries.push_back({message.messageid(), message.attributes().sequence(),
                                       message.attributes().receivecount()});
            if (!stream.sendSettle(requestId + "-ack", kubemq::AckRange,
                                   frame->message.transactionid(),
                                   {static_cast<std::int64_t>(message.attributes().sequence())})) {
                log->failure = "stream broke while acking";
                return;
            }
        }
    }
    log->failure = "consumer never saw an empty Get";
}

}  // namespace

class TestConfbCompeting : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void workQueue_threeConsumersEachTaskOnce_data();
    void workQueue_threeConsumersEachTaskOnce();
    void cutConsumer_unsettledGoToOtherConsumer();
    void cutConsumer_onlyUnsettledReturn();

private:
    std::unique_ptr<qs::test::TestBroker> broker_;
    std::unique_ptr<Stub> stub_;
};

void TestConfbCompeting::init() {
    broker_ = std::make_unique<qs::test::TestBroker>();
    QVERIFY2(broker_->ok(), broker_->error().c_str());
    stub_ = broker_->newStub();
}

void TestConfbCompeting::cleanup() {
    stub_.reset();
    broker_.reset();
}

void TestConfbCompeting::workQueue_threeConsumersEachTaskOnce_data() {
    QTest::addColumn<bool>("tasksFirst");
    QTest::newRow("tasks queued before consumers") << true;
    QTest::newRow("consumers waiting before tasks") << false;
}

void TestConfbCompeting::workQueue_threeConsumersEachTaskOnce() {
    QFETCH(bool, tasksFirst);
    const std::string queue = "tasks";
    auto produce = [&] {
        if (!sendMany(*stub_, queue, 10, "task").empty())
            return false;
        return true;
    };

    if (tasksFirst)
        QVERIFY(produce());
    std::vector<ConsumerLog> logs(3);
    std::vector<std::thread> consumers;
    for (int i = 0; i < 3; ++i) {
        consumers.emplace_back(runConsumer, broker_->newChannel(), queue, i, &logs[i]);
    }
    if (!tasksFirst) {
        std::this_thread::sleep_for(300ms);
        const bool produced = produce();
        if (!produced) {
            for (auto& consumer : consumers)
                consumer.join();
            QFAIL("sending the tasks failed");
        }
    }
    for (auto& consumer : consumers)
        consumer.join();

    QStringList delivered;
    for (std::size_t i = 0; i < logs.size(); ++i) {
        QVERIFY2(logs[i].failure.empty(), logs[i].failure.c_str());
        for (const auto& delivery : logs[i].deliveries) {
            delivered << qstr(delivery.messageId);
            QCOMPARE(delivery.receiveCount, 1);
        }
    }
    QStringList expected;
    for (int i = 1; i <= 10; ++i)
        expected << QStringLiteral("task-%1").arg(i);
    // Exactly once: the full list (duplicates kept) equals the ten tasks.
    QCOMPARE(sorted(delivered), sorted(expected));

    // Nothing is left waiting and nothing comes back.
    const auto info = queuesInfo(*stub_, queue);
    QVERIFY(info);
    QCOMPARE(info->waiting(), qint64(0));
    DownstreamSession check(broker_->newChannel());
    const auto rest = check.get("rest", queue, 10, 1000);
    QVERIFY(rest);
    QCOMPARE(rest->message.messages_size(), 0);
}

void TestConfbCompeting::cutConsumer_unsettledGoToOtherConsumer() {
    QCOMPARE(qstr(sendMany(*stub_, "cut", 5, "job")), QString());

    auto first = std::make_unique<DownstreamSession>(broker_->newChannel());
    const auto held = first->get("hold", "cut", 5, 5000);
    QVERIFY(held);
    QCOMPARE(held->message.messages_size(), 5);
    QCOMPARE(qints(sequencesOf(held->message.messages())), (QList<qint64>{1, 2, 3, 4, 5}));

    // The second consumer is attached and waiting while the first holds all five.
    DownstreamSession second(broker_->newChannel());
    QVERIFY(second.sendGet("take", "cut", 5, 10000));
    std::this_thread::sleep_for(500ms);
    QVERIFY(!second.next(0ms));

    const auto cutAt = Clock::now();
    first->cancel();
    QVERIFY(first->waitEnded(10s));
    first.reset();

    const auto taken = second.next(15s);
    QVERIFY(taken);
    // Handed over on disconnect, not at the end of the 10 s wait.
    CONF_VERIFY_SECONDS(secondsBetween(cutAt, taken->at), 0.0, 8.0);
    QCOMPARE(qstr(taken->message.refrequestid()), QStringLiteral("take"));
    QCOMPARE(taken->message.iserror(), false);
    QCOMPARE(qstrs(idsOf(taken->message.messages())), qstrs(idsOf(held->message.messages())));
    QCOMPARE(qints(sequencesOf(taken->message.messages())), (QList<qint64>{1, 2, 3, 4, 5}));
    for (const auto& message : taken->message.messages()) {
        QCOMPARE(message.attributes().receivecount(), 1);
    }

    QVERIFY(second.sendSettle("done", kubemq::AckAll, taken->message.transactionid()));
    const auto rest = second.get("rest", "cut", 5, 1000);
    QVERIFY(rest);
    QCOMPARE(qstr(rest->message.refrequestid()), QStringLiteral("rest"));
    QCOMPARE(rest->message.messages_size(), 0);
}

void TestConfbCompeting::cutConsumer_onlyUnsettledReturn() {
    QCOMPARE(qstr(sendMany(*stub_, "cut2", 5, "job")), QString());

    {
        DownstreamSession first(broker_->newChannel());
        const auto held = first.get("hold", "cut2", 5, 5000);
        QVERIFY(held);
        QCOMPARE(held->message.messages_size(), 5);
        QVERIFY(first.sendSettle("ack", kubemq::AckRange, held->message.transactionid(), {2, 4}));
        // ActiveOffsets is answered after the AckRange was processed.
        const auto offsets = first.activeOffsets("offsets", held->message.transactionid());
        QVERIFY(offsets);
        QCOMPARE(qints(offsetSet(offsets->message)), (QList<qint64>{1, 3, 5}));
        first.cancel();
        QVERIFY(first.waitEnded(10s));
    }

    DownstreamSession second(broker_->newChannel());
    const auto taken = second.get("take", "cut2", 3, 10000);
    QVERIFY(taken);
    QCOMPARE(taken->message.iserror(), false);
    QCOMPARE(
        qstrs(idsOf(taken->message.messages())),
        (QStringList{QStringLiteral("job-1"), QStringLiteral("job-3"), QStringLiteral("job-5")}));
    QCOMPARE(qints(sequencesOf(taken->message.messages())), (QList<qint64>{1, 3, 5}));
    for (const auto& message : taken->message.messages()) {
        QCOMPARE(message.attributes().receivecount(), 1);
    }
}

QTEST_APPLESS_MAIN(TestConfbCompeting)
#include "tst_confb_competing.moc"
