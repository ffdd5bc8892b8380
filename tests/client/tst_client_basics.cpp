// Connecting, ping, sending (single, batch, upstream), argument checks and
// the transport error categories, against the real embedded broker.
#include <QtTest/QtTest>
#include <atomic>
#include <thread>
#include <vector>

#include "client/argument_checks.h"
#include "client_test_support.h"
#include "test_broker.h"

using namespace qs;
using namespace qs::client;
using qs::test::makeClient;
using qs::test::textMessage;

class TestClientBasics : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY2(broker_.ok(), broker_.error().c_str()); }

    void createRejectsBadOptions();
    void tlsFilesMustExist();
    void ping();
    void sendSingleRoundTrip();
    void sendPolicyTimes();
    void serverRejectsInBand();
    void sendBatch();
    void emptyBatch();
    void upstreamSends();
    void upstreamConcurrentSendsAreCorrelated();
    void upstreamEmptyRequest();
    void argumentChecks();
    void unavailableIsQuick();

private:
    qs::test::TestBroker broker_;
};

void TestClientBasics::createRejectsBadOptions() {
    ClientOptions options;
    options.clientId = "x";
    auto noAddress = QueuesClient::create(options);
    QVERIFY(!noAddress.ok());
    QS_COMPARE_ENUM(noAddress.error().category, ErrorCategory::InvalidArgument);

    options.address = broker_.address();
    options.clientId.clear();
    auto noId = QueuesClient::create(options);
    QVERIFY(!noId.ok());
    QS_COMPARE_ENUM(noId.error().category, ErrorCategory::InvalidArgument);
    QVERIFY(noId.error().message.find("client id") != std::string::npos);
}

void TestClientBasics::tlsFilesMustExist() {
    ClientOptions options;
    options.address = broker_.address();
    options.clientId = "tls";
    options.tls.enabled = true;
    options.tls.caFile = "/nonexistent/queuescope/ca.pem";
    auto missingCa = QueuesClient::create(options);
    QVERIFY(!missingCa.ok());
    QS_COMPARE_ENUM(missingCa.error().category, ErrorCategory::InvalidArgument);
    QVERIFY(missingCa.error().message.find("/nonexistent/queuescope/ca.pem") != std::string::npos);
    QVERIFY(missingCa.error().message.find("CA file") != std::string::npos);

    options.tls.caFile.clear();
    options.tls.certFile = "/nonexistent/queuescope/client.crt";
    auto certWithoutKey = QueuesClient::create(options);
    QVERIFY(!certWithoutKey.ok());
    QS_COMPARE_ENUM(certWithoutKey.error().category, ErrorCategory::InvalidArgument);

    options.tls.keyFile = "/nonexistent/queuescope/client.key";
    auto missingCert = QueuesClient::create(options);
    QVERIFY(!missingCert.ok());
    QVERIFY(missingCert.error().message.find("client.crt") != std::string::npos);

    // An existing but non-PEM file passes the read check; only missing files fail here.
    QTemporaryFile cert;
    QVERIFY(cert.open());
    cert.write("not a certificate");
    cert.flush();
    options.tls.certFile = cert.fileName().toStdString();
    auto missingKey = QueuesClient::create(options);
    QVERIFY(!missingKey.ok());
    QVERIFY(missingKey.error().message.find("client.key") != std::string::npos);
}

void TestClientBasics::ping() {
    auto client = makeClient(broker_.address());
    auto info = client->ping();
    QS_VERIFY_OK(info);
    QVERIFY(!info->host.empty());
    QCOMPARE(info->version, std::string("v2.4.0"));
    QVERIFY(info->startTime > 0);
    QVERIFY(info->uptimeSeconds >= 0);
}

