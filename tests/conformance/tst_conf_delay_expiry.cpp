// Spec §4 cases 23-28: lazy expiration and delayed delivery.
#include <QTest>

#include "conformance_qt.h"
#include "conformance_rpc.h"
#include "test_broker.h"

using namespace qs::test::conf;

namespace {
constexpr std::int64_t kNsPerSecond = 1'000'000'000;
constexpr std::int64_t kHalfSecondNs = kNsPerSecond / 2;
QByteArray nsDelta(std::int64_t actual, std::int64_t expected) {
    return "off by " +
           QByteArray::number(double(actual - expected) / double(kNsPerSecond), 'f', 3) + " s";
}

kubemq::QueueMessage withPolicy(kubemq::QueueMessage message, int expirationSeconds,
                                int delaySeconds) {
    message.mutable_policy()->set_expirationseconds(expirationSeconds);
    message.mutable_policy()->set_delayseconds(delaySeconds);
    return message;
}
}  // namespace

#define CHECK_NEAR_NS(actual, expected, tolerance)           \
    QVERIFY2(std::abs((actual) - (expected)) <= (tolerance), \
             nsDelta((actual), (expected)).constData())

class TstConfDelayExpiry : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void case23_expiredMessageCountedByPull();
    void case24_peekRemovesExpiredMessage();
    void case25_expirationAtRoundTrip();
    void case26_delayedMessageInvisibleUntilRelease();
    void case27_delayedMessageSequencedAtRelease();
    void case28_delayThenExpiration();

private:
    std::unique_ptr<qs::test::TestBroker> broker_;
    std::unique_ptr<Stub> stub_;
};

void TstConfDelayExpiry::initTestCase() {
    broker_ = std::make_unique<qs::test::TestBroker>();
    QVERIFY2(broker_->ok(), broker_->error().c_str());
    stub_ = broker_->newStub();
}

void TstConfDelayExpiry::cleanupTestCase() {
    stub_.reset();
    broker_.reset();
}

void TstConfDelayExpiry::case23_expiredMessageCountedByPull() {
    const std::string channel = uniqueChannel("c23");
    const auto sent = send(*stub_, withPolicy(makeMessage(channel, "x"), 1, 0));
    REQUIRE_NO_ERROR(sent);
    sleepSeconds(2.0);
    const auto first = pull(*stub_, channel, 1, 1);
    REQUIRE_NO_ERROR(first);
    QCOMPARE(first.reply.messagesreceived(), 0);
    QCOMPARE(first.reply.messages_size(), 0);
    QCOMPARE(first.reply.messagesexpired(), 1);
    const auto second = pull(*stub_, channel, 1, 1);
    REQUIRE_NO_ERROR(second);
    QCOMPARE(second.reply.messagesreceived(), 0);
    QCOMPARE(second.reply.messagesexpired(), 0);
}

void TstConfDelayExpiry::case24_peekRemovesExpiredMessage() {
    const std::string channel = uniqueChannel("c24");
    const auto sent = send(*stub_, withPolicy(makeMessage(channel, "x"), 1, 0));
    REQUIRE_NO_ERROR(sent);
    sleepSeconds(2.0);
    const auto peeked = peek(*stub_, channel, 1, 1);
    REQUIRE_NO_ERROR(peeked);
    QCOMPARE(peeked.reply.messagesexpired(), 1);
    QCOMPARE(peeked.reply.messages_size(), 0);
    const auto pulled = pull(*stub_, channel, 1, 1);
    REQUIRE_NO_ERROR(pulled);
    QCOMPARE(pulled.reply.messagesexpired(), 0);
    QCOMPARE(pulled.reply.messagesreceived(), 0);
}

void TstConfDelayExpiry::case25_expirationAtRoundTrip() {
    const std::string channel = uniqueChannel("c25");
    const auto sent = send(*stub_, withPolicy(makeMessage(channel, "x"), 10, 0));
    REQUIRE_NO_ERROR(sent);
    QVERIFY(sent.reply.sentat() > 0);
    CHECK_NEAR_NS(sent.reply.expirationat(), sent.reply.sentat() + 10 * kNsPerSecond,
                  kHalfSecondNs);
    QCOMPARE(sent.reply.delayedto(), 0);

    const auto pulled = pull(*stub_, channel, 1, 5);
    REQUIRE_NO_ERROR(pulled);
    QCOMPARE(pulled.reply.messages_size(), 1);
    const auto& message = pulled.reply.messages(0);
    QCOMPARE(message.attributes().expirationat(), sent.reply.expirationat());
    QCOMPARE(message.policy().expirationseconds(), 10);
}

