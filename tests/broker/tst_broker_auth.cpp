#include <grpcpp/grpcpp.h>

#include <QTest>

#include "test_broker.h"

namespace {
grpc::Status sendWith(kubemq::kubemq::Stub& stub, const char* token) {
    grpc::ClientContext context;
    if (token != nullptr)
        context.AddMetadata("authorization", token);
    kubemq::QueueMessage message;
    message.set_clientid("c");
    message.set_channel("auth");
    message.set_body("b");
    kubemq::SendQueueMessageResult result;
    return stub.SendQueueMessage(&context, message, &result);
}
}  // namespace

class TestBrokerAuth : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void withoutTokenEverythingPasses() {
        qs::test::TestBroker broker;
        auto stub = broker.newStub();
        QVERIFY(sendWith(*stub, nullptr).ok());
        QVERIFY(sendWith(*stub, "anything").ok());
    }

    void tokenIsRequiredButNotForPing() {
        auto options = qs::test::TestBroker::defaultOptions();
        options.authToken = "s3cret";
        qs::test::TestBroker broker(options);
        auto stub = broker.newStub();
        auto status = sendWith(*stub, nullptr);
        QCOMPARE(status.error_code(), grpc::StatusCode::UNAUTHENTICATED);
        QVERIFY(
            status.error_message().starts_with("Error 421: authentication verification failed, "));
        QCOMPARE(sendWith(*stub, "wrong").error_code(), grpc::StatusCode::UNAUTHENTICATED);
        QVERIFY(sendWith(*stub, "s3cret").ok());
        {
            grpc::ClientContext context;
            kubemq::PingResult ping;
            QVERIFY(stub->Ping(&context, kubemq::Empty(), &ping).ok());
        }
        {
            grpc::ClientContext context;
            auto stream = stub->QueuesDownstream(&context);
            kubemq::QueuesDownstreamResponse response;
            QVERIFY(!stream->Read(&response));
            QCOMPARE(stream->Finish().error_code(), grpc::StatusCode::UNAUTHENTICATED);
        }
        {
            grpc::ClientContext context;
            auto stream = stub->StreamQueueMessage(&context);
            kubemq::StreamQueueMessagesResponse response;
            QVERIFY(!stream->Read(&response));
            QCOMPARE(stream->Finish().error_code(), grpc::StatusCode::UNAUTHENTICATED);
        }
        {
            grpc::ClientContext context;
            context.AddMetadata("authorization", "s3cret");
            kubemq::ReceiveQueueMessagesRequest request;
            request.set_clientid("c");
            request.set_channel("auth");
            request.set_maxnumberofmessages(5);
            request.set_waittimeseconds(1);
            kubemq::ReceiveQueueMessagesResponse response;
            QVERIFY(stub->ReceiveQueueMessages(&context, request, &response).ok());
            QCOMPARE(response.messagesreceived(), 1);
        }
    }
};

QTEST_APPLESS_MAIN(TestBrokerAuth)
#include "tst_broker_auth.moc"