void TestClientBasics::sendSingleRoundTrip() {
    auto client = makeClient(broker_.address(), "sender-1");
    QueueMessage message = textMessage("basics.single", "hello");
    message.metadata = "meta";
    message.tags = {{"k1", "v1"}, {"k2", "v2"}};
    message.policy.deadLetterQueue = "basics.single.dlq";
    message.policy.maxReceiveCount = 3;
    auto sent = client->send(message);
    QS_VERIFY_OK(sent);
    QVERIFY2(!sent->isError, sent->error.c_str());
    QVERIFY(!sent->messageId.empty());
    QVERIFY(sent->sentAt > 0);
    QCOMPARE(sent->expirationAt, std::int64_t{0});
    QCOMPARE(sent->delayedTo, std::int64_t{0});

    auto peeked = client->peek("basics.single", 10, std::chrono::seconds(1));
    QS_VERIFY_OK(peeked);
    QVERIFY(peeked->isPeek);
    QCOMPARE(peeked->messages.size(), std::size_t{1});
    const QueueMessage& got = peeked->messages.front();
    QCOMPARE(got.id, sent->messageId);
    QCOMPARE(got.channel, std::string("basics.single"));
    QCOMPARE(got.clientId, std::string("sender-1"));  // filled from the client id
    QCOMPARE(got.metadata, std::string("meta"));
    QCOMPARE(got.body, std::string("hello"));
    QCOMPARE(got.tags.size(), std::size_t{2});
    QCOMPARE(got.tags.at("k2"), std::string("v2"));
    QCOMPARE(got.attributes.sequence, std::uint64_t{1});
    QCOMPARE(got.attributes.receiveCount, 1);
    QVERIFY(got.attributes.timestamp > 0);
    QCOMPARE(got.policy.maxReceiveCount, 3);
    QCOMPARE(got.policy.deadLetterQueue, std::string("basics.single.dlq"));
}

void TestClientBasics::sendPolicyTimes() {
    auto client = makeClient(broker_.address());
    QueueMessage message = textMessage("basics.policy", "p");
    message.policy.expirationSeconds = 60;
    message.policy.delaySeconds = 5;
    auto sent = client->send(message);
    QS_VERIFY_OK(sent);
    QVERIFY2(!sent->isError, sent->error.c_str());
    const std::int64_t second = 1'000'000'000;
    QVERIFY(sent->delayedTo >= sent->sentAt + 4 * second);
    QVERIFY(sent->delayedTo <= sent->sentAt + 6 * second);
    QVERIFY(sent->expirationAt >= sent->sentAt + 64 * second);
    QVERIFY(sent->expirationAt <= sent->sentAt + 66 * second);
    // Delayed: not visible yet.
    auto peeked = client->peek("basics.policy", 1, std::chrono::seconds(1));
    QS_VERIFY_OK(peeked);
    QCOMPARE(peeked->messages.size(), std::size_t{0});
}

void TestClientBasics::serverRejectsInBand() {
    // With local checks off, the server's own validation answers in-band.
    auto client = makeClient(broker_.address(), "raw", {}, false);
    QueueMessage message = textMessage("basics.reject", "x");
    message.policy.expirationSeconds = 50000;
    auto sent = client->send(message);
    QS_VERIFY_OK(sent);
    QVERIFY(sent->isError);
    QVERIFY2(sent->error.rfind("Error 133", 0) == 0, sent->error.c_str());
    QCOMPARE(sent->sentAt, std::int64_t{0});

    auto empty = client->send(textMessage("basics.reject", ""));
    QS_VERIFY_OK(empty);
    QVERIFY(empty->isError);
    QVERIFY2(empty->error.rfind("Error 110", 0) == 0, empty->error.c_str());

    auto badChannel = client->pull("bad channel", 1, std::chrono::seconds(1));
    QVERIFY(!badChannel.ok());
    QS_COMPARE_ENUM(badChannel.error().category, ErrorCategory::ServerError);
    QVERIFY2(badChannel.error().message.rfind("Error 120", 0) == 0,
             badChannel.error().message.c_str());
}

void TestClientBasics::sendBatch() {
    auto client = makeClient(broker_.address());
    std::vector<QueueMessage> batch;
    for (int i = 0; i < 3; ++i) {
        batch.push_back(textMessage("basics.batch", "m" + std::to_string(i)));
    }
    auto sent = client->sendBatch(batch, "batch-7");
    QS_VERIFY_OK(sent);
    QCOMPARE(sent->batchId, std::string("batch-7"));
    QVERIFY(!sent->haveErrors);
    QCOMPARE(sent->results.size(), std::size_t{3});
    for (const SendResult& result : sent->results) {
        QVERIFY2(!result.isError, result.error.c_str());
    }
    auto pulled = client->pull("basics.batch", 10, std::chrono::seconds(1));
    QS_VERIFY_OK(pulled);
    QCOMPARE(pulled->messages.size(), std::size_t{3});
    QCOMPARE(pulled->messagesReceived, 3);
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(pulled->messages[static_cast<std::size_t>(i)].body, "m" + std::to_string(i));
        QCOMPARE(pulled->messages[static_cast<std::size_t>(i)].id,
                 sent->results[static_cast<std::size_t>(i)].messageId);
    }
}