void TstConfDelayExpiry::case26_delayedMessageInvisibleUntilRelease() {
    const std::string channel = uniqueChannel("c26");
    Stopwatch clock;
    const auto sent = send(*stub_, withPolicy(makeMessage(channel, "x"), 0, 3));
    REQUIRE_NO_ERROR(sent);
    CHECK_NEAR_NS(sent.reply.delayedto(), sent.reply.sentat() + 3 * kNsPerSecond, kHalfSecondNs);
    QCOMPARE(sent.reply.expirationat(), 0);

    clock.sleepUntil(1.0);
    const auto early = pull(*stub_, channel, 1, 1);
    REQUIRE_NO_ERROR(early);
    QCOMPARE(early.reply.messages_size(), 0);

    clock.sleepUntil(4.0);
    const auto late = pull(*stub_, channel, 1, 2);
    REQUIRE_NO_ERROR(late);
    QCOMPARE(late.reply.messages_size(), 1);
    const auto& message = late.reply.messages(0);
    QCOMPARE(qstr(message.messageid()), qstr(sent.reply.messageid()));
    QCOMPARE(message.attributes().delayedto(), 0);
    QCOMPARE(message.attributes().receivecount(), 1);
    QCOMPARE(message.policy().delayseconds(), 0);
}

void TstConfDelayExpiry::case27_delayedMessageSequencedAtRelease() {
    const std::string channel = uniqueChannel("c27");
    Stopwatch clock;
    const auto m1 = send(*stub_, withPolicy(makeMessage(channel, "M1"), 0, 2));
    REQUIRE_NO_ERROR(m1);
    const auto m2 = send(*stub_, makeMessage(channel, "M2"));
    REQUIRE_NO_ERROR(m2);

    clock.sleepUntil(3.0);
    const auto pulled = pull(*stub_, channel, 2, 2);
    REQUIRE_NO_ERROR(pulled);
    QCOMPARE(pulled.reply.messages_size(), 2);
    QCOMPARE(qstr(pulled.reply.messages(0).body()), QStringLiteral("M2"));
    QCOMPARE(pulled.reply.messages(0).attributes().sequence(), std::uint64_t(1));
    QCOMPARE(qstr(pulled.reply.messages(1).body()), QStringLiteral("M1"));
    QCOMPARE(pulled.reply.messages(1).attributes().sequence(), std::uint64_t(2));
}

void TstConfDelayExpiry::case28_delayThenExpiration() {
    // Two identical messages on two queues: one pulled in time, one too late.
    const std::string early = uniqueChannel("c28a");
    const std::string late = uniqueChannel("c28b");
    Stopwatch clock;
    for (const auto& channel : {early, late}) {
        const auto sent = send(*stub_, withPolicy(makeMessage(channel, "x"), 1, 3));
        REQUIRE_NO_ERROR(sent);
        CHECK_NEAR_NS(sent.reply.expirationat(), sent.reply.sentat() + 4 * kNsPerSecond,
                      kHalfSecondNs);
        CHECK_NEAR_NS(sent.reply.delayedto(), sent.reply.sentat() + 3 * kNsPerSecond,
                      kHalfSecondNs);
        QVERIFY(sent.reply.expirationat() > sent.reply.delayedto());
    }

    clock.sleepUntil(3.2);
    const auto inTime = pull(*stub_, early, 1, 1);
    REQUIRE_NO_ERROR(inTime);
    QCOMPARE(inTime.reply.messagesreceived(), 1);
    QCOMPARE(inTime.reply.messages_size(), 1);
    QCOMPARE(inTime.reply.messagesexpired(), 0);

    clock.sleepUntil(6.0);
    const auto tooLate = pull(*stub_, late, 1, 1);
    REQUIRE_NO_ERROR(tooLate);
    QCOMPARE(tooLate.reply.messagesreceived(), 0);
    QCOMPARE(tooLate.reply.messages_size(), 0);
    QCOMPARE(tooLate.reply.messagesexpired(), 1);
}

QTEST_APPLESS_MAIN(TstConfDelayExpiry)
#include "tst_conf_delay_expiry.moc"
