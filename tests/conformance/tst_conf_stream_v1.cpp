// Spec §4 cases 34-37, 41-45, 47: the v1 StreamQueueMessage transaction stream
// (the cases without long timers; those are in tst_conf_stream_v1_timers).
#include <QTest>

#include "conformance_qt.h"
#include "conformance_rpc.h"
#include "conformance_streams.h"
#include "test_broker.h"

using namespace qs::test::conf;
using namespace std::chrono_literals;

// Reads the next v1 response into `var` (a std::optional) or fails the case.
#define READ_RESPONSE(stream, var, timeout)                     \
    const auto var##Frame = (stream).next(timeout);             \
    QVERIFY2(var##Frame.has_value(), "no v1 response in time"); \
    const kubemq::StreamQueueMessagesResponse* const var = &var##Frame->message
#define CHECK_V1_SUCCESS(response, type)                               \
    do {                                                               \
        QVERIFY2(!(response)->iserror(), (response)->error().c_str()); \
        QCOMPARE((response)->streamrequesttypedata(), kubemq::type);   \
    } while (false)
#define CHECK_V1_ERROR(response, type, text)                         \
    do {                                                             \
        QVERIFY((response)->iserror());                              \
        QCOMPARE(qstr((response)->error()), qstr(text));             \
        QCOMPARE((response)->streamrequesttypedata(), kubemq::type); \
    } while (false)
// The server ends the call (status OK) right after a final operation.
#define CHECK_STREAM_ENDS_OK(stream)                                       \
    do {                                                                   \
        QVERIFY2((stream).waitEnded(5s), "server did not end the stream"); \
        const grpc::Status status__ = (stream).finish();                   \
        QVERIFY2(status__.ok(), status__.error_message().c_str());         \
    } while (false)
// No response and no end within a short grace period.
#define CHECK_STREAM_STAYS_OPEN(stream)                         \
    do {                                                        \
        QVERIFY(!(stream).next(300ms).has_value());             \
        QVERIFY2(!(stream).ended(), "server ended the stream"); \
    } while (false)

class TstConfStreamV1 : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void case34_receiveMessage();
    void case35_ackEndsStream();
    void case36_ackWithWrongSequence();
    void case37_secondReceiveOnSameStream();
    void case41_rejectRequeuesAtTail();
    void case42_resendToOtherChannel();
    void case43_sendModifiedMessage();
    void case44_operationsWithoutMessage();
    void case45_validationErrorsKeepStreamOpen();
    void case47_cancelRequeuesAtTail();

private:
    std::unique_ptr<qs::test::TestBroker> broker_;
    std::unique_ptr<Stub> stub_;
};

void TstConfStreamV1::initTestCase() {
    broker_ = std::make_unique<qs::test::TestBroker>();
    QVERIFY2(broker_->ok(), broker_->error().c_str());
    stub_ = broker_->newStub();
}

void TstConfStreamV1::cleanupTestCase() {
    stub_.reset();
    broker_.reset();
}

void TstConfStreamV1::case34_receiveMessage() {
    const std::string channel = uniqueChannel("c34");
    const auto sent = send(*stub_, makeMessage(channel, "payload"));
    REQUIRE_NO_ERROR(sent);

    V1StreamSession stream(*stub_);
    QVERIFY(stream.send(v1Receive(channel, 10, 5, "r34")));
    READ_RESPONSE(stream, received, 8s);
    CHECK_V1_SUCCESS(received, ReceiveMessage);
    QCOMPARE(qstr(received->requestid()), QStringLiteral("r34"));
    QVERIFY(received->has_message());
    QCOMPARE(qstr(received->message().messageid()), qstr(sent.reply.messageid()));
    QCOMPARE(qstr(received->message().body()), QStringLiteral("payload"));
    QCOMPARE(received->message().attributes().receivecount(), 1);
}

