// The v1 stream receive (QueuesClient::receiveStreamMessage, StreamMessage):
// one message per stream with a wait and a visibility timeout, then ack /
// reject / extend on that stream. Built twice from this file: against the
// embedded broker (tst_client_stream_v1), and against the real KubeMQ v2.4.0
// of ../shared/kubemq-server (tst_client_stream_v1_real_server, label
// realserver; skipped with a message when it is absent). Waits are for
// conditions; the visibility tests only need the timer to fire before a
// generous deadline.
#include <QtTest/QtTest>
#include <atomic>
#include <memory>
#include <thread>
#include <optional>

#include "client_test_support.h"
#ifdef QS_AGAINST_REAL_SERVER
#include "real_server.h"
#else
#include "test_broker.h"
#endif

using namespace qs;
using namespace qs::client;
using qs::test::makeClient;
using qs::test::textMessage;

namespace {

constexpr std::chrono::seconds kWait{5};
constexpr std::chrono::seconds kLongVisibility{60};

void sendOne(QueuesClient& client, const std::string& channel, const std::string& body) {
    auto sent = client.send(textMessage(channel, body));
    QVERIFY(sent.ok() && !sent->isError);
}

}  // namespace

class TestClientStreamV1 : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();

    void receiveAndAck();
    void rejectRaisesReceiveCount();
    void visibilityExpiryHandsItToAnother();
    void extendVisibilityKeepsIt();
    void emptyQueueIsTimeout();
    void settleTwiceIsLocalError();
    void badArgumentsSendNothing();
    void cancelInterruptsWaitingReceive();
#ifndef QS_AGAINST_REAL_SERVER
    void lostEndingAnswersAreReadForWhatTheyWere();
#endif

private:
    std::string address_;
#ifdef QS_AGAINST_REAL_SERVER
    std::unique_ptr<qs::test::RealServer> server_;
#else
    std::unique_ptr<qs::test::TestBroker> broker_;
#endif
};

void TestClientStreamV1::initTestCase() {
#ifdef QS_AGAINST_REAL_SERVER
#ifdef QUEUESCOPE_UNDER_TSAN
    QSKIP("ThreadSanitizer cannot fork this process to start the real KubeMQ server");
#endif
    if (!qs::test::RealServer::present())
        QSKIP(qPrintable(qs::test::RealServer::absentMessage()));
    server_ = std::make_unique<qs::test::RealServer>();
    QString why;
    QVERIFY2(server_->start(&why), qPrintable(QStringLiteral("cannot start kubemq: ") + why));
    address_ = server_->address();
#else
    broker_ = std::make_unique<qs::test::TestBroker>();
    QVERIFY2(broker_->ok(), broker_->error().c_str());
    address_ = broker_->address();
#endif
}

void TestClientStreamV1::cleanupTestCase() {
#ifdef QS_AGAINST_REAL_SERVER
    server_.reset();
#else
    broker_.reset();
#endif
}

void TestClientStreamV1::receiveAndAck() {
    auto client = makeClient(address_, "v1-acker");
    sendOne(*client, "v1.ack", "one");
    const auto before = std::chrono::steady_clock::now();
    auto received = client->receiveStreamMessage("v1.ack", kWait, kLongVisibility);
    QS_VERIFY_OK(received);
    QCOMPARE(received->message().body, std::string("one"));
    QCOMPARE(received->message().attributes.receiveCount, 1);
    QVERIFY(received->sequence() > 0);
    QVERIFY(received->visibleUntil() >= before + kLongVisibility);
    QVERIFY(!received->isSettled());
    auto acked = received->ack();
    QS_VERIFY_OK(acked);
    QVERIFY(received->isSettled());
    auto after = client->pull("v1.ack", 10, std::chrono::seconds(1));
    QS_VERIFY_OK(after);
    QVERIFY(after->messages.empty());
}

void TestClientStreamV1::rejectRaisesReceiveCount() {
    auto client = makeClient(address_, "v1-rejecter");
    sendOne(*client, "v1.reject", "back");
    auto first = client->receiveStreamMessage("v1.reject", kWait, kLongVisibility);
    QS_VERIFY_OK(first);
    QCOMPARE(first->message().attributes.receiveCount, 1);
    auto rejected = first->reject();
    QS_VERIFY_OK(rejected);
    auto second = client->receiveStreamMessage("v1.reject", kWait, kLongVisibility);
    QS_VERIFY_OK(second);
    QCOMPARE(second->message().id, first->message().id);
    QCOMPARE(second->message().attributes.receiveCount, 2);
    QS_VERIFY_OK(second->ack());
}

