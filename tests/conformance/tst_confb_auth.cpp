// Spec §4 case 80 (§2.16): with a token configured every RPC but Ping needs
// the raw token in the `authorization` metadata.
#include <QTest>
#include <memory>

#include "conformance_qt.h"
#include "conformance_streams.h"
#include "test_broker.h"

using namespace qs::test::conf;
using namespace std::chrono_literals;

namespace {

constexpr const char* kToken = "confb-secret-token";

enum class Credentials { None, Wrong, Right };

Metadata metadataFor(Credentials credentials) {
    switch (credentials) {
        case Credentials::None:
            return {};
        case Credentials::Wrong:
            return {{"authorization", "not-the-token"}};
        case Credentials::Right:
            return {{"authorization", kToken}};
    }
    return {};
}

void applyCredentials(grpc::ClientContext& context, Credentials credentials) {
    for (const auto& [key, value] : metadataFor(credentials))
        context.AddMetadata(key, value);
}

}  // namespace

Q_DECLARE_METATYPE(Credentials)

class TestConfbAuth : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();

    void case80_unauthenticatedWithoutToken_data();
    void case80_unauthenticatedWithoutToken();
    void case80_pingNeedsNoToken();
    void case80_rightTokenWorks();

private:
    std::unique_ptr<qs::test::TestBroker> broker_;
    std::unique_ptr<Stub> stub_;
};

void TestConfbAuth::initTestCase() {
    auto options = qs::test::TestBroker::defaultOptions();
    options.authToken = kToken;
    broker_ = std::make_unique<qs::test::TestBroker>(std::move(options));
    QVERIFY2(broker_->ok(), broker_->error().c_str());
    stub_ = broker_->newStub();
}

void TestConfbAuth::cleanupTestCase() {
    stub_.reset();
    broker_.reset();
}

void TestConfbAuth::case80_unauthenticatedWithoutToken_data() {
    QTest::addColumn<Credentials>("credentials");
    QTest::addColumn<QString>("rpc");
    for (const auto& [credentials, label] :
         {std::pair{Credentials::None, "no token"}, std::pair{Credentials::Wrong, "wrong token"}}) {
        for (const char* rpc :
             {"SendQueueMessage", "SendQueueMessagesBatch", "ReceiveQueueMessages",
              "AckAllQueueMessages", "QueuesInfo", "SendRequest", "QueuesDownstream",
              "QueuesUpstream", "StreamQueueMessage"}) {
            QTest::addRow("%s, %s", label, rpc) << credentials << QString::fromLatin1(rpc);
        }
    }
}