void TstConfStreamV1::case35_ackEndsStream() {
    const std::string channel = uniqueChannel("c35");
    QCOMPARE(qstr(sendMany(*stub_, channel, 1)), QString());

    V1StreamSession stream(*stub_);
    QVERIFY(stream.send(v1Receive(channel, 10, 5, "r35")));
    READ_RESPONSE(stream, received, 8s);
    CHECK_V1_SUCCESS(received, ReceiveMessage);
    QVERIFY(stream.send(v1Ack(received->message().attributes().sequence())));
    READ_RESPONSE(stream, acked, 5s);
    CHECK_V1_SUCCESS(acked, AckMessage);
    CHECK_STREAM_ENDS_OK(stream);

    const auto pulled = pull(*stub_, channel, 1, 1);
    REQUIRE_NO_ERROR(pulled);
    QCOMPARE(pulled.reply.messages_size(), 0);
}

void TstConfStreamV1::case36_ackWithWrongSequence() {
    const std::string channel = uniqueChannel("c36");
    QCOMPARE(qstr(sendMany(*stub_, channel, 1)), QString());

    V1StreamSession stream(*stub_);
    QVERIFY(stream.send(v1Receive(channel, 10, 5)));
    READ_RESPONSE(stream, received, 8s);
    CHECK_V1_SUCCESS(received, ReceiveMessage);
    const std::uint64_t sequence = received->message().attributes().sequence();

    QVERIFY(stream.send(v1Ack(sequence + 1)));
    READ_RESPONSE(stream, wrong, 5s);
    CHECK_V1_ERROR(wrong, AckMessage, err::k125);
    CHECK_STREAM_STAYS_OPEN(stream);

    QVERIFY(stream.send(v1Ack(sequence)));
    READ_RESPONSE(stream, acked, 5s);
    CHECK_V1_SUCCESS(acked, AckMessage);
    CHECK_STREAM_ENDS_OK(stream);
}

void TstConfStreamV1::case37_secondReceiveOnSameStream() {
    const std::string channel = uniqueChannel("c37");
    QCOMPARE(qstr(sendMany(*stub_, channel, 1)), QString());

    V1StreamSession stream(*stub_);
    QVERIFY(stream.send(v1Receive(channel, 10, 5, "r37a")));
    READ_RESPONSE(stream, received, 8s);
    CHECK_V1_SUCCESS(received, ReceiveMessage);

    QVERIFY(stream.send(v1Receive(channel, 10, 5, "r37b")));
    READ_RESPONSE(stream, second, 5s);
    CHECK_V1_ERROR(second, ReceiveMessage, err::k128);
    QCOMPARE(qstr(second->requestid()), QStringLiteral("r37b"));
    CHECK_STREAM_STAYS_OPEN(stream);

    QVERIFY(stream.send(v1Ack(received->message().attributes().sequence())));
    READ_RESPONSE(stream, acked, 5s);
    CHECK_V1_SUCCESS(acked, AckMessage);
    CHECK_STREAM_ENDS_OK(stream);
}

void TstConfStreamV1::case41_rejectRequeuesAtTail() {
    const std::string channel = uniqueChannel("c41");
    const auto a = send(*stub_, makeMessage(channel, "A"));
    REQUIRE_NO_ERROR(a);
    const auto b = send(*stub_, makeMessage(channel, "B"));
    REQUIRE_NO_ERROR(b);

    {
        V1StreamSession stream(*stub_);
        QVERIFY(stream.send(v1Receive(channel, 10, 5)));
        READ_RESPONSE(stream, received, 8s);
        CHECK_V1_SUCCESS(received, ReceiveMessage);
        QCOMPARE(qstr(received->message().body()), QStringLiteral("A"));
        QVERIFY(stream.send(v1Reject(received->message().attributes().sequence())));
        READ_RESPONSE(stream, rejected, 5s);
        CHECK_V1_SUCCESS(rejected, RejectMessage);
        CHECK_STREAM_ENDS_OK(stream);
    }

    const auto pulled = pull(*stub_, channel, 2, 5);
    REQUIRE_NO_ERROR(pulled);
    QCOMPARE(pulled.reply.messages_size(), 2);
    QCOMPARE(qstr(pulled.reply.messages(0).messageid()), qstr(b.reply.messageid()));
    QCOMPARE(pulled.reply.messages(0).attributes().receivecount(), 1);
    QCOMPARE(qstr(pulled.reply.messages(1).messageid()), qstr(a.reply.messageid()));
    QCOMPARE(pulled.reply.messages(1).attributes().receivecount(), 2);
    QCOMPARE(pulled.reply.messages(1).attributes().sequence(), std::uint64_t(3));
}

