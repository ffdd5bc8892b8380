// Spec §4 cases 48-53, 69, 70, 72: QueuesDownstream Get (waiting, limits,
// validation, serialization per stream, competing streams, expiry), and a Get
// above the pull limit of 1024 (served, as by a real v2.4.0).
#include <QTest>
#include <memory>
#include <set>
#include <thread>

#include "conformance_qt.h"
#include "conformance_streams.h"
#include "test_broker.h"

using namespace qs::test::conf;
using namespace std::chrono_literals;

class TestConfbDownstreamGet : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void case48_emptyGetReturnsEmptyAfterWait();
    void case49_partialGetWaitsFullTimeout();
    void case50_fullGetReturnsPromptly();
    void case51_waitTimeoutFloorIsOneSecond_data();
    void case51_waitTimeoutFloorIsOneSecond();
    void case52_maxItemsZeroMeansUnlimited();
    void maxItemsAboveThePullLimitIsServed();
    void case53_getValidationErrors_data();
    void case53_getValidationErrors();
    void case69_getsOnOneStreamAreSerialized();
    void case70_twoStreamsShareMessagesWithoutDuplicates();
    void case72_expiredMessageDroppedSilently();

private:
    std::unique_ptr<qs::test::TestBroker> broker_;
    std::unique_ptr<Stub> stub_;
};

void TestConfbDownstreamGet::init() {
    broker_ = std::make_unique<qs::test::TestBroker>();
    QVERIFY2(broker_->ok(), broker_->error().c_str());
    stub_ = broker_->newStub();
}

void TestConfbDownstreamGet::cleanup() {
    stub_.reset();
    broker_.reset();
}

void TestConfbDownstreamGet::case48_emptyGetReturnsEmptyAfterWait() {
    DownstreamSession stream(broker_->newChannel());
    const auto start = Clock::now();
    const auto frame = stream.get("r48", "q48", 1, 2000);
    QVERIFY(frame);
    CONF_VERIFY_SECONDS(secondsBetween(start, frame->at), 1.5, 3.5);
    const auto& response = frame->message;
    QCOMPARE(qstr(response.refrequestid()), QStringLiteral("r48"));
    QCOMPARE(response.requesttypedata(), kubemq::Get);
    QCOMPARE(response.messages_size(), 0);
    QCOMPARE(response.iserror(), false);
    QCOMPARE(qstr(response.error()), QString());
    QVERIFY(!response.transactionid().empty());
}

void TestConfbDownstreamGet::case49_partialGetWaitsFullTimeout() {
    QCOMPARE(qstr(sendMany(*stub_, "q49", 3, "m49")), QString());

    DownstreamSession stream(broker_->newChannel());
    const auto start = Clock::now();
    const auto frame = stream.get("r49", "q49", 10, 3000);
    QVERIFY(frame);
    CONF_VERIFY_SECONDS(secondsBetween(start, frame->at), 2.5, 4.5);
    const auto& response = frame->message;
    QCOMPARE(response.iserror(), false);
    QCOMPARE(qints(sequencesOf(response.messages())), (QList<qint64>{1, 2, 3}));
    QCOMPARE(
        qstrs(idsOf(response.messages())),
        (QStringList{QStringLiteral("m49-1"), QStringLiteral("m49-2"), QStringLiteral("m49-3")}));
}

