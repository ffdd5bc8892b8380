// Spec §4 cases 38-40, 46: v1 StreamQueueMessage wait and visibility timers.
#include <QTest>

#include "conformance_qt.h"
#include "conformance_rpc.h"
#include "conformance_streams.h"
#include "test_broker.h"

using namespace qs::test::conf;
using namespace std::chrono_literals;

namespace {
QByteArray seconds(double s) {
    return QByteArray::number(s, 'f', 3) + " s";
}
}  // namespace

#define READ_RESPONSE(stream, var, timeout)                     \
    const auto var##Frame = (stream).next(timeout);             \
    QVERIFY2(var##Frame.has_value(), "no v1 response in time"); \
    const kubemq::StreamQueueMessagesResponse* const var = &var##Frame->message
#define CHECK_V1_SUCCESS(response, type)                               \
    do {                                                               \
        QVERIFY2(!(response)->iserror(), (response)->error().c_str()); \
        QCOMPARE((response)->streamrequesttypedata(), kubemq::type);   \
    } while (false)
#define CHECK_STREAM_ENDS_OK(stream)                                       \
    do {                                                                   \
        QVERIFY2((stream).waitEnded(5s), "server did not end the stream"); \
        const grpc::Status status__ = (stream).finish();                   \
        QVERIFY2(status__.ok(), status__.error_message().c_str());         \
    } while (false)
#define CHECK_BETWEEN(value, low, high) \
    QVERIFY2((value) >= (low) && (value) <= (high), seconds(value).constData())

class TstConfStreamV1Timers : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void case38_waitTimeExpires();
    void case39_visibilityExpiresAndRequeues();
    void case40_modifyVisibilityResetsTimer();
    void case46_maxReceiveCountDropsAfterVisibilityExpiries();

private:
    std::unique_ptr<qs::test::TestBroker> broker_;
    std::unique_ptr<Stub> stub_;
};

void TstConfStreamV1Timers::initTestCase() {
    broker_ = std::make_unique<qs::test::TestBroker>();
    QVERIFY2(broker_->ok(), broker_->error().c_str());
    stub_ = broker_->newStub();
}

void TstConfStreamV1Timers::cleanupTestCase() {
    stub_.reset();
    broker_.reset();
}

void TstConfStreamV1Timers::case38_waitTimeExpires() {
    V1StreamSession stream(*stub_);
    Stopwatch clock;
    QVERIFY(stream.send(v1Receive(uniqueChannel("c38"), 10, 2, "r38")));
    READ_RESPONSE(stream, response, 6s);
    CHECK_BETWEEN(clock.seconds(), 1.5, 3.5);
    QVERIFY(response->iserror());
    QCOMPARE(qstr(response->error()), qstr(err::k138));
    QCOMPARE(response->streamrequesttypedata(), kubemq::ReceiveMessage);
    CHECK_STREAM_ENDS_OK(stream);
}

void TstConfStreamV1Timers::case39_visibilityExpiresAndRequeues() {
    const std::string channel = uniqueChannel("c39");
    const auto sent = send(*stub_, makeMessage(channel, "x"));
    REQUIRE_NO_ERROR(sent);

    std::uint64_t firstSequence = 0;
    {
        V1StreamSession stream(*stub_);
        QVERIFY(stream.send(v1Receive(channel, 2, 5)));
        READ_RESPONSE(stream, received, 8s);
        Stopwatch clock;
        CHECK_V1_SUCCESS(received, ReceiveMessage);
        QCOMPARE(received->message().attributes().receivecount(), 1);
        firstSequence = received->message().attributes().sequence();

        READ_RESPONSE(stream, expired, 6s);
        CHECK_BETWEEN(clock.seconds(), 1.5, 3.5);
        QVERIFY(expired->iserror());
        QCOMPARE(qstr(expired->error()), qstr(err::k129));
        CHECK_STREAM_ENDS_OK(stream);
    }

    const auto pulled = pull(*stub_, channel, 1, 5);
    REQUIRE_NO_ERROR(pulled);
    QCOMPARE(pulled.reply.messages_size(), 1);
    const auto& message = pulled.reply.messages(0);
    QCOMPARE(qstr(message.messageid()), qstr(sent.reply.messageid()));
    QCOMPARE(message.attributes().receivecount(), 2);
    QVERIFY(message.attributes().sequence() > firstSequence);
}

void TstConfStreamV1Timers::case40_modifyVisibilityResetsTimer() {
    const std::string channel = uniqueChannel("c40");
    QCOMPARE(qstr(sendMany(*stub_, channel, 1)), QString());

    V1StreamSession stream(*stub_);
    QVERIFY(stream.send(v1Receive(channel, 2, 5)));
    READ_RESPONSE(stream, received, 8s);
    Stopwatch clock;
    CHECK_V1_SUCCESS(received, ReceiveMessage);

    clock.sleepUntil(1.0);
    QVERIFY(stream.send(v1ModifyVisibility(5)));
    READ_RESPONSE(stream, modified, 3s);
    CHECK_V1_SUCCESS(modified, ModifyVisibility);

    clock.sleepUntil(4.0);
    QVERIFY(stream.send(v1Ack(received->message().attributes().sequence())));
    READ_RESPONSE(stream, acked, 3s);
    CHECK_V1_SUCCESS(acked, AckMessage);
    CHECK_STREAM_ENDS_OK(stream);
}

void TstConfStreamV1Timers::case46_maxReceiveCountDropsAfterVisibilityExpiries() {
    const std::string channel = uniqueChannel("c46");
    auto message = makeMessage(channel, "x");
    message.mutable_policy()->set_maxreceivecount(2);
    const auto sent = send(*stub_, message);
    REQUIRE_NO_ERROR(sent);

    for (int round = 1; round <= 2; ++round) {
        V1StreamSession stream(*stub_);
        QVERIFY(stream.send(v1Receive(channel, 1, 5)));
        READ_RESPONSE(stream, received, 8s);
        CHECK_V1_SUCCESS(received, ReceiveMessage);
        QCOMPARE(received->message().attributes().receivecount(), round);
        READ_RESPONSE(stream, expired, 5s);
        QVERIFY(expired->iserror());
        QCOMPARE(qstr(expired->error()), qstr(err::k129));
        CHECK_STREAM_ENDS_OK(stream);
    }

    const auto pulled = pull(*stub_, channel, 1, 1);
    REQUIRE_NO_ERROR(pulled);
    QCOMPARE(pulled.reply.messages_size(), 0);
    QCOMPARE(pulled.reply.messagesreceived(), 0);
    QCOMPARE(pulled.reply.messagesexpired(), 0);
}

QTEST_APPLESS_MAIN(TstConfStreamV1Timers)
#include "tst_conf_stream_v1_timers.moc"
