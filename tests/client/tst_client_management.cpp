// Channel management: list / create / delete / purge against the embedded
// broker, and the fallback for servers without it. A real community v2.4.0
// server cannot run here, so the fallback is exercised against a small
// in-process gRPC server of this test that answers SendRequest the way v2.4.0
// does (INTERNAL "Error 301: timeout for request message" after the request's
// Timeout) and serves QueuesInfo.
#include <grpcpp/grpcpp.h>

#include <QtTest/QtTest>
#include <algorithm>
#include <atomic>
#include <thread>

#include "client_test_support.h"
#include "kubemq.grpc.pb.h"
#include "test_broker.h"

using namespace qs;
using namespace qs::client;
using qs::test::makeClient;
using qs::test::textMessage;

namespace {

// Speaks the two RPCs the fallback needs like a community v2.4.0 server.
class LegacyServer final : public kubemq::kubemq::Service {
public:
    LegacyServer() {
        grpc::ServerBuilder builder;
        builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
        builder.RegisterService(this);
        server_ = builder.BuildAndStart();
    }
    ~LegacyServer() override { server_->Shutdown(std::chrono::system_clock::now()); }

    std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
    int sendRequestCalls() const { return sendRequests_.load(); }

    grpc::Status SendRequest(grpc::ServerContext* context, const kubemq::Request* request,
                             kubemq::Response*) override {
        ++sendRequests_;
        // No responder on the internal channel: wait the request's Timeout.
        const auto until = std::chrono::steady_clock::now() +
                           std::chrono::milliseconds(std::clamp(request->timeout(), 0, 10000));
        while (std::chrono::steady_clock::now() < until && !context->IsCancelled()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return grpc::Status(grpc::StatusCode::INTERNAL, "Error 301: timeout for request message");
    }

    grpc::Status QueuesInfo(grpc::ServerContext*, const kubemq::QueuesInfoRequest* request,
                            kubemq::QueuesInfoResponse* response) override {
        response->set_refrequestid(request->requestid());
        kubemq::QueuesInfo* info = response->mutable_info();
        info->set_totalqueue(2);
        info->set_sent(7);
        info->set_delivered(3);
        info->set_waiting(4);
        addQueue(info, "orders", 5, 120, 2, 3);
        addQueue(info, "billing", 2, 40, 1, 1);
        return grpc::Status::OK;
    }

private:
    static void addQueue(kubemq::QueuesInfo* info, const std::string& name, std::int64_t sent,
                         std::int64_t bytes, std::int64_t delivered, std::int64_t waiting) {
        kubemq::QueueInfo* queue = info->add_queues();
        queue->set_name(name);
        queue->set_messages(sent);
        queue->set_bytes(bytes);
        queue->set_firstsequence(1);
        queue->set_lastsequence(sent);
        queue->set_sent(sent);
        queue->set_delivered(delivered);
        queue->set_waiting(waiting);
        queue->set_subscribers(1);
    }

    int port_ = 0;
    std::unique_ptr<grpc::Server> server_;
    std::atomic<int> sendRequests_{0};
};

std::unique_ptr<QueuesClient> legacyClient(const std::string& address) {
    ClientOptions options;
    options.address = address;
    options.clientId = "legacy";
    options.channelManagementProbeTimeout = std::chrono::milliseconds(300);
    auto created = QueuesClient::create(options);
    if (!created.ok()) {
        qFatal("%s", created.error().describe().c_str());
    }
    return std::move(created).value();
}

const QueueChannelInfo* find(const std::vector<QueueChannelInfo>& list, const std::string& name) {
    auto it = std::find_if(list.begin(), list.end(),
                           [&](const QueueChannelInfo& info) { return info.name == name; });
    return it == list.end() ? nullptr : &*it;
}

}  // namespace

class TestClientManagement : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY2(broker_.ok(), broker_.error().c_str()); }

    void createListDelete();
    void listShowsStatsAndFilters();
    void listCountsThePollingClients();
    void purge();
    void queuesInfo();
    void legacyServerListFallsBack();
    void legacyServerCreateDeleteUnsupported();

private:
    qs::test::TestBroker broker_;
};

void TestClientManagement::createListDelete() {
    auto client = makeClient(broker_.address());
    QS_COMPARE_ENUM(client->channelManagementSupport(), QueuesClient::ChannelManagement::Unknown);
    QS_VERIFY_OK(client->createQueue("mgmt.created"));
    QS_COMPARE_ENUM(client->channelManagementSupport(), QueuesClient::ChannelManagement::Supported);
    auto listed = client->listQueues();
    QS_VERIFY_OK(listed);
    const QueueChannelInfo* created = find(listed.value(), "mgmt.created");
    QVERIFY(created != nullptr);
    QCOMPARE(created->type, std::string("queues"));
    QS_COMPARE_ENUM(created->source, ChannelInfoSource::ChannelManagement);
    QCOMPARE(created->incoming.messages, std::int64_t{0});

    QS_VERIFY_OK(client->deleteQueue("mgmt.created"));
    auto after = client->listQueues();
    QS_VERIFY_OK(after);
    QVERIFY(find(after.value(), "mgmt.created") == nullptr);
}