void TstConfStreamV1::case42_resendToOtherChannel() {
    const std::string src = uniqueChannel("c42src");
    const std::string dst = uniqueChannel("c42dst");
    const auto sent = send(*stub_, makeMessage(src, "payload"));
    REQUIRE_NO_ERROR(sent);

    {
        V1StreamSession stream(*stub_);
        QVERIFY(stream.send(v1Receive(src, 10, 5)));
        READ_RESPONSE(stream, received, 8s);
        CHECK_V1_SUCCESS(received, ReceiveMessage);
        QVERIFY(stream.send(v1Resend(dst)));
        READ_RESPONSE(stream, resent, 5s);
        CHECK_V1_SUCCESS(resent, ResendMessage);
        CHECK_STREAM_ENDS_OK(stream);
    }

    const auto fromSrc = pull(*stub_, src, 1, 1);
    REQUIRE_NO_ERROR(fromSrc);
    QCOMPARE(fromSrc.reply.messages_size(), 0);
    const auto fromDst = pull(*stub_, dst, 1, 5);
    REQUIRE_NO_ERROR(fromDst);
    QCOMPARE(fromDst.reply.messages_size(), 1);
    const auto& message = fromDst.reply.messages(0);
    QCOMPARE(qstr(message.messageid()), qstr(sent.reply.messageid()));
    QCOMPARE(qstr(message.body()), QStringLiteral("payload"));
    QCOMPARE(message.attributes().receivecount(), 1);
    QVERIFY(!message.attributes().rerouted());
}

void TstConfStreamV1::case43_sendModifiedMessage() {
    const std::string src = uniqueChannel("c43src");
    const std::string dst2 = uniqueChannel("c43dst2");
    QCOMPARE(qstr(sendMany(*stub_, src, 1, "original")), QString());

    {
        V1StreamSession stream(*stub_);
        QVERIFY(stream.send(v1Receive(src, 10, 5)));
        READ_RESPONSE(stream, received, 8s);
        CHECK_V1_SUCCESS(received, ReceiveMessage);
        QVERIFY(stream.send(v1SendModified(makeMessage(dst2, "modified"))));
        READ_RESPONSE(stream, modified, 5s);
        CHECK_V1_SUCCESS(modified, SendModifiedMessage);
        CHECK_STREAM_ENDS_OK(stream);
    }

    const auto fromSrc = pull(*stub_, src, 1, 1);
    REQUIRE_NO_ERROR(fromSrc);
    QCOMPARE(fromSrc.reply.messages_size(), 0);
    const auto fromDst = pull(*stub_, dst2, 1, 5);
    REQUIRE_NO_ERROR(fromDst);
    QCOMPARE(fromDst.reply.messages_size(), 1);
    QCOMPARE(qstr(fromDst.reply.messages(0).body()), QStringLiteral("modified"));
}

void TstConfStreamV1::case44_operationsWithoutMessage() {
    struct Op {
        kubemq::StreamQueueMessagesRequest request;
        kubemq::StreamRequestType type;
        std::string_view error;
    };
    const Op ops[] = {
        {v1Ack(5), kubemq::AckMessage, err::k124},
        {v1Reject(5), kubemq::RejectMessage, err::k137},
        {v1Resend("x"), kubemq::ResendMessage, err::k126},
    };
    for (const auto& op : ops) {
        V1StreamSession stream(*stub_);
        QVERIFY(stream.send(op.request));
        READ_RESPONSE(stream, response, 5s);
        QVERIFY(response->iserror());
        QCOMPARE(qstr(response->error()), qstr(op.error));
        QCOMPARE(response->streamrequesttypedata(), op.type);
    }
}