void TestClientBasics::emptyBatch() {
    auto checked = makeClient(broker_.address());
    auto local = checked->sendBatch({});
    QVERIFY(!local.ok());
    QS_COMPARE_ENUM(local.error().category, ErrorCategory::InvalidArgument);

    auto raw = makeClient(broker_.address(), "raw", {}, false);
    auto remote = raw->sendBatch({});
    QVERIFY(!remote.ok());
    QS_COMPARE_ENUM(remote.error().category, ErrorCategory::ServerError);
    QVERIFY2(remote.error().message.find("empty messages batch") != std::string::npos,
             remote.error().message.c_str());

    std::vector<QueueMessage> oneBad{textMessage("basics.batch2", "ok"),
                                     textMessage("basics.batch2", "")};
    auto badLocal = checked->sendBatch(oneBad);
    QVERIFY(!badLocal.ok());
    QS_COMPARE_ENUM(badLocal.error().category, ErrorCategory::InvalidArgument);
    QVERIFY(badLocal.error().message.find("batch message 1") != std::string::npos);
}

void TestClientBasics::upstreamSends() {
    auto client = makeClient(broker_.address());
    auto upstream = client->openUpstream();
    auto sent = upstream->send({textMessage("basics.up", "a"), textMessage("basics.up", "b")});
    QS_VERIFY_OK(sent);
    QCOMPARE(sent->size(), std::size_t{2});
    QVERIFY(!(*sent)[0].isError);
    QVERIFY(!(*sent)[1].isError);
    auto again = upstream->send({textMessage("basics.up", "c")});
    QS_VERIFY_OK(again);
    QCOMPARE(again->size(), std::size_t{1});

    auto pulled = client->pull("basics.up", 10, std::chrono::seconds(1));
    QS_VERIFY_OK(pulled);
    QCOMPARE(pulled->messages.size(), std::size_t{3});

    upstream->close();
    auto closed = upstream->send({textMessage("basics.up", "d")});
    QVERIFY(!closed.ok());
    QS_COMPARE_ENUM(closed.error().category, ErrorCategory::Cancelled);
}

void TestClientBasics::upstreamConcurrentSendsAreCorrelated() {
    auto client = makeClient(broker_.address());
    auto upstream = client->openUpstream();
    constexpr int kThreads = 4;
    constexpr int kPerThread = 10;
    std::atomic<int> mismatches{0};
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < kPerThread; ++i) {
                QueueMessage message = textMessage("basics.upc", "x");
                message.id = "t" + std::to_string(t) + "-" + std::to_string(i);
                auto sent = upstream->send({message});
                if (!sent.ok() || sent->size() != 1 || (*sent)[0].isError) {
                    ++failures;
                } else if ((*sent)[0].messageId != message.id) {
                    ++mismatches;
                }
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    QCOMPARE(failures.load(), 0);
    QCOMPARE(mismatches.load(), 0);
    auto drained = client->ackAllQueueMessages("basics.upc", std::chrono::seconds(1));
    QS_VERIFY_OK(drained);
    QCOMPARE(drained.value(), std::uint64_t{kThreads * kPerThread});
}

void TestClientBasics::upstreamEmptyRequest() {
    auto checked = makeClient(broker_.address());
    auto local = checked->openUpstream()->send({});
    QVERIFY(!local.ok());
    QS_COMPARE_ENUM(local.error().category, ErrorCategory::InvalidArgument);

    auto raw = makeClient(broker_.address(), "raw", {}, false);
    auto upstream = raw->openUpstream();
    auto remote = upstream->send({});
    QVERIFY(!remote.ok());
    QS_COMPARE_ENUM(remote.error().category, ErrorCategory::ServerError);
    QCOMPARE(remote.error().message, std::string("no messages to send"));
}