void TestClientManagement::listShowsStatsAndFilters() {
    auto client = makeClient(broker_.address());
    for (int i = 0; i < 2; ++i) {
        auto sent = client->send(textMessage("mgmt.stats.a", "12345"));
        QVERIFY(sent.ok() && !sent->isError);
    }
    auto other = client->send(textMessage("mgmt.other", "x"));
    QVERIFY(other.ok() && !other->isError);
    auto listed = client->listQueues("mgmt.stats");
    QS_VERIFY_OK(listed);
    const QueueChannelInfo* stats = find(listed.value(), "mgmt.stats.a");
    QVERIFY(stats != nullptr);
    QCOMPARE(stats->incoming.messages, std::int64_t{2});
    QVERIFY(stats->incoming.volume >= 10);  // bytes as the broker counts them (body at least)
    QCOMPARE(stats->outgoing.waiting, std::int64_t{2});
    QVERIFY(stats->lastActivity > 0);
    QCOMPARE(stats->clients, std::int64_t{0});               // nobody polls it
    QVERIFY(find(listed.value(), "mgmt.other") == nullptr);  // filtered out
}

// The list's "clients" key: the consumers polling the channel right now.
void TestClientManagement::listCountsThePollingClients() {
    auto client = makeClient(broker_.address());
    QS_VERIFY_OK(client->createQueue("mgmt.clients"));
    auto poller = makeClient(broker_.address());
    std::thread poll([&] {
        // Long poll on the empty channel: counted while it waits.
        (void)poller->receive("mgmt.clients", 1, std::chrono::seconds(30));
    });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    std::int64_t clients = -1;
    while (clients != 1 && std::chrono::steady_clock::now() < deadline) {
        auto listed = client->listQueues("mgmt.clients");
        QS_VERIFY_OK(listed);
        const QueueChannelInfo* info = find(listed.value(), "mgmt.clients");
        QVERIFY(info != nullptr);
        clients = info->clients;
        if (clients != 1) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    }
    auto sent = client->send(textMessage("mgmt.clients", "wake"));  // ends the poll
    QVERIFY(sent.ok() && !sent->isError);
    poll.join();
    QCOMPARE(clients, std::int64_t{1});
}

void TestClientManagement::purge() {
    auto client = makeClient(broker_.address());
    for (int i = 0; i < 3; ++i) {
        auto sent = client->send(textMessage("mgmt.purge", "x"));
        QVERIFY(sent.ok() && !sent->isError);
    }
    auto purged = client->purgeQueue("mgmt.purge");
    QS_VERIFY_OK(purged);
    QCOMPARE(purged.value(), std::uint64_t{3});
    auto peeked = client->peek("mgmt.purge", 10, std::chrono::seconds(1));
    QS_VERIFY_OK(peeked);
    QVERIFY(peeked->messages.empty());
}

void TestClientManagement::queuesInfo() {
    auto client = makeClient(broker_.address());
    auto sent = client->send(textMessage("mgmt.info", "abc"));
    QVERIFY(sent.ok() && !sent->isError);
    auto info = client->queuesInfo("mgmt.info");
    QS_VERIFY_OK(info);
    QCOMPARE(info->queues.size(), std::size_t{1});
    QCOMPARE(info->queues[0].name, std::string("mgmt.info"));
    QS_COMPARE_ENUM(info->queues[0].source, ChannelInfoSource::QueuesInfo);
    QCOMPARE(info->queues[0].storedMessages, std::int64_t{1});
}

void TestClientManagement::legacyServerListFallsBack() {
    LegacyServer server;
    auto client = legacyClient(server.address());
    auto listed = client->listQueues();
    QS_VERIFY_OK(listed);
    QCOMPARE(server.sendRequestCalls(), 1);
    QS_COMPARE_ENUM(client->channelManagementSupport(),
                    QueuesClient::ChannelManagement::Unsupported);
    QCOMPARE(listed->size(), std::size_t{2});
    const QueueChannelInfo* orders = find(listed.value(), "orders");
    QVERIFY(orders != nullptr);
    QS_COMPARE_ENUM(orders->source, ChannelInfoSource::QueuesInfo);
    QCOMPARE(orders->incoming.messages, std::int64_t{5});
    QCOMPARE(orders->incoming.volume, std::int64_t{120});
    QCOMPARE(orders->outgoing.messages, std::int64_t{2});
    QCOMPARE(orders->outgoing.waiting, std::int64_t{3});
    QCOMPARE(orders->subscribers, std::int64_t{1});
    QCOMPARE(orders->clients, std::int64_t{1});

    // Remembered: later calls do not ask the server again.
    auto filtered = client->listQueues("bill");
    QS_VERIFY_OK(filtered);
    QCOMPARE(filtered->size(), std::size_t{1});
    QCOMPARE(filtered->front().name, std::string("billing"));
    auto created = client->createQueue("new");
    QVERIFY(!created.ok());
    QS_COMPARE_ENUM(created.error().category, ErrorCategory::Unsupported);
    QCOMPARE(server.sendRequestCalls(), 1);
}

void TestClientManagement::legacyServerCreateDeleteUnsupported() {
    LegacyServer server;
    auto client = legacyClient(server.address());
    auto created = client->createQueue("q1");
    QVERIFY(!created.ok());
    QS_COMPARE_ENUM(created.error().category, ErrorCategory::Unsupported);
    QVERIFY2(
        created.error().message.find("does not support channel management") != std::string::npos,
        created.error().message.c_str());
    auto deleted = client->deleteQueue("q1");
    QVERIFY(!deleted.ok());
    QS_COMPARE_ENUM(deleted.error().category, ErrorCategory::Unsupported);
    QCOMPARE(server.sendRequestCalls(), 1);  // the second call answered from memory
}

QTEST_APPLESS_MAIN(TestClientManagement)
#include "tst_client_management.moc"
