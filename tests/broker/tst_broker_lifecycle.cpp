#include <grpcpp/grpcpp.h>

#include <QTest>
#include <chrono>
#include <thread>

#include "test_broker.h"

using namespace std::chrono;

class TestBrokerLifecycle : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void startsOnEphemeralPortAndAnswersPing() {
        qs::test::TestBroker broker;
        QVERIFY2(broker.ok(), broker.error().c_str());
        QVERIFY(broker.broker().port() > 0);
        QVERIFY(broker.broker().isRunning());
        QCOMPARE(QString::fromStdString(broker.address()),
                 QStringLiteral("127.0.0.1:%1").arg(broker.broker().port()));
        auto stub = broker.newStub();
        grpc::ClientContext context;
        kubemq::Empty empty;
        kubemq::PingResult ping;
        QVERIFY(stub->Ping(&context, empty, &ping).ok());
        QCOMPARE(QString::fromStdString(ping.version()), QStringLiteral("v2.4.0"));
        QVERIFY(!ping.host().empty());
        QVERIFY(ping.host().find('.') == std::string::npos);
        const auto now = duration_cast<seconds>(system_clock::now().time_since_epoch()).count();
        QVERIFY(ping.serverstarttime() <= now);
        QVERIFY(ping.serverstarttime() > now - 60);
        QVERIFY(ping.serveruptimeseconds() >= 0 && ping.serveruptimeseconds() < 60);
    }

    void pingHostFromOptions() {
        auto options = qs::test::TestBroker::defaultOptions();
        options.hostName = "custom-host";
        qs::test::TestBroker broker(options);
        QVERIFY(broker.ok());
        grpc::ClientContext context;
        kubemq::PingResult ping;
        QVERIFY(broker.newStub()->Ping(&context, kubemq::Empty(), &ping).ok());
        QCOMPARE(QString::fromStdString(ping.host()), QStringLiteral("custom-host"));
    }

    void portInUseIsAnError() {
        qs::test::TestBroker first;
        QVERIFY(first.ok());
        auto options = qs::test::TestBroker::defaultOptions();
        options.port = first.broker().port();
        qs::broker::Broker second(options);
        std::string error;
        QVERIFY(!second.start(&error));
        QVERIFY(!second.isRunning());
        QVERIFY2(error.find(std::to_string(options.port)) != std::string::npos, error.c_str());
        second.stop();  // harmless on a broker that never started
    }

    void stopIsIdempotentAndRestartable() {
        qs::broker::Broker broker(qs::test::TestBroker::defaultOptions());
        QVERIFY(broker.start());
        broker.stop();
        broker.stop();
        QVERIFY(!broker.isRunning());
        QVERIFY(broker.start());
        QVERIFY(broker.isRunning());
    }

    void stopCancelsLongPollsPromptly() {
        qs::test::TestBroker broker;
        QVERIFY(broker.ok());
        auto stub = broker.newStub();
        auto downstreamStub = broker.newStub();
        std::atomic<int> finished{0};
        grpc::ClientContext pullContext;
        std::thread pull([&] {
            kubemq::ReceiveQueueMessagesRequest request;
            request.set_clientid("c");
            request.set_channel("long-poll");
            request.set_maxnumberofmessages(1);
            request.set_waittimeseconds(60);
            kubemq::ReceiveQueueMessagesResponse response;
            stub->ReceiveQueueMessages(&pullContext, request, &response);
            ++finished;
        });
        grpc::ClientContext streamContext;
        auto stream = downstreamStub->QueuesDownstream(&streamContext);
        kubemq::QueuesDownstreamRequest get;
        get.set_clientid("c");
        get.set_channel("long-poll");
        get.set_requesttypedata(kubemq::Get);
        get.set_maxitems(1);
        get.set_waittimeout(60000);
        QVERIFY(stream->Write(get));
        auto v1Stub = broker.newStub();
        grpc::ClientContext v1Context;
        auto v1 = v1Stub->StreamQueueMessage(&v1Context);
        kubemq::StreamQueueMessagesRequest receive;
        receive.set_clientid("c");
        receive.set_channel("long-poll-v1");
        receive.set_streamrequesttypedata(kubemq::ReceiveMessage);
        receive.set_waittimeseconds(60);
        QVERIFY(v1->Write(receive));
        std::this_thread::sleep_for(milliseconds(500));
        const auto start = steady_clock::now();
        broker.broker().stop();
        const auto elapsed = steady_clock::now() - start;
        QVERIFY2(elapsed < seconds(2),
                 qPrintable(QString::number(duration_cast<milliseconds>(elapsed).count())));
        pull.join();
        kubemq::QueuesDownstreamResponse response;
        while (stream->Read(&response)) {
        }
        stream->Finish();
        kubemq::StreamQueueMessagesResponse v1Response;
        while (v1->Read(&v1Response)) {
        }
        v1->Finish();
        QCOMPARE(finished.load(), 1);
    }
};

QTEST_APPLESS_MAIN(TestBrokerLifecycle)
#include "tst_broker_lifecycle.moc"