void TestClientBasics::argumentChecks() {
    // Rejected locally: a client that cannot reach anything still answers at once.
    auto client = makeClient("127.0.0.1:" + std::to_string(qs::test::closedPort()));
    const auto start = std::chrono::steady_clock::now();
    const auto expectInvalid = [](const auto& result, const char* what) {
        if (result.ok() || result.error().category != ErrorCategory::InvalidArgument) {
            qWarning("%s: expected invalid_argument, got %s", what,
                     result.ok() ? "ok" : result.error().describe().c_str());
            return false;
        }
        return true;
    };
    const std::chrono::seconds one(1);
    QVERIFY(expectInvalid(client->receive("q", 0, one), "max 0"));
    QVERIFY(expectInvalid(client->receive("q", 1025, one), "max 1025"));
    QVERIFY(expectInvalid(client->receive("q", 1, std::chrono::milliseconds(-1)), "wait -1"));
    QVERIFY(expectInvalid(client->receive("q", 1, std::chrono::seconds(3601)), "wait 3601"));
    for (const char* bad : {"", "a.", "a b", "a*", "a>", "a\tb"}) {
        QVERIFY(expectInvalid(client->receive(bad, 1, one), bad));
        QVERIFY(expectInvalid(client->peek(bad, 1, one), bad));
        QVERIFY(expectInvalid(client->pull(bad, 1, one), bad));
        QVERIFY(expectInvalid(client->ackAllQueueMessages(bad, one), bad));
        QVERIFY(expectInvalid(client->send(textMessage(bad, "x")), bad));
        QVERIFY(expectInvalid(client->createQueue(bad), bad));
    }
    QVERIFY(expectInvalid(client->peek("q", 0, one), "peek max 0"));
    QVERIFY(expectInvalid(client->pull("q", 2000, one), "pull max 2000"));
    QVERIFY(expectInvalid(client->send(textMessage("q", "")), "empty message"));
    QueueMessage tagsOnly = textMessage("q", "");
    tagsOnly.tags = {{"a", "b"}};
    QVERIFY(expectInvalid(client->send(tagsOnly), "tags only"));
    for (int field = 0; field < 6; ++field) {
        QueueMessage message = textMessage("q", "x");
        switch (field) {
            case 0:
                message.policy.expirationSeconds = -1;
                break;
            case 1:
                message.policy.expirationSeconds = 43201;
                break;
            case 2:
                message.policy.delaySeconds = 43201;
                break;
            case 3:
                message.policy.maxReceiveCount = 1025;
                break;
            case 4:
                message.policy.maxReceiveCount = -1;
                break;
            case 5:
                message.policy.deadLetterQueue = "dead letter";
                break;
        }
        QVERIFY(expectInvalid(client->send(message), "policy"));
    }
    QVERIFY(qs::test::secondsSince(start) < 2.0);

    // The valid limits pass the checks.
    QVERIFY(!checkMaxMessages(1));
    QVERIFY(!checkMaxMessages(1024));
    QVERIFY(!checkWaitTimeout(std::chrono::seconds(0)));
    QVERIFY(!checkWaitTimeout(std::chrono::seconds(3600)));
    QVERIFY(!checkChannelName("a.b-c_d/e:f"));
}

void TestClientBasics::unavailableIsQuick() {
    auto client = makeClient("127.0.0.1:" + std::to_string(qs::test::closedPort()));
    const auto start = std::chrono::steady_clock::now();
    auto pinged = client->ping();
    QVERIFY(!pinged.ok());
    QS_COMPARE_ENUM(pinged.error().category, ErrorCategory::Unavailable);
    auto sent = client->send(textMessage("q", "x"));
    QVERIFY(!sent.ok());
    QS_COMPARE_ENUM(sent.error().category, ErrorCategory::Unavailable);
    auto received = client->receive("q", 1, std::chrono::seconds(30));
    QVERIFY(!received.ok());
    QVERIFY2(received.error().category == ErrorCategory::Unavailable,
             received.error().describe().c_str());
    auto listed = client->listQueues();
    QVERIFY(!listed.ok());
    QS_COMPARE_ENUM(listed.error().category, ErrorCategory::Unavailable);
    auto upstream = client->openUpstream()->send({textMessage("q", "x")});
    QVERIFY(!upstream.ok());
    QS_COMPARE_ENUM(upstream.error().category, ErrorCategory::Unavailable);
    QVERIFY2(qs::test::secondsSince(start) < 5.0,
             std::to_string(qs::test::secondsSince(start)).c_str());
    QVERIFY(!pinged.error().message.empty());
}

QTEST_APPLESS_MAIN(TestClientBasics)
#include "tst_client_basics.moc"