void TstConfStreamV1::case45_validationErrorsKeepStreamOpen() {
    const std::string channel = uniqueChannel("c45");
    struct Bad {
        kubemq::StreamQueueMessagesRequest request;
        std::string_view error;
    };
    auto noClient = v1Receive(channel, 10, 1, "r45-1");
    noClient.clear_clientid();
    auto unknownType = v1Request(static_cast<kubemq::StreamRequestType>(7), "r45-2");
    const auto tooVisible = v1Receive(channel, 43201, 1, "r45-3");
    auto ackZero = v1Ack(0);
    ackZero.set_requestid("r45-4");
    auto noModified = v1Request(kubemq::SendModifiedMessage, "r45-5");
    const Bad bad[] = {
        {noClient, err::k101}, {unknownType, err::k132}, {tooVisible, err::k127},
        {ackZero, err::k125},  {noModified, err::k131},
    };

    V1StreamSession stream(*stub_);
    for (const auto& b : bad) {
        QVERIFY(stream.send(b.request));
        READ_RESPONSE(stream, response, 5s);
        QVERIFY(response->iserror());
        QCOMPARE(qstr(response->error()), qstr(b.error));
        QCOMPARE(qstr(response->requestid()), qstr(b.request.requestid()));
        CHECK_STREAM_STAYS_OPEN(stream);
    }

    // Still usable: a valid receive and ack complete the transaction.
    QCOMPARE(qstr(sendMany(*stub_, channel, 1)), QString());
    QVERIFY(stream.send(v1Receive(channel, 10, 5, "r45-6")));
    READ_RESPONSE(stream, received, 8s);
    CHECK_V1_SUCCESS(received, ReceiveMessage);
    QVERIFY(stream.send(v1Ack(received->message().attributes().sequence())));
    READ_RESPONSE(stream, acked, 5s);
    CHECK_V1_SUCCESS(acked, AckMessage);
    CHECK_STREAM_ENDS_OK(stream);
}

void TstConfStreamV1::case47_cancelRequeuesAtTail() {
    const std::string channel = uniqueChannel("c47");
    const auto a = send(*stub_, makeMessage(channel, "A"));
    REQUIRE_NO_ERROR(a);
    const auto b = send(*stub_, makeMessage(channel, "B"));
    REQUIRE_NO_ERROR(b);

    {
        V1StreamSession stream(*stub_);
        QVERIFY(stream.send(v1Receive(channel, 30, 5)));
        READ_RESPONSE(stream, received, 8s);
        CHECK_V1_SUCCESS(received, ReceiveMessage);
        QCOMPARE(qstr(received->message().messageid()), qstr(a.reply.messageid()));
        stream.cancel();
        QVERIFY(stream.waitEnded(30s));
    }

    const auto pulled = pull(*stub_, channel, 2, 5);
    REQUIRE_NO_ERROR(pulled);
    QCOMPARE(pulled.reply.messages_size(), 2);
    QCOMPARE(qstr(pulled.reply.messages(0).messageid()), qstr(b.reply.messageid()));
    QCOMPARE(pulled.reply.messages(0).attributes().receivecount(), 1);
    QCOMPARE(qstr(pulled.reply.messages(1).messageid()), qstr(a.reply.messageid()));
    QCOMPARE(pulled.reply.messages(1).attributes().receivecount(), 2);
    QVERIFY(pulled.reply.messages(1).attributes().sequence() >
            pulled.reply.messages(0).attributes().sequence());
}

QTEST_APPLESS_MAIN(TstConfStreamV1)
#include "tst_conf_stream_v1.moc"
