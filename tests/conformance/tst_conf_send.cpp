// Spec §4 cases 3-15: send validation, defaults, channel-name rules, sequences.
#include <QTest>

#include "conformance_qt.h"
#include "conformance_rpc.h"
#include "test_broker.h"

using namespace qs::test::conf;

// In-band error result of a send: gRPC OK, IsError, exact text, nothing sent.
#define CHECK_SEND_ERROR(rpc, text)                      \
    do {                                                 \
        REQUIRE_RPC_OK(rpc);                             \
        QVERIFY((rpc).reply.iserror());                  \
        QCOMPARE(qstr((rpc).reply.error()), qstr(text)); \
        QCOMPARE((rpc).reply.sentat(), 0);               \
    } while (false)
#define CHECK_SEND_OK(rpc)                                             \
    do {                                                               \
        REQUIRE_RPC_OK(rpc);                                           \
        QVERIFY2(!(rpc).reply.iserror(), (rpc).reply.error().c_str()); \
        QVERIFY((rpc).reply.sentat() > 0);                             \
    } while (false)

class TstConfSend : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void case03_sendDefaultsAndFirstSequences();
    void case04_emptyClientIdCheckedFirst();
    void case05_invalidChannelNames();
    void case06_emptyMessage();
    void case07_tagsAreNotContent();
    void case08_expirationSecondsRange();
    void case09_delaySecondsRange();
    void case10_maxReceiveCountRange();
    void case11_invalidMaxReceiveQueue();
    void case12_maxReceiveCountZeroBecomes1024();
    void case13_brokerRejectsSlashAndEmptyToken();
    void case14_colonSendsButCannotBeReceived();
    void case15_sequencesPerChannel();

private:
    std::unique_ptr<qs::test::TestBroker> broker_;
    std::unique_ptr<Stub> stub_;
};

void TstConfSend::initTestCase() {
    broker_ = std::make_unique<qs::test::TestBroker>();
    QVERIFY2(broker_->ok(), broker_->error().c_str());
    stub_ = broker_->newStub();
}

void TstConfSend::cleanupTestCase() {
    stub_.reset();
    broker_.reset();
}

void TstConfSend::case03_sendDefaultsAndFirstSequences() {
    const std::string channel = uniqueChannel("c03");
    std::vector<std::string> ids;
    for (int i = 1; i <= 3; ++i) {
        auto message = makeMessage(channel, "body-" + std::to_string(i));
        QVERIFY(message.messageid().empty());
        const auto sent = send(*stub_, message);
        CHECK_SEND_OK(sent);
        QVERIFY(!sent.reply.messageid().empty());
        QCOMPARE(sent.reply.expirationat(), 0);
        QCOMPARE(sent.reply.delayedto(), 0);
        ids.push_back(sent.reply.messageid());
    }
    QVERIFY(ids[0] != ids[1] && ids[1] != ids[2] && ids[0] != ids[2]);

    const auto pulled = pull(*stub_, channel, 3, 5);
    REQUIRE_RPC_OK(pulled);
    QVERIFY2(!pulled.reply.iserror(), pulled.reply.error().c_str());
    QCOMPARE(pulled.reply.messages_size(), 3);
    for (int i = 0; i < 3; ++i) {
        const auto& m = pulled.reply.messages(i);
        QCOMPARE(qstr(m.messageid()), qstr(ids[std::size_t(i)]));
        QCOMPARE(qstr(m.body()), qstr("body-" + std::to_string(i + 1)));
        QCOMPARE(m.attributes().sequence(), std::uint64_t(i + 1));
        QCOMPARE(m.attributes().receivecount(), 1);
    }
}

void TstConfSend::case04_emptyClientIdCheckedFirst() {
    kubemq::QueueMessage message;  // empty ClientID, channel and body
    message.set_messageid("c04-id");
    const auto sent = send(*stub_, message);
    CHECK_SEND_ERROR(sent, err::k101);
    QCOMPARE(qstr(sent.reply.messageid()), qstr("c04-id"));
    QCOMPARE(sent.reply.expirationat(), 0);
    QCOMPARE(sent.reply.delayedto(), 0);
}

void TstConfSend::case05_invalidChannelNames() {
    for (const char* name : {"", "a.", "a b", "a.*", "a.>"}) {
        const auto sent = send(*stub_, makeMessage(name, "x"));
        CHECK_SEND_ERROR(sent, err::k120);
    }
}

void TstConfSend::case06_emptyMessage() {
    const auto sent = send(*stub_, makeMessage(uniqueChannel("c06"), ""));
    CHECK_SEND_ERROR(sent, err::k110);
}

void TstConfSend::case07_tagsAreNotContent() {
    auto message = makeMessage(uniqueChannel("c07"), "");
    (*message.mutable_tags())["k"] = "v";
    const auto sent = send(*stub_, message);
    CHECK_SEND_ERROR(sent, err::k110);
}

