#include <grpcpp/grpcpp.h>

#include <QTest>
#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "test_broker.h"

using namespace std::chrono;
using Downstream =
    grpc::ClientReaderWriter<kubemq::QueuesDownstreamRequest, kubemq::QueuesDownstreamResponse>;

namespace {
kubemq::QueueMessage message(const std::string& channel, const std::string& body) {
    kubemq::QueueMessage m;
    m.set_clientid("producer");
    m.set_channel(channel);
    m.set_body(body);
    return m;
}

void send(kubemq::kubemq::Stub& stub, const std::string& channel, int count) {
    for (int i = 0; i < count; ++i) {
        grpc::ClientContext context;
        kubemq::SendQueueMessageResult result;
        QVERIFY(stub.SendQueueMessage(&context, message(channel, "m" + std::to_string(i)), &result)
                    .ok());
        QVERIFY2(!result.iserror(), result.error().c_str());
    }
}

kubemq::QueuesDownstreamRequest get(const std::string& channel, int maxItems, int waitMs) {
    kubemq::QueuesDownstreamRequest request;
    request.set_requestid("get-" + channel);
    request.set_clientid("consumer");
    request.set_channel(channel);
    request.set_requesttypedata(kubemq::Get);
    request.set_maxitems(maxItems);
    request.set_waittimeout(waitMs);
    return request;
}

kubemq::QueuesDownstreamRequest settle(kubemq::QueuesDownstreamRequestType type,
                                       const std::string& txn,
                                       std::vector<std::int64_t> range = {}) {
    kubemq::QueuesDownstreamRequest request;
    request.set_requestid("s");
    request.set_requesttypedata(type);
    request.set_reftransactionid(txn);
    for (auto s : range)
        request.add_sequencerange(s);
    return request;
}

kubemq::Response manage(kubemq::kubemq::Stub& stub, const std::string& op,
                        std::map<std::string, std::string> tags) {
    kubemq::Request request;
    request.set_requestid("r");
    request.set_clientid("admin");
    request.set_requesttypedata(kubemq::Request_RequestType_Query);
    request.set_channel("kubemq.cluster.internal.requests");
    request.set_metadata(op);
    request.set_timeout(10000);
    for (auto& [k, v] : tags)
        (*request.mutable_tags())[k] = v;
    grpc::ClientContext context;
    kubemq::Response response;
    auto status = stub.SendRequest(&context, request, &response);
    if (!status.ok())
        response.set_error("status: " + status.error_message());
    return response;
}
}  // namespace