void TestConfbAuth::case80_unauthenticatedWithoutToken() {
    QFETCH(Credentials, credentials);
    QFETCH(QString, rpc);

    grpc::Status status;
    grpc::ClientContext context;
    applyCredentials(context, credentials);
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    if (rpc == QStringLiteral("SendQueueMessage")) {
        kubemq::SendQueueMessageResult result;
        status = stub_->SendQueueMessage(&context, makeMessage("q80", "x"), &result);
    } else if (rpc == QStringLiteral("SendQueueMessagesBatch")) {
        kubemq::QueueMessagesBatchRequest batch;
        *batch.add_messages() = makeMessage("q80", "x");
        kubemq::QueueMessagesBatchResponse response;
        status = stub_->SendQueueMessagesBatch(&context, batch, &response);
    } else if (rpc == QStringLiteral("ReceiveQueueMessages")) {
        kubemq::ReceiveQueueMessagesRequest request;
        request.set_clientid(std::string(kClientId));
        request.set_channel("q80");
        request.set_maxnumberofmessages(1);
        request.set_waittimeseconds(1);
        kubemq::ReceiveQueueMessagesResponse response;
        status = stub_->ReceiveQueueMessages(&context, request, &response);
    } else if (rpc == QStringLiteral("AckAllQueueMessages")) {
        kubemq::AckAllQueueMessagesRequest request;
        request.set_clientid(std::string(kClientId));
        request.set_channel("q80");
        request.set_waittimeseconds(1);
        kubemq::AckAllQueueMessagesResponse response;
        status = stub_->AckAllQueueMessages(&context, request, &response);
    } else if (rpc == QStringLiteral("QueuesInfo")) {
        kubemq::QueuesInfoRequest request;
        kubemq::QueuesInfoResponse response;
        status = stub_->QueuesInfo(&context, request, &response);
    } else if (rpc == QStringLiteral("SendRequest")) {
        kubemq::Response response;
        status = stub_->SendRequest(
            &context, managementRequest("list-channels", {{"channel_type", "queues"}}), &response);
    } else {
        // Streams: the call must end with UNAUTHENTICATED and never answer.
        const Metadata metadata = metadataFor(credentials);
        if (rpc == QStringLiteral("QueuesDownstream")) {
            DownstreamSession stream(broker_->newChannel(), metadata);
            stream.sendGet("g80", "q80", 1, 1000);
            QVERIFY(stream.waitEnded(10s));
            QVERIFY(!stream.next(std::chrono::milliseconds(0)));
            status = stream.finish();
        } else if (rpc == QStringLiteral("QueuesUpstream")) {
            UpstreamSession stream(broker_->newChannel(), metadata);
            kubemq::QueuesUpstreamRequest request;
            request.set_requestid("u80");
            *request.add_messages() = makeMessage("q80", "x");
            stream.send(request);
            QVERIFY(stream.waitEnded(10s));
            QVERIFY(!stream.next(std::chrono::milliseconds(0)));
            status = stream.finish();
        } else {
            V1StreamSession stream(broker_->newChannel(), metadata);
            kubemq::StreamQueueMessagesRequest request;
            request.set_requestid("v80");
            request.set_clientid(std::string(kClientId));
            request.set_streamrequesttypedata(kubemq::ReceiveMessage);
            request.set_channel("q80");
            request.set_waittimeseconds(1);
            stream.send(request);
            QVERIFY(stream.waitEnded(10s));
            QVERIFY(!stream.next(std::chrono::milliseconds(0)));
            status = stream.finish();
        }
    }
    QCOMPARE(qstr(statusCodeName(status.error_code())), QStringLiteral("UNAUTHENTICATED"));

    // Nothing was stored by the refused calls.
    grpc::ClientContext infoContext;
    infoContext.AddMetadata("authorization", kToken);
    kubemq::QueuesInfoRequest infoRequest;
    kubemq::QueuesInfoResponse info;
    const grpc::Status infoStatus = stub_->QueuesInfo(&infoContext, infoRequest, &info);
    QVERIFY2(infoStatus.ok(), describe(infoStatus).c_str());
    QCOMPARE(info.info().waiting(), qint64(0));
}

void TestConfbAuth::case80_pingNeedsNoToken() {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    kubemq::PingResult result;
    const grpc::Status status = stub_->Ping(&context, kubemq::Empty(), &result);
    QVERIFY2(status.ok(), describe(status).c_str());
    QVERIFY(!result.host().empty());
    QVERIFY(!result.version().empty());
}

void TestConfbAuth::case80_rightTokenWorks() {
    grpc::ClientContext sendContext;
    sendContext.AddMetadata("authorization", kToken);
    kubemq::SendQueueMessageResult sent;
    grpc::Status status =
        stub_->SendQueueMessage(&sendContext, makeMessage("q80ok", "x", "m80"), &sent);
    QVERIFY2(status.ok(), describe(status).c_str());
    QVERIFY2(!sent.iserror(), sent.error().c_str());

    DownstreamSession stream(broker_->newChannel(), metadataFor(Credentials::Right));
    const auto frame = stream.get("g80ok", "q80ok", 1, 5000);
    QVERIFY(frame);
    QCOMPARE(frame->message.iserror(), false);
    QCOMPARE(qstrs(idsOf(frame->message.messages())), QStringList{QStringLiteral("m80")});
    QVERIFY(stream.sendSettle("a80ok", kubemq::AckAll, frame->message.transactionid()));
}

QTEST_APPLESS_MAIN(TestConfbAuth)
#include "tst_confb_auth.moc"
