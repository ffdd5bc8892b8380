// Cancellation from another thread, stream loss, crash simulation (abandon),
// reconnection, auth errors and concurrent use, against the embedded broker.
#include <QtTest/QtTest>
#include <atomic>
#include <future>
#include <thread>
#include <vector>

#include "client_test_support.h"
#include "test_broker.h"

using namespace qs;
using namespace qs::client;
using qs::test::makeClient;
using qs::test::textMessage;

namespace {

template <typename F>
auto runAsync(F&& f) {
    return std::async(std::launch::async, std::forward<F>(f));
}

// Waits until `calls` calls wait on `channel` at the broker at `address`: the
// blocked calls have reached the server, so interrupting them now tests the
// interruption. (cancel() interrupts the calls in flight; a call that starts
// after it is not affected and would wait out its whole timeout.)
bool callsWaiting(const std::string& address, const std::string& channel, std::int64_t calls = 1) {
    auto observer = makeClient(address, "observer");
    return qs::test::waitUntil([&] {
        auto info = observer->queuesInfo(channel);
        if (!info.ok())
            return false;
        for (const QueueChannelInfo& queue : info->queues) {
            if (queue.name == channel && queue.subscribers >= calls)
                return true;
        }
        return false;
    });
}

}  // namespace

class TestClientThreading : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY2(broker_.ok(), broker_.error().c_str()); }

    void cancelLongReceive();
    void cancelLongPull();
    void shutdownRefusesLaterCalls();
    void abandonRedeliversUnsettled();
    void abandonDuringReceive();
    void secondClientGetsAbandonedMessages();
    void streamLossReportsRedelivery();
    void reconnectsAfterServerRestart();
    void authErrors();
    void concurrentReceivesOnOneClient();
    void settleFromManyThreads();

private:
    qs::test::TestBroker broker_;
};