// The slow consumer's timer runs out: the server takes the message back with
// receive count + 1, another consumer gets it, and the slow one's late ack
// fails with VisibilityExpired instead of passing for a success.
void TestClientStreamV1::visibilityExpiryHandsItToAnother() {
    auto slow = makeClient(address_, "v1-slow");
    auto other = makeClient(address_, "v1-other");
    sendOne(*slow, "v1.expiry", "late");
    auto held = slow->receiveStreamMessage("v1.expiry", kWait, std::chrono::seconds(1));
    QS_VERIFY_OK(held);
    QCOMPARE(held->message().attributes.receiveCount, 1);

    std::optional<Result<StreamMessage>> taken;
    QVERIFY(qs::test::waitUntil([&] {
        taken.emplace(other->receiveStreamMessage("v1.expiry", std::chrono::seconds(2),
                                                  kLongVisibility));
        return taken->ok();
    }));
    Result<StreamMessage>& second = *taken;
    QCOMPARE(second->message().id, held->message().id);
    QCOMPARE(second->message().attributes.receiveCount, 2);

    auto late = held->ack();
    QVERIFY(!late.ok());
    QS_COMPARE_ENUM(late.error().category, ErrorCategory::VisibilityExpired);
    QVERIFY2(late.error().message.find("Error 129") != std::string::npos,
             late.error().message.c_str());
    QVERIFY(late.error().willBeRedelivered());
    QVERIFY(!held->isSettled());
    QS_VERIFY_OK(second->ack());
}

// ModifyVisibility restarts the timer from now: a message extended before its
// first second ran out is still held (nobody else gets it) and the ack works.
void TestClientStreamV1::extendVisibilityKeepsIt() {
    auto client = makeClient(address_, "v1-extender");
    auto other = makeClient(address_, "v1-bystander");
    sendOne(*client, "v1.extend", "kept");
    auto held = client->receiveStreamMessage("v1.extend", kWait, std::chrono::seconds(2));
    QS_VERIFY_OK(held);
    QS_VERIFY_OK(held->extendVisibility(kLongVisibility));
    QVERIFY(held->visibleUntil() > std::chrono::steady_clock::now() + std::chrono::seconds(30));
    // Past the first timer (2 s) and then some: another consumer finds nothing.
    auto nothing = other->receiveStreamMessage("v1.extend", std::chrono::seconds(4),
                                               kLongVisibility);
    QVERIFY(!nothing.ok());
    QS_COMPARE_ENUM(nothing.error().category, ErrorCategory::Timeout);
    QS_VERIFY_OK(held->ack());
}

void TestClientStreamV1::emptyQueueIsTimeout() {
    auto client = makeClient(address_, "v1-empty");
    auto nothing = client->receiveStreamMessage("v1.empty", std::chrono::seconds(1),
                                                kLongVisibility);
    QVERIFY(!nothing.ok());
    QS_COMPARE_ENUM(nothing.error().category, ErrorCategory::Timeout);
    QVERIFY2(nothing.error().message.find("Error 138") != std::string::npos,
             nothing.error().message.c_str());
}

void TestClientStreamV1::settleTwiceIsLocalError() {
    auto client = makeClient(address_, "v1-twice");
    sendOne(*client, "v1.twice", "x");
    auto held = client->receiveStreamMessage("v1.twice", kWait, kLongVisibility);
    QS_VERIFY_OK(held);
    QS_VERIFY_OK(held->ack());
    auto again = held->reject();
    QVERIFY(!again.ok());
    QS_COMPARE_ENUM(again.error().category, ErrorCategory::InvalidArgument);
    auto extend = held->extendVisibility(std::chrono::seconds(5));
    QS_COMPARE_ENUM(extend.error().category, ErrorCategory::InvalidArgument);
}

