// Spec §4 cases 16-22: pull / peek, long-poll timing and request validation.
#include <QTest>

#include "conformance_qt.h"
#include "conformance_rpc.h"
#include "test_broker.h"

using namespace qs::test::conf;

namespace {
QByteArray seconds(double s) {
    return QByteArray::number(s, 'f', 3) + " s";
}
}  // namespace

#define CHECK_BETWEEN(value, low, high) \
    QVERIFY2((value) >= (low) && (value) <= (high), seconds(value).constData())

class TstConfPull : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void case16_pullWaitsFullTimeForPartialBatch();
    void case17_pullReturnsPromptlyWhenFull();
    void case18_waitZeroMeansOneSecond();
    void case19_maxMessagesRange();
    void case20_waitSecondsRange();
    void case21_requestIdEchoedOrGenerated();
    void case22_peekThenPull();

private:
    std::unique_ptr<qs::test::TestBroker> broker_;
    std::unique_ptr<Stub> stub_;
};

void TstConfPull::initTestCase() {
    broker_ = std::make_unique<qs::test::TestBroker>();
    QVERIFY2(broker_->ok(), broker_->error().c_str());
    stub_ = broker_->newStub();
}

void TstConfPull::cleanupTestCase() {
    stub_.reset();
    broker_.reset();
}

void TstConfPull::case16_pullWaitsFullTimeForPartialBatch() {
    const std::string channel = uniqueChannel("c16");
    QCOMPARE(qstr(sendMany(*stub_, channel, 2)), QString());
    const auto pulled = pull(*stub_, channel, 5, 2);
    REQUIRE_NO_ERROR(pulled);
    CHECK_BETWEEN(pulled.seconds, 1.5, 3.5);
    QCOMPARE(pulled.reply.messagesreceived(), 2);
    QCOMPARE(pulled.reply.messages_size(), 2);
}

void TstConfPull::case17_pullReturnsPromptlyWhenFull() {
    const std::string channel = uniqueChannel("c17");
    QCOMPARE(qstr(sendMany(*stub_, channel, 5)), QString());
    const auto first = pull(*stub_, channel, 3, 10);
    REQUIRE_NO_ERROR(first);
    QVERIFY2(first.seconds < 1.0, seconds(first.seconds).constData());
    QCOMPARE(first.reply.messagesreceived(), 3);
    QCOMPARE(first.reply.messages_size(), 3);
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(first.reply.messages(i).attributes().sequence(), std::uint64_t(i + 1));
        QCOMPARE(qstr(first.reply.messages(i).body()), qstr("m-" + std::to_string(i + 1)));
    }
    const auto second = pull(*stub_, channel, 5, 1);
    REQUIRE_NO_ERROR(second);
    QCOMPARE(second.reply.messages_size(), 2);
    QCOMPARE(second.reply.messages(0).attributes().sequence(), std::uint64_t(4));
    QCOMPARE(second.reply.messages(1).attributes().sequence(), std::uint64_t(5));
}

void TstConfPull::case18_waitZeroMeansOneSecond() {
    const auto pulled = pull(*stub_, uniqueChannel("c18"), 1, 0);
    REQUIRE_NO_ERROR(pulled);
    CHECK_BETWEEN(pulled.seconds, 0.5, 2.5);
    QCOMPARE(pulled.reply.messages_size(), 0);
    QCOMPARE(pulled.reply.messagesreceived(), 0);
}

void TstConfPull::case19_maxMessagesRange() {
    const std::string channel = uniqueChannel("c19");
    for (int bad : {1025, 0}) {
        const std::string requestId = "r19-" + std::to_string(bad);
        const auto pulled = receive(*stub_, receiveRequest(channel, bad, 1, false, requestId));
        REQUIRE_RPC_OK(pulled);
        QVERIFY(pulled.reply.iserror());
        QCOMPARE(qstr(pulled.reply.error()), qstr(err::k122));
        QCOMPARE(qstr(pulled.reply.requestid()), qstr(requestId));
    }
}

void TstConfPull::case20_waitSecondsRange() {
    const std::string channel = uniqueChannel("c20");
    for (int bad : {-1, 3601}) {
        const auto pulled = pull(*stub_, channel, 1, bad);
        REQUIRE_RPC_OK(pulled);
        QVERIFY(pulled.reply.iserror());
        QCOMPARE(qstr(pulled.reply.error()), qstr(err::k136));
    }
}

void TstConfPull::case21_requestIdEchoedOrGenerated() {
    const std::string channel = uniqueChannel("c21");
    QCOMPARE(qstr(sendMany(*stub_, channel, 2)), QString());
    const auto named = receive(*stub_, receiveRequest(channel, 1, 1, false, "r1"));
    REQUIRE_NO_ERROR(named);
    QCOMPARE(qstr(named.reply.requestid()), QStringLiteral("r1"));
    QCOMPARE(named.reply.messages_size(), 1);
    const auto anonymous = receive(*stub_, receiveRequest(channel, 1, 1, false, ""));
    REQUIRE_NO_ERROR(anonymous);
    QVERIFY(!anonymous.reply.requestid().empty());
    QCOMPARE(anonymous.reply.messages_size(), 1);
}

void TstConfPull::case22_peekThenPull() {
    const std::string channel = uniqueChannel("c22");
    QCOMPARE(qstr(sendMany(*stub_, channel, 10)), QString());

    const auto peeked = peek(*stub_, channel, 1, 1);
    REQUIRE_NO_ERROR(peeked);
    QVERIFY(peeked.reply.ispeak());
    QCOMPARE(peeked.reply.messages_size(), 1);

    const auto pulled = pull(*stub_, channel, 1, 1);
    REQUIRE_NO_ERROR(pulled);
    QVERIFY(!pulled.reply.ispeak());
    QCOMPARE(pulled.reply.messages_size(), 1);
    QCOMPARE(pulled.reply.messages(0).attributes().sequence(),
             peeked.reply.messages(0).attributes().sequence());
    QCOMPARE(pulled.reply.messages(0).attributes().sequence(), std::uint64_t(1));
    QCOMPARE(qstr(pulled.reply.messages(0).messageid()),
             qstr(peeked.reply.messages(0).messageid()));

    const auto rest = peek(*stub_, channel, 10, 1);
    REQUIRE_NO_ERROR(rest);
    QVERIFY(rest.reply.ispeak());
    QCOMPARE(rest.reply.messages_size(), 9);
    for (int i = 0; i < 9; ++i) {
        QCOMPARE(rest.reply.messages(i).attributes().sequence(), std::uint64_t(i + 2));
        QCOMPARE(qstr(rest.reply.messages(i).body()), qstr("m-" + std::to_string(i + 2)));
    }
}

QTEST_APPLESS_MAIN(TstConfPull)
#include "tst_conf_pull.moc"