void TestClientThreading::cancelLongReceive() {
    auto client = makeClient(broker_.address());
    auto pending =
        runAsync([&] { return client->receive("th.cancel", 1, std::chrono::seconds(60)); });
    QVERIFY(callsWaiting(broker_.address(), "th.cancel"));
    const auto start = std::chrono::steady_clock::now();
    client->cancel();
    QVERIFY(pending.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
    auto result = pending.get();
    const double elapsed = qs::test::secondsSince(start);
    QVERIFY(!result.ok());
    QS_COMPARE_ENUM(result.error().category, ErrorCategory::Cancelled);
    QVERIFY2(elapsed < 2.0, std::to_string(elapsed).c_str());

    // Still usable afterwards.
    auto sent = client->send(textMessage("th.cancel", "after"));
    QVERIFY(sent.ok() && !sent->isError);
    auto batch = client->receive("th.cancel", 1, std::chrono::seconds(5));
    QS_VERIFY_OK(batch);
    QCOMPARE(batch->size(), std::size_t{1});
    QS_VERIFY_OK(batch->ackAll());
}

void TestClientThreading::cancelLongPull() {
    auto client = makeClient(broker_.address());
    auto pending =
        runAsync([&] { return client->pull("th.cancelpull", 1, std::chrono::seconds(60)); });
    QVERIFY(callsWaiting(broker_.address(), "th.cancelpull"));
    const auto start = std::chrono::steady_clock::now();
    client->cancel();
    QVERIFY(pending.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
    auto result = pending.get();
    QVERIFY(!result.ok());
    QS_COMPARE_ENUM(result.error().category, ErrorCategory::Cancelled);
    QVERIFY(qs::test::secondsSince(start) < 2.0);
}

void TestClientThreading::shutdownRefusesLaterCalls() {
    auto client = makeClient(broker_.address());
    auto pending =
        runAsync([&] { return client->receive("th.shutdown", 1, std::chrono::seconds(60)); });
    QVERIFY(callsWaiting(broker_.address(), "th.shutdown"));
    client->shutdown();
    QVERIFY(pending.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
    auto interrupted = pending.get();
    QVERIFY(!interrupted.ok());
    QS_COMPARE_ENUM(interrupted.error().category, ErrorCategory::Cancelled);
    QVERIFY(client->isShutdown());
    auto later = client->send(textMessage("th.shutdown", "x"));
    QVERIFY(!later.ok());
    QS_COMPARE_ENUM(later.error().category, ErrorCategory::Cancelled);
    auto laterReceive = client->receive("th.shutdown", 1, std::chrono::seconds(1));
    QVERIFY(!laterReceive.ok());
    QS_COMPARE_ENUM(laterReceive.error().category, ErrorCategory::Cancelled);
}

void TestClientThreading::abandonRedeliversUnsettled() {
    auto client = makeClient(broker_.address());
    for (int i = 0; i < 2; ++i) {
        auto sent = client->send(textMessage("th.abandon", "m" + std::to_string(i)));
        QVERIFY(sent.ok() && !sent->isError);
    }
    auto batch = client->receive("th.abandon", 2, std::chrono::seconds(5));
    QS_VERIFY_OK(batch);
    QCOMPARE(batch->size(), std::size_t{2});
    client->abandon();
    // The dead stream settles nothing.
    auto lost = batch->messages()[0].ack();
    QVERIFY(!lost.ok());
    QS_COMPARE_ENUM(lost.error().category, ErrorCategory::StreamLost);
    QVERIFY(lost.error().willBeRedelivered());

    auto again = client->receive("th.abandon", 2, std::chrono::seconds(5));
    QS_VERIFY_OK(again);
    QCOMPARE(again->size(), std::size_t{2});
    for (std::size_t i = 0; i < 2; ++i) {
        const QueueMessage& message = again->messages()[i].message();
        QCOMPARE(message.id, batch->messages()[i].message().id);
        QCOMPARE(message.attributes.sequence, batch->messages()[i].sequence());
        QCOMPARE(message.attributes.receiveCount, 1);
    }
    QS_VERIFY_OK(again->ackAll());
}

void TestClientThreading::abandonDuringReceive() {
    auto client = makeClient(broker_.address());
    auto pending =
        runAsync([&] { return client->receive("th.abandon2", 1, std::chrono::seconds(60)); });
    QVERIFY(callsWaiting(broker_.address(), "th.abandon2"));
    client->abandon();
    QVERIFY(pending.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
    auto interrupted = pending.get();
    QVERIFY(!interrupted.ok());
    QS_COMPARE_ENUM(interrupted.error().category, ErrorCategory::Cancelled);
    auto pinged = client->ping();
    QS_VERIFY_OK(pinged);
}

void TestClientThreading::secondClientGetsAbandonedMessages() {
    auto crashing = makeClient(broker_.address(), "worker-1");
    auto survivor = makeClient(broker_.address(), "worker-2");
    auto sent = crashing->send(textMessage("th.handover", "task"));
    QVERIFY(sent.ok() && !sent->isError);
    auto taken = crashing->receive("th.handover", 1, std::chrono::seconds(5));
    QS_VERIFY_OK(taken);
    QCOMPARE(taken->size(), std::size_t{1});
    auto waiting =
        runAsync([&] { return survivor->receive("th.handover", 1, std::chrono::seconds(10)); });
    QVERIFY(callsWaiting(broker_.address(), "th.handover"));
    crashing->abandon();
    auto handed = waiting.get();
    QS_VERIFY_OK(handed);
    QCOMPARE(handed->size(), std::size_t{1});
    QCOMPARE(handed->messages()[0].message().id, sent->messageId);
    QS_VERIFY_OK(handed->ackAll());
}

void TestClientThreading::streamLossReportsRedelivery() {
    auto broker = std::make_unique<qs::test::TestBroker>();
    QVERIFY(broker->ok());
    auto client = makeClient(broker->address());
    auto sent = client->send(textMessage("th.lost", "held"));
    QVERIFY(sent.ok() && !sent->isError);
    auto held = client->receive("th.lost", 1, std::chrono::seconds(5));
    QS_VERIFY_OK(held);
    QCOMPARE(held->size(), std::size_t{1});

    // A second client whose very first receive is the pending one.
    auto fresh = makeClient(broker->address(), "fresh");
    auto pending =
        runAsync([&] { return client->receive("th.lost", 1, std::chrono::seconds(60)); });
    auto pendingFresh =
        runAsync([&] { return fresh->receive("th.lost", 1, std::chrono::seconds(60)); });
    QVERIFY(callsWaiting(broker->address(), "th.lost", 2));
    const auto start = std::chrono::steady_clock::now();
    broker.reset();  // stops the server under the pending receives
    QVERIFY(pendingFresh.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
    auto freshResult = pendingFresh.get();
    QVERIFY(!freshResult.ok());
    QVERIFY2(freshResult.error().willBeRedelivered(), freshResult.error().describe().c_str());
    QVERIFY(pending.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
    auto result = pending.get();
    QVERIFY(!result.ok());
    QVERIFY2(result.error().category == ErrorCategory::StreamLost,
             result.error().describe().c_str());
    QVERIFY(result.error().willBeRedelivered());
    QVERIFY(result.error().message.find("redelivered") != std::string::npos);
    QVERIFY(qs::test::secondsSince(start) < 10.0);

    auto settle = held->messages()[0].ack();
    QVERIFY(!settle.ok());
    QS_COMPARE_ENUM(settle.error().category, ErrorCategory::StreamLost);

    auto next = client->receive("th.lost", 1, std::chrono::seconds(1));
    QVERIFY(!next.ok());
    QS_COMPARE_ENUM(next.error().category, ErrorCategory::Unavailable);
}

void TestClientThreading::reconnectsAfterServerRestart() {
    auto broker = std::make_unique<qs::test::TestBroker>();
    QVERIFY(broker->ok());
    const int port = broker->broker().port();
    auto client = makeClient(broker->address());
    auto first = client->receive("th.restart", 1, std::chrono::milliseconds(0));
    QS_VERIFY_OK(first);
    broker.reset();

    auto down = client->receive("th.restart", 1, std::chrono::milliseconds(0));
    QVERIFY(!down.ok());

    auto options = qs::test::TestBroker::defaultOptions();
    options.port = port;
    broker = std::make_unique<qs::test::TestBroker>(options);
    if (!broker->ok()) {
        QSKIP("the old port could not be bound again");
    }
    auto sent = makeClient(broker->address())->send(textMessage("th.restart", "back"));
    QVERIFY(sent.ok() && !sent->isError);
    bool received = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!received && std::chrono::steady_clock::now() < deadline) {
        auto batch = client->receive("th.restart", 1, std::chrono::seconds(2));
        if (batch.ok() && batch->size() == 1) {
            received = true;
            QS_VERIFY_OK(batch->ackAll());
        } else if (!batch.ok()) {
            QVERIFY2(batch.error().category == ErrorCategory::Unavailable ||
                         batch.error().category == ErrorCategory::StreamLost,
                     batch.error().describe().c_str());
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    }
    QVERIFY(received);
}

void TestClientThreading::authErrors() {
    auto options = qs::test::TestBroker::defaultOptions();
    options.authToken = "s3cret";
    qs::test::TestBroker secured(options);
    QVERIFY(secured.ok());

    auto anonymous = makeClient(secured.address(), "anon");
    QS_VERIFY_OK(anonymous->ping());  // Ping carries no token and needs none
    auto sent = anonymous->send(textMessage("th.auth", "x"));
    QVERIFY(!sent.ok());
    QS_COMPARE_ENUM(sent.error().category, ErrorCategory::Auth);
    auto received = anonymous->receive("th.auth", 1, std::chrono::seconds(1));
    QVERIFY(!received.ok());
    QVERIFY2(received.error().category == ErrorCategory::Auth, received.error().describe().c_str());
    auto upstream = anonymous->openUpstream()->send({textMessage("th.auth", "x")});
    QVERIFY(!upstream.ok());
    QS_COMPARE_ENUM(upstream.error().category, ErrorCategory::Auth);

    auto wrong = makeClient(secured.address(), "wrong", "nope");
    auto wrongSend = wrong->send(textMessage("th.auth", "x"));
    QVERIFY(!wrongSend.ok());
    QS_COMPARE_ENUM(wrongSend.error().category, ErrorCategory::Auth);

    auto good = makeClient(secured.address(), "good", "s3cret");
    auto goodSend = good->send(textMessage("th.auth", "x"));
    QS_VERIFY_OK(goodSend);
    QVERIFY(!goodSend->isError);
    auto goodReceive = good->receive("th.auth", 1, std::chrono::seconds(5));
    QS_VERIFY_OK(goodReceive);
    QCOMPARE(goodReceive->size(), std::size_t{1});
    QS_VERIFY_OK(goodReceive->ackAll());
}

void TestClientThreading::concurrentReceivesOnOneClient() {
    auto client = makeClient(broker_.address());
    for (int i = 0; i < 2; ++i) {
        auto sent = client->send(textMessage("th.concurrent", "x"));
        QVERIFY(sent.ok() && !sent->isError);
    }
    auto a = runAsync([&] { return client->receive("th.concurrent", 1, std::chrono::seconds(5)); });
    auto b = runAsync([&] { return client->receive("th.concurrent", 1, std::chrono::seconds(5)); });
    auto ra = a.get();
    auto rb = b.get();
    QS_VERIFY_OK(ra);
    QS_VERIFY_OK(rb);
    QCOMPARE(ra->size() + rb->size(), std::size_t{2});
    QVERIFY(ra->messages()[0].sequence() != rb->messages()[0].sequence());
    QS_VERIFY_OK(ra->ackAll());
    QS_VERIFY_OK(rb->ackAll());
}

void TestClientThreading::settleFromManyThreads() {
    auto client = makeClient(broker_.address());
    constexpr int kCount = 20;
    std::vector<QueueMessage> batchToSend;
    for (int i = 0; i < kCount; ++i) {
        batchToSend.push_back(textMessage("th.settle", "x"));
    }
    auto sent = client->sendBatch(batchToSend);
    QS_VERIFY_OK(sent);
    auto batch = client->receive("th.settle", kCount, std::chrono::seconds(5));
    QS_VERIFY_OK(batch);
    QCOMPARE(batch->size(), std::size_t{kCount});
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            for (int i = t; i < kCount; i += 4) {
                auto& message = batch->messages()[static_cast<std::size_t>(i)];
                auto settled = (i % 2 == 0) ? message.ack() : message.requeue("th.settle.moved");
                if (!settled.ok()) {
                    ++failures;
                }
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    QCOMPARE(failures.load(), 0);
    QCOMPARE(batch->unsettledCount(), std::size_t{0});
    auto moved = client->receive("th.settle.moved", kCount / 2, std::chrono::seconds(5));
    QS_VERIFY_OK(moved);
    QCOMPARE(moved->size(), std::size_t{kCount / 2});
    QS_VERIFY_OK(moved->ackAll());
    QVERIFY(client->takeSettlementErrors().empty());
}

QTEST_APPLESS_MAIN(TestClientThreading)
#include "tst_client_threading.moc"