void TestConfbDownstreamGet::case50_fullGetReturnsPromptly() {
    QCOMPARE(qstr(sendMany(*stub_, "q50", 10, "m50")), QString());

    DownstreamSession stream(broker_->newChannel());
    const auto start = Clock::now();
    const auto frame = stream.get("r50", "q50", 10, 60000);
    QVERIFY(frame);
    CONF_VERIFY_SECONDS(secondsBetween(start, frame->at), 0.0, 5.0);
    QCOMPARE(frame->message.iserror(), false);
    QCOMPARE(frame->message.messages_size(), 10);
    QCOMPARE(qints(sequencesOf(frame->message.messages())),
             (QList<qint64>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
}

void TestConfbDownstreamGet::case51_waitTimeoutFloorIsOneSecond_data() {
    QTest::addColumn<int>("waitMs");
    QTest::newRow("wait 0") << 0;
    QTest::newRow("wait 500") << 500;
}

void TestConfbDownstreamGet::case51_waitTimeoutFloorIsOneSecond() {
    QFETCH(int, waitMs);
    DownstreamSession stream(broker_->newChannel());
    const auto start = Clock::now();
    const auto frame = stream.get("r51", "q51", 1, waitMs);
    QVERIFY(frame);
    CONF_VERIFY_SECONDS(secondsBetween(start, frame->at), 0.9, 2.5);
    QCOMPARE(frame->message.iserror(), false);
    QCOMPARE(frame->message.messages_size(), 0);
}

void TestConfbDownstreamGet::case52_maxItemsZeroMeansUnlimited() {
    kubemq::QueueMessagesBatchRequest batch;
    batch.set_batchid("b52");
    for (int i = 1; i <= 300; ++i) {
        *batch.add_messages() = makeMessage("q52", "body-" + std::to_string(i));
    }
    const auto sent = sendBatch(*stub_, batch);
    QVERIFY2(sent.ok(), describe(sent.status).c_str());
    QCOMPARE(sent.reply.results_size(), 300);

    DownstreamSession stream(broker_->newChannel());
    const auto frame = stream.get("r52", "q52", 0, 1000);
    QVERIFY(frame);
    QCOMPARE(frame->message.iserror(), false);
    QCOMPARE(frame->message.messages_size(), 300);
}

// Spec §2.8.2 and §2.15: the pull limit MaxNumberOfMessages (1024, Error 122
// on ReceiveQueueMessages, case 19) does not apply to a Get's MaxItems. A
// real KubeMQ v2.4.0 (../shared/kubemq-server) with 1500 messages waiting
// answered auto-ack Gets of MaxItems 1025 with 1025 messages and then 2000
// with the other 475, neither an error: the broker must serve them too.
void TestConfbDownstreamGet::maxItemsAboveThePullLimitIsServed() {
    constexpr int kWaiting = 1030;
    kubemq::QueueMessagesBatchRequest batch;
    batch.set_batchid("b1025");
    for (int i = 1; i <= kWaiting; ++i) {
        *batch.add_messages() = makeMessage("q1025", "body-" + std::to_string(i));
    }
    const auto sent = sendBatch(*stub_, batch);
    QVERIFY2(sent.ok(), describe(sent.status).c_str());
    QCOMPARE(sent.reply.results_size(), kWaiting);

    DownstreamSession stream(broker_->newChannel());
    const auto start = Clock::now();
    auto frame = stream.get("r1025", "q1025", 1025, 60000, /*autoAck=*/true);
    QVERIFY(frame);
    CONF_VERIFY_SECONDS(secondsBetween(start, frame->at), 0.0, 10.0);  // full: no wait
    QCOMPARE(frame->message.iserror(), false);
    QCOMPARE(qstr(frame->message.error()), QString());
    QCOMPARE(frame->message.messages_size(), 1025);

    frame = stream.get("r2000", "q1025", 2000, 1000, /*autoAck=*/true);
    QVERIFY(frame);
    QCOMPARE(frame->message.iserror(), false);
    QCOMPARE(frame->message.messages_size(), kWaiting - 1025);
}

void TestConfbDownstreamGet::case53_getValidationErrors_data() {
    QTest::addColumn<QString>("clientId");
    QTest::addColumn<QString>("channel");
    QTest::addColumn<QString>("error");
    QTest::newRow("empty ClientID") << QString() << QStringLiteral("q53") << qstr(err::k101);
    QTest::newRow("channel with space")
        << QStringLiteral("c53") << QStringLiteral("a b") << qstr(err::k120);
}

void TestConfbDownstreamGet::case53_getValidationErrors() {
    QFETCH(QString, clientId);
    QFETCH(QString, channel);
    QFETCH(QString, error);
    DownstreamSession stream(broker_->newChannel());
    auto request = DownstreamSession::getRequest("r53", channel.toStdString(), 1, 1000);
    request.set_clientid(clientId.toStdString());
    QVERIFY(stream.send(request));
    const auto frame = stream.next(10s);
    QVERIFY(frame);
    const auto& response = frame->message;
    QCOMPARE(response.requesttypedata(), kubemq::Get);
    QCOMPARE(response.iserror(), true);
    QCOMPARE(qstr(response.error()), error);
    QCOMPARE(qstr(response.refrequestid()), QStringLiteral("r53"));
    QVERIFY(!response.transactionid().empty());
}

void TestConfbDownstreamGet::case69_getsOnOneStreamAreSerialized() {
    DownstreamSession stream(broker_->newChannel());
    const auto start = Clock::now();
    QVERIFY(stream.sendGet("r69a", "q69", 1, 3000));
    QVERIFY(stream.sendGet("r69b", "q69", 1, 1000));
    const auto first = stream.next(15s);
    QVERIFY(first);
    const auto second = stream.next(15s);
    QVERIFY(second);
    QCOMPARE(qstr(first->message.refrequestid()), QStringLiteral("r69a"));
    QCOMPARE(qstr(second->message.refrequestid()), QStringLiteral("r69b"));
    CONF_VERIFY_SECONDS(secondsBetween(start, first->at), 2.5, 4.5);
    CONF_VERIFY_SECONDS(secondsBetween(start, second->at), 3.5, 6.0);
}

void TestConfbDownstreamGet::case70_twoStreamsShareMessagesWithoutDuplicates() {
    QCOMPARE(qstr(sendMany(*stub_, "q70", 10, "m70")), QString());

    DownstreamSession a(broker_->newChannel());
    DownstreamSession b(broker_->newChannel());
    // Both Gets are in flight at the same time: each stream has its own reader.
    QVERIFY(a.sendGet("r70a", "q70", 10, 2000));
    QVERIFY(b.sendGet("r70b", "q70", 10, 2000));
    const auto fa = a.next(15s);
    const auto fb = b.next(15s);
    QVERIFY(fa);
    QVERIFY(fb);
    QCOMPARE(fa->message.iserror(), false);
    QCOMPARE(fb->message.iserror(), false);

    QStringList all = qstrs(idsOf(fa->message.messages())) + qstrs(idsOf(fb->message.messages()));
    QCOMPARE(all.size(), 10);
    QStringList expected;
    for (int i = 1; i <= 10; ++i)
        expected << QStringLiteral("m70-%1").arg(i);
    QCOMPARE(sorted(all), sorted(expected));
}

void TestConfbDownstreamGet::case72_expiredMessageDroppedSilently() {
    QVERIFY(!send(*stub_, makeMessage("q72", "first", "m72-1")).reply.iserror());
    auto expiring = makeMessage("q72", "expiring", "m72-2");
    expiring.mutable_policy()->set_expirationseconds(1);
    QVERIFY(!send(*stub_, expiring).reply.iserror());
    QVERIFY(!send(*stub_, makeMessage("q72", "third", "m72-3")).reply.iserror());
    std::this_thread::sleep_for(2200ms);

    DownstreamSession stream(broker_->newChannel());
    const auto frame = stream.get("r72", "q72", 3, 1000);
    QVERIFY(frame);
    QCOMPARE(frame->message.iserror(), false);
    QCOMPARE(qstr(frame->message.error()), QString());
    QCOMPARE(qstrs(idsOf(frame->message.messages())),
             (QStringList{QStringLiteral("m72-1"), QStringLiteral("m72-3")}));
}

QTEST_APPLESS_MAIN(TestConfbDownstreamGet)
#include "tst_confb_downstream_get.moc"