class TestBrokerStreams : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void downstreamGetAckRangeAndActiveOffsets() {
        qs::test::TestBroker broker;
        auto stub = broker.newStub();
        send(*stub, "ds", 5);
        grpc::ClientContext context;
        auto stream = stub->QueuesDownstream(&context);
        QVERIFY(stream->Write(get("ds", 5, 5000)));
        kubemq::QueuesDownstreamResponse response;
        QVERIFY(stream->Read(&response));
        QCOMPARE(response.messages_size(), 5);
        QCOMPARE(response.refrequestid(), std::string("get-ds"));
        const std::string txn = response.transactionid();
        QVERIFY(stream->Write(settle(kubemq::AckRange, txn, {1, 2, 3})));
        QVERIFY(stream->Write(settle(kubemq::ActiveOffsets, txn)));
        QVERIFY(stream->Read(&response));
        QCOMPARE(response.requesttypedata(), kubemq::ActiveOffsets);
        QCOMPARE(response.activeoffsets_size(), 2);
        QVERIFY(stream->Write(settle(kubemq::AckRange, txn, {9})));
        QVERIFY(stream->Read(&response));
        QCOMPARE(response.error(), std::string("invalid ack sequence id 9"));
        QVERIFY(stream->Write(settle(kubemq::AckAll, txn)));
        QVERIFY(stream->Write(settle(kubemq::AckAll, txn)));
        QVERIFY(stream->Read(&response));
        QCOMPARE(response.error(), std::string("cannot ack messages with closed response "));
        QVERIFY(stream->Write(settle(kubemq::TransactionStatus, txn)));
        QVERIFY(stream->Read(&response));
        QCOMPARE(response.error(), std::string("request unknown"));
        QCOMPARE(response.requesttypedata(), kubemq::PollRequestTypeUnknown);
        // Half-close ends the RPC with OK (spec §5.3).
        QVERIFY(stream->WritesDone());
        QVERIFY(!stream->Read(&response));
        QVERIFY(stream->Finish().ok());
    }

    void cancelledStreamReturnsMessagesToAttachedConsumer() {
        qs::test::TestBroker broker;
        auto stub = broker.newStub();
        send(*stub, "ret", 2);
        auto holder = std::make_unique<grpc::ClientContext>();
        auto first = stub->QueuesDownstream(holder.get());
        QVERIFY(first->Write(get("ret", 2, 5000)));
        kubemq::QueuesDownstreamResponse response;
        QVERIFY(first->Read(&response));
        QCOMPARE(response.messages_size(), 2);

        auto otherStub = broker.newStub();
        grpc::ClientContext otherContext;
        auto second = otherStub->QueuesDownstream(&otherContext);
        QVERIFY(second->Write(get("ret", 2, 10000)));
        std::this_thread::sleep_for(milliseconds(300));
        const auto start = steady_clock::now();
        holder->TryCancel();
        first->Finish();
        QVERIFY(second->Read(&response));
        QVERIFY(steady_clock::now() - start < seconds(5));
        QCOMPARE(response.messages_size(), 2);
        QCOMPARE(response.messages(0).attributes().sequence(), std::uint64_t(1));
        QCOMPARE(response.messages(0).attributes().receivecount(), 1);
        QCOMPARE(response.messages(1).attributes().sequence(), std::uint64_t(2));
        otherContext.TryCancel();
        second->Finish();
    }

    void v1StreamAckEndsWithOk() {
        qs::test::TestBroker broker;
        auto stub = broker.newStub();
        send(*stub, "v1", 1);
        grpc::ClientContext context;
        auto stream = stub->StreamQueueMessage(&context);
        kubemq::StreamQueueMessagesRequest request;
        request.set_requestid("r1");
        request.set_clientid("c");
        request.set_channel("v1");
        request.set_streamrequesttypedata(kubemq::ReceiveMessage);
        request.set_visibilityseconds(10);
        request.set_waittimeseconds(5);
        QVERIFY(stream->Write(request));
        kubemq::StreamQueueMessagesResponse response;
        QVERIFY(stream->Read(&response));
        QVERIFY2(!response.iserror(), response.error().c_str());
        QCOMPARE(response.requestid(), std::string("r1"));
        QCOMPARE(response.message().attributes().receivecount(), 1);
        kubemq::StreamQueueMessagesRequest ack;
        ack.set_clientid("c");
        ack.set_streamrequesttypedata(kubemq::AckMessage);
        ack.set_refsequence(response.message().attributes().sequence() + 1);
        QVERIFY(stream->Write(ack));
        QVERIFY(stream->Read(&response));
        QVERIFY(response.error().starts_with("Error 125"));
        ack.set_refsequence(1);
        QVERIFY(stream->Write(ack));
        QVERIFY(stream->Read(&response));
        QVERIFY(!response.iserror());
        QCOMPARE(response.streamrequesttypedata(), kubemq::AckMessage);
        QVERIFY(!stream->Read(&response));
        QVERIFY(stream->Finish().ok());
    }

    void v1DisconnectRequeuesAtTail() {
        qs::test::TestBroker broker;
        auto stub = broker.newStub();
        send(*stub, "v1d", 2);
        {
            grpc::ClientContext context;
            auto stream = stub->StreamQueueMessage(&context);
            kubemq::StreamQueueMessagesRequest request;
            request.set_clientid("c");
            request.set_channel("v1d");
            request.set_streamrequesttypedata(kubemq::ReceiveMessage);
            QVERIFY(stream->Write(request));
            kubemq::StreamQueueMessagesResponse response;
            QVERIFY(stream->Read(&response));
            QCOMPARE(response.message().attributes().sequence(), std::uint64_t(1));
            context.TryCancel();
            stream->Finish();
        }
        kubemq::ReceiveQueueMessagesRequest pull;
        pull.set_clientid("c");
        pull.set_channel("v1d");
        pull.set_maxnumberofmessages(2);
        pull.set_waittimeseconds(5);
        grpc::ClientContext context;
        kubemq::ReceiveQueueMessagesResponse pulled;
        QVERIFY(stub->ReceiveQueueMessages(&context, pull, &pulled).ok());
        QCOMPARE(pulled.messages_size(), 2);
        QCOMPARE(pulled.messages(0).attributes().sequence(), std::uint64_t(2));
        QCOMPARE(pulled.messages(1).attributes().sequence(), std::uint64_t(3));
        QCOMPARE(pulled.messages(1).attributes().receivecount(), 2);
    }

    void upstreamEndsAfterHalfClose() {
        qs::test::TestBroker broker;
        auto stub = broker.newStub();
        grpc::ClientContext context;
        auto stream = stub->QueuesUpstream(&context);
        kubemq::QueuesUpstreamRequest request;
        request.set_requestid("u1");
        *request.add_messages() = message("up", "a");
        *request.add_messages() = message("up", "");
        QVERIFY(stream->Write(request));
        kubemq::QueuesUpstreamRequest empty;
        empty.set_requestid("u2");
        QVERIFY(stream->Write(empty));
        QVERIFY(stream->WritesDone());
        kubemq::QueuesUpstreamResponse response;
        QVERIFY(stream->Read(&response));
        QCOMPARE(response.refrequestid(), std::string("u1"));
        QCOMPARE(response.results_size(), 2);
        QVERIFY(!response.results(0).iserror());
        QCOMPARE(response.results(1).error(),
                 std::string("Error 110: invalid message, cannot be empty"));
        QVERIFY(stream->Read(&response));
        QCOMPARE(response.error(), std::string("no messages to send"));
        QVERIFY(!stream->Read(&response));
        QVERIFY(stream->Finish().ok());
    }

    void channelManagementCreateListDelete() {
        qs::test::TestBroker broker;
        auto stub = broker.newStub();
        auto list = manage(*stub, "list-channels", {{"channel_type", "queues"}});
        QVERIFY(list.executed());
        QCOMPARE(list.body(), std::string("[]"));
        for (const char* name : {"py_a1", "py_a2", "other"}) {
            auto created =
                manage(*stub, "create-channel",
                       {{"channel_type", "queues"}, {"channel", name}, {"client_id", "c"}});
            QVERIFY2(created.executed() && created.error().empty(), created.error().c_str());
        }
        for (const char* key : {"channel_search", "search"}) {
            list = manage(*stub, "list-channels", {{"channel_type", "queues"}, {key, "py_a"}});
            const auto json = nlohmann::json::parse(list.body());
            QCOMPARE(json.size(), std::size_t(2));
            for (const auto& item : json) {
                QCOMPARE(item["type"].get<std::string>(), std::string("queues"));
                QVERIFY(item["lastActivity"].is_number_integer());
                QVERIFY(item["isActive"].is_boolean());
                for (const char* side : {"incoming", "outgoing"})
                    for (const char* field :
                         {"messages", "volume", "waiting", "expired", "delayed"})
                        QVERIFY(item[side][field].is_number_integer());
            }
        }
        send(*stub, "other", 2);
        auto deleted =
            manage(*stub, "delete-channel", {{"channel_type", "queues"}, {"channel", "other"}});
        QVERIFY(deleted.executed());
        QVERIFY(deleted.error().empty());
        list = manage(*stub, "list-channels",
                      {{"channel_type", "queues"}, {"channel_search", "other"}});
        QCOMPARE(list.body(), std::string("[]"));
        auto bad = manage(*stub, "create-channel", {{"channel_type", "events"}, {"channel", "e"}});
        QVERIFY(!bad.executed());
        QVERIFY(!bad.error().empty());
    }

    void otherPatternsAreUnimplemented() {
        qs::test::TestBroker broker;
        auto stub = broker.newStub();
        grpc::ClientContext context;
        kubemq::Event event;
        kubemq::Result result;
        auto status = stub->SendEvent(&context, event, &result);
        QCOMPARE(status.error_code(), grpc::StatusCode::UNIMPLEMENTED);
        QVERIFY(!status.error_message().empty());
        grpc::ClientContext requestContext;
        kubemq::Request request;
        request.set_channel("some.commands");
        kubemq::Response response;
        status = stub->SendRequest(&requestContext, request, &response);
        QCOMPARE(status.error_code(), grpc::StatusCode::UNIMPLEMENTED);
    }

    void oversizedRequestIsRefused() {
        auto options = qs::test::TestBroker::defaultOptions();
        options.maxMessageBytes = 64 * 1024;
        qs::test::TestBroker broker(options);
        auto stub = broker.newStub();
        grpc::ClientContext context;
        kubemq::SendQueueMessageResult result;
        auto status =
            stub->SendQueueMessage(&context, message("big", std::string(100 * 1024, 'x')), &result);
        QCOMPARE(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
        send(*stub, "big", 1);  // the broker still serves
    }
};

QTEST_APPLESS_MAIN(TestBrokerStreams)
#include "tst_broker_streams.moc"