void TstConfSend::case08_expirationSecondsRange() {
    const std::string channel = uniqueChannel("c08");
    for (int bad : {-1, 43201}) {
        auto message = makeMessage(channel, "x");
        message.mutable_policy()->set_expirationseconds(bad);
        const auto sent = send(*stub_, message);
        CHECK_SEND_ERROR(sent, err::k133);
    }
    auto message = makeMessage(channel, "x");
    message.mutable_policy()->set_expirationseconds(43200);
    const auto sent = send(*stub_, message);
    CHECK_SEND_OK(sent);
}

void TstConfSend::case09_delaySecondsRange() {
    const std::string channel = uniqueChannel("c09");
    for (int bad : {-1, 43201}) {
        auto message = makeMessage(channel, "x");
        message.mutable_policy()->set_delayseconds(bad);
        const auto sent = send(*stub_, message);
        CHECK_SEND_ERROR(sent, err::k135);
    }
    auto message = makeMessage(channel, "x");
    message.mutable_policy()->set_delayseconds(43200);
    const auto sent = send(*stub_, message);
    CHECK_SEND_OK(sent);
}

void TstConfSend::case10_maxReceiveCountRange() {
    const std::string channel = uniqueChannel("c10");
    for (int bad : {-1, 1025}) {
        auto message = makeMessage(channel, "x");
        message.mutable_policy()->set_maxreceivecount(bad);
        const auto sent = send(*stub_, message);
        CHECK_SEND_ERROR(sent, err::k134);
    }
    auto message = makeMessage(channel, "x");
    message.mutable_policy()->set_maxreceivecount(1024);
    const auto sent = send(*stub_, message);
    CHECK_SEND_OK(sent);
}

void TstConfSend::case11_invalidMaxReceiveQueue() {
    auto message = makeMessage(uniqueChannel("c11"), "x");
    message.mutable_policy()->set_maxreceivequeue("dlq *");
    const auto sent = send(*stub_, message);
    CHECK_SEND_ERROR(sent, err::k120);
}

void TstConfSend::case12_maxReceiveCountZeroBecomes1024() {
    const std::string channel = uniqueChannel("c12");
    auto message = makeMessage(channel, "x");
    message.mutable_policy()->set_maxreceivecount(0);
    const auto sent = send(*stub_, message);
    CHECK_SEND_OK(sent);
    const auto pulled = pull(*stub_, channel, 1, 5);
    REQUIRE_RPC_OK(pulled);
    QVERIFY2(!pulled.reply.iserror(), pulled.reply.error().c_str());
    QCOMPARE(pulled.reply.messages_size(), 1);
    QCOMPARE(pulled.reply.messages(0).policy().maxreceivecount(), 1024);
}

void TstConfSend::case13_brokerRejectsSlashAndEmptyToken() {
    for (const char* name : {"a/b", "a..b"}) {
        const auto sent = send(*stub_, makeMessage(name, "x"));
        REQUIRE_RPC_OK(sent);
        QVERIFY2(sent.reply.iserror(), name);
        QCOMPARE(qstr(sent.reply.error()), qstr(err::kStanInvalidPublish));
    }
}

void TstConfSend::case14_colonSendsButCannotBeReceived() {
    const std::string channel = uniqueChannel("c14") + ":b";
    const auto sent = send(*stub_, makeMessage(channel, "x"));
    CHECK_SEND_OK(sent);
    const auto pulled = pull(*stub_, channel, 1, 1);
    REQUIRE_RPC_OK(pulled);
    QVERIFY(pulled.reply.iserror());
    QCOMPARE(qstr(pulled.reply.error()), qstr(err::k121));
    QCOMPARE(pulled.reply.messages_size(), 0);
}

void TstConfSend::case15_sequencesPerChannel() {
    const std::string qa = uniqueChannel("c15a");
    const std::string qb = uniqueChannel("c15b");
    const std::int64_t before = nowUnixNs();
    constexpr int perChannel = 4;
    for (int i = 1; i <= perChannel; ++i) {
        for (const auto& channel : {qa, qb}) {
            const auto sent = send(*stub_, makeMessage(channel, "m" + std::to_string(i)));
            CHECK_SEND_OK(sent);
        }
    }
    const std::int64_t after = nowUnixNs();
    constexpr std::int64_t slackNs = 5'000'000'000;  // clock granularity / skew margin
    for (const auto& channel : {qa, qb}) {
        const auto pulled = pull(*stub_, channel, perChannel, 5);
        REQUIRE_RPC_OK(pulled);
        QVERIFY2(!pulled.reply.iserror(), pulled.reply.error().c_str());
        QCOMPARE(pulled.reply.messages_size(), perChannel);
        std::int64_t previous = 0;
        for (int i = 0; i < perChannel; ++i) {
            const auto& attributes = pulled.reply.messages(i).attributes();
            QCOMPARE(attributes.sequence(), std::uint64_t(i + 1));
            QCOMPARE(qstr(pulled.reply.messages(i).body()), qstr("m" + std::to_string(i + 1)));
            QVERIFY2(attributes.timestamp() >= before - slackNs &&
                         attributes.timestamp() <= after + slackNs,
                     "timestamp is not Unix ns of the send");
            QVERIFY(attributes.timestamp() >= previous);
            previous = attributes.timestamp();
        }
    }
}

QTEST_APPLESS_MAIN(TstConfSend)
#include "tst_conf_send.moc"