void TestClientStreamV1::badArgumentsSendNothing() {
    auto client = makeClient(address_, "v1-bad");
    sendOne(*client, "v1.bad", "stays");
    for (auto visibility : {std::chrono::seconds(0), std::chrono::seconds(43201)}) {
        auto refused = client->receiveStreamMessage("v1.bad", kWait, visibility);
        QVERIFY(!refused.ok());
        QS_COMPARE_ENUM(refused.error().category, ErrorCategory::InvalidArgument);
        QVERIFY2(refused.error().message.find("visibility") != std::string::npos,
                 refused.error().message.c_str());
    }
    auto badChannel = client->receiveStreamMessage("v1 bad", kWait, kLongVisibility);
    QS_COMPARE_ENUM(badChannel.error().category, ErrorCategory::InvalidArgument);
    auto badWait = client->receiveStreamMessage("v1.bad", std::chrono::hours(2), kLongVisibility);
    QS_COMPARE_ENUM(badWait.error().category, ErrorCategory::InvalidArgument);
    // Nothing was taken: the message is still there, first hand-out.
    auto held = client->receiveStreamMessage("v1.bad", kWait, kLongVisibility);
    QS_VERIFY_OK(held);
    QCOMPARE(held->message().attributes.receiveCount, 1);
    QS_VERIFY_OK(held->ack());
}

void TestClientStreamV1::cancelInterruptsWaitingReceive() {
    auto client = makeClient(address_, "v1-cancelled");
    std::optional<Result<StreamMessage>> result;
    std::atomic<bool> finished{false};
    std::thread waiter([&] {
        result.emplace(client->receiveStreamMessage("v1.cancel", std::chrono::seconds(60),
                                                    kLongVisibility));
        finished = true;
    });
    // Cancel until the receive has returned (a cancel before it began is not
    // noticed by it: cancel() interrupts calls in flight only).
    const bool returned = qs::test::waitUntil(
        [&] {
            client->cancel();
            return finished.load();
        },
        std::chrono::seconds(30));
    waiter.join();
    QVERIFY(returned);
    QVERIFY(!result->ok());
    QS_COMPARE_ENUM(result->error().category, ErrorCategory::Cancelled);
}

#ifndef QS_AGAINST_REAL_SERVER
// KubeMQ v2.4.0 can lose the answer that ends a v1 stream (it cancels the
// stream before writing it); a broker that loses every such answer shows the
// client reading the clean, unanswered end for what it was: an ack and a
// reject that were done, a receive that got nothing.
void TestClientStreamV1::lostEndingAnswersAreReadForWhatTheyWere() {
    auto options = qs::test::TestBroker::defaultOptions();
    std::atomic<int> lost{0};
    options.loseEndingV1Answer = [&lost] {
        ++lost;
        return true;
    };
    qs::test::TestBroker broker(options);
    QVERIFY2(broker.ok(), broker.error().c_str());
    auto client = makeClient(broker.address(), "v1-unanswered");

    sendOne(*client, "v1.unanswered", "acked");
    auto first = client->receiveStreamMessage("v1.unanswered", kWait, kLongVisibility);
    QS_VERIFY_OK(first);
    QS_VERIFY_OK(first->ack());
    QVERIFY(first->isSettled());
    QCOMPARE(lost.load(), 1);

    sendOne(*client, "v1.unanswered", "rejected");
    auto second = client->receiveStreamMessage("v1.unanswered", kWait, kLongVisibility);
    QS_VERIFY_OK(second);
    QCOMPARE(second->message().body, std::string("rejected"));
    QS_VERIFY_OK(second->reject());
    QCOMPARE(lost.load(), 2);
    auto again = client->receiveStreamMessage("v1.unanswered", kWait, kLongVisibility);
    QS_VERIFY_OK(again);
    QCOMPARE(again->message().body, std::string("rejected"));
    QCOMPARE(again->message().attributes.receiveCount, 2);
    QS_VERIFY_OK(again->ack());

    // Nothing left (the first ack was done): the wait's Error 138 is lost too.
    auto nothing = client->receiveStreamMessage("v1.unanswered", std::chrono::seconds(1),
                                                kLongVisibility);
    QVERIFY(!nothing.ok());
    QS_COMPARE_ENUM(nothing.error().category, ErrorCategory::Timeout);
    QCOMPARE(lost.load(), 4);
}
#endif

QTEST_APPLESS_MAIN(TestClientStreamV1)
#include "tst_client_stream_v1.moc"
