// Spec §4 cases 29-33: AckAllQueueMessages and SendQueueMessagesBatch.
#include <QTest>

#include "conformance_qt.h"
#include "conformance_rpc.h"
#include "test_broker.h"

using namespace qs::test::conf;

namespace {
kubemq::AckAllQueueMessagesRequest withoutClientId(kubemq::AckAllQueueMessagesRequest request) {
    request.clear_clientid();
    return request;
}
}  // namespace

class TstConfAckAllBatch : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void case29_ackAllConsumesEverything();
    void case30_ackAllValidation();
    void case31_batchOfValidMessages();
    void case32_batchWithInvalidMessage();
    void case33_emptyBatchIsGrpcError();

private:
    std::unique_ptr<qs::test::TestBroker> broker_;
    std::unique_ptr<Stub> stub_;
};

void TstConfAckAllBatch::initTestCase() {
    broker_ = std::make_unique<qs::test::TestBroker>();
    QVERIFY2(broker_->ok(), broker_->error().c_str());
    stub_ = broker_->newStub();
}

void TstConfAckAllBatch::cleanupTestCase() {
    stub_.reset();
    broker_.reset();
}

void TstConfAckAllBatch::case29_ackAllConsumesEverything() {
    const std::string channel = uniqueChannel("c29");
    QCOMPARE(qstr(sendMany(*stub_, channel, 10)), QString());
    const auto first = ackAll(*stub_, ackAllRequest(channel, 1));
    REQUIRE_NO_ERROR(first);
    QCOMPARE(first.reply.affectedmessages(), std::uint64_t(10));
    QVERIFY2(first.seconds >= 0.5 && first.seconds <= 2.5,
             QByteArray::number(first.seconds).constData());
    const auto second = ackAll(*stub_, ackAllRequest(channel, 1));
    REQUIRE_NO_ERROR(second);
    QCOMPARE(second.reply.affectedmessages(), std::uint64_t(0));
}

void TstConfAckAllBatch::case30_ackAllValidation() {
    const std::string channel = uniqueChannel("c30");
    struct Bad {
        kubemq::AckAllQueueMessagesRequest request;
        std::string_view error;
    };
    const Bad cases[] = {
        {withoutClientId(ackAllRequest(channel, 1)), err::k101},
        {ackAllRequest("", 1), err::k120},
        {ackAllRequest(channel, -1), err::k136},
        {ackAllRequest(channel, 10000000), err::k136},
    };
    for (const auto& bad : cases) {
        const auto result = ackAll(*stub_, bad.request);
        REQUIRE_RPC_OK(result);
        QVERIFY(result.reply.iserror());
        QCOMPARE(qstr(result.reply.error()), qstr(bad.error));
        QCOMPARE(result.reply.affectedmessages(), std::uint64_t(0));
    }
}

void TstConfAckAllBatch::case31_batchOfValidMessages() {
    const std::string channel = uniqueChannel("c31");
    kubemq::QueueMessagesBatchRequest batch;
    batch.set_batchid("b31");
    for (int i = 1; i <= 3; ++i) {
        auto message = makeMessage(channel, "body-" + std::to_string(i));
        message.set_messageid("c31-" + std::to_string(i));
        *batch.add_messages() = message;
    }
    const auto sent = sendBatch(*stub_, batch);
    REQUIRE_RPC_OK(sent);
    QCOMPARE(qstr(sent.reply.batchid()), QStringLiteral("b31"));
    QVERIFY(!sent.reply.haveerrors());
    QCOMPARE(sent.reply.results_size(), 3);
    for (int i = 0; i < 3; ++i) {
        const auto& result = sent.reply.results(i);
        QVERIFY2(!result.iserror(), result.error().c_str());
        QCOMPARE(qstr(result.messageid()), qstr("c31-" + std::to_string(i + 1)));
        QVERIFY(result.sentat() > 0);
    }
    const auto pulled = pull(*stub_, channel, 3, 5);
    REQUIRE_NO_ERROR(pulled);
    QCOMPARE(pulled.reply.messages_size(), 3);
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(qstr(pulled.reply.messages(i).messageid()), qstr("c31-" + std::to_string(i + 1)));
        QCOMPARE(qstr(pulled.reply.messages(i).body()), qstr("body-" + std::to_string(i + 1)));
    }
}

void TstConfAckAllBatch::case32_batchWithInvalidMessage() {
    const std::string channel = uniqueChannel("c32");
    kubemq::QueueMessagesBatchRequest batch;
    batch.set_batchid("b32");
    for (int i = 1; i <= 3; ++i) {
        auto message =
            makeMessage(channel, "body-" + std::to_string(i), "c32-" + std::to_string(i));
        if (i == 2)
            message.clear_clientid();
        *batch.add_messages() = message;
    }
    const auto sent = sendBatch(*stub_, batch);
    REQUIRE_RPC_OK(sent);
    QCOMPARE(qstr(sent.reply.batchid()), QStringLiteral("b32"));
    QCOMPARE(sent.reply.results_size(), 3);
    QVERIFY(!sent.reply.results(0).iserror());
    QVERIFY(sent.reply.results(1).iserror());
    QCOMPARE(qstr(sent.reply.results(1).error()), qstr(err::k101));
    QCOMPARE(qstr(sent.reply.results(1).messageid()), QStringLiteral("c32-2"));
    QVERIFY(!sent.reply.results(2).iserror());
    QVERIFY(!sent.reply.haveerrors());

    const auto pulled = pull(*stub_, channel, 3, 1);
    REQUIRE_NO_ERROR(pulled);
    QCOMPARE(pulled.reply.messages_size(), 2);
    QCOMPARE(qstr(pulled.reply.messages(0).messageid()), QStringLiteral("c32-1"));
    QCOMPARE(qstr(pulled.reply.messages(1).messageid()), QStringLiteral("c32-3"));
}

void TstConfAckAllBatch::case33_emptyBatchIsGrpcError() {
    kubemq::QueueMessagesBatchRequest batch;
    batch.set_batchid("b33");
    const auto sent = sendBatch(*stub_, batch);
    QCOMPARE(sent.status.error_code(), grpc::StatusCode::UNKNOWN);
    QCOMPARE(qstr(sent.status.error_message()), qstr(err::kEmptyBatch));
}

QTEST_APPLESS_MAIN(TstConfAckAllBatch)
#include "tst_conf_ackall_batch.moc"
