// Downstream receive with every settlement, the unary pull / peek / ack-all,
// and asynchronous settlement errors, against the real embedded broker.
#include <QtTest/QtTest>
#include <mutex>
#include <set>
#include <vector>

#include "client_test_support.h"
#include "test_broker.h"

using namespace qs;
using namespace qs::client;
using qs::test::makeClient;
using qs::test::textMessage;

namespace {

constexpr std::chrono::milliseconds kShort{1000};

void sendN(QueuesClient& client, const std::string& channel, int count) {
    for (int i = 0; i < count; ++i) {
        auto sent = client.send(textMessage(channel, "m" + std::to_string(i)));
        QVERIFY(sent.ok() && !sent->isError);
    }
}

// Messages still waiting in `channel`, without side effects on order: a
// second client peeks (reserved messages are invisible to a peek).
std::size_t waiting(const std::string& address, const std::string& channel) {
    auto observer = makeClient(address, "observer");
    auto peeked = observer->peek(channel, 1024, kShort);
    return peeked.ok() ? peeked->messages.size() : 9999;
}

// Settlements are fire-and-forget; a Get on the same stream runs after them
// (the server handles a stream's requests in order), so once it returns the
// settlements have been applied.
void syncStream(QueuesClient& client, const std::string& channel) {
    auto sync = client.receive(channel + ".sync", 1, std::chrono::milliseconds(0));
    QVERIFY(sync.ok());
}

}  // namespace

class TestClientReceive : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY2(broker_.ok(), broker_.error().c_str()); }

    void receiveAndAckEach();
    void rangeSettlements();
    void rangeSettlementMisuseSendsNothing();
    void receiveReturnsPartialAfterWait();
    void rejectRedeliversAtTail();
    void requeueMovesMessage();
    void ackAll();
    void rejectAll();
    void requeueAll();
    void closeReturnsMessages();
    void autoAck();
    void settleTwiceIsLocalError();
    void deadLetterAfterMaxReceive();
    void settlementErrorIsSurfaced();
    void settlementErrorQueueWithoutHandler();
    void receiveServerError();
    void peekAndPull();
    void ackAllQueueMessages();
    void settlementsBeforeCloseAreApplied();

private:
    qs::test::TestBroker broker_;
};

void TestClientReceive::receiveAndAckEach() {
    auto client = makeClient(broker_.address());
    sendN(*client, "rx.ack", 3);
    auto batch = client->receive("rx.ack", 3, std::chrono::seconds(5));
    QS_VERIFY_OK(batch);
    QCOMPARE(batch->size(), std::size_t{3});
    QVERIFY(!batch->transactionId().empty());
    QCOMPARE(batch->channel(), std::string("rx.ack"));
    for (std::size_t i = 0; i < 3; ++i) {
        const QueueMessage& message = batch->messages()[i].message();
        QCOMPARE(message.attributes.sequence, std::uint64_t{i + 1});
        QCOMPARE(message.attributes.receiveCount, 1);
        QCOMPARE(message.body, "m" + std::to_string(i));
    }
    QCOMPARE(batch->unsettledCount(), std::size_t{3});
    for (auto& message : batch->messages()) {
        QS_VERIFY_OK(message.ack());
        QVERIFY(message.isSettled());
    }
    QCOMPARE(batch->unsettledCount(), std::size_t{0});
    syncStream(*client, "rx.ack");
    client->abandon();  // nothing unsettled: nothing may come back
    QCOMPARE(waiting(broker_.address(), "rx.ack"), std::size_t{0});
    QVERIFY(client->takeSettlementErrors().empty());
}

// ackRange / rejectRange / requeueRange: one Range request for several
// messages, with each message's own outcome (spec §2.8.3).
void TestClientReceive::rangeSettlements() {
    auto client = makeClient(broker_.address());
    sendN(*client, "rx.range", 6);
    auto batch = client->receive("rx.range", 6, std::chrono::seconds(5));
    QS_VERIFY_OK(batch);
    QCOMPARE(batch->size(), std::size_t{6});
    auto& m = batch->messages();
    const std::vector<std::uint64_t> acks{m[0].sequence(), m[2].sequence(), m[4].sequence()};
    QS_VERIFY_OK(batch->ackRange(acks));
    QVERIFY(m[0].isSettled() && m[2].isSettled() && m[4].isSettled());
    QVERIFY(!m[1].isSettled() && !m[3].isSettled() && !m[5].isSettled());
    QCOMPARE(batch->unsettledCount(), std::size_t{3});
    const std::vector<std::uint64_t> rejects{m[3].sequence(), m[1].sequence()};
    QS_VERIFY_OK(batch->rejectRange(rejects));
    const std::string movedId = m[5].message().id;
    const std::vector<std::uint64_t> moves{m[5].sequence()};
    QS_VERIFY_OK(batch->requeueRange(moves, "rx.range.dest"));
    QCOMPARE(batch->unsettledCount(), std::size_t{0});

    // The two rejected ones are back at the tail with receive count 2; the
    // acked ones are gone; the requeued one is in its new channel.
    auto again = client->receive("rx.range", 6, std::chrono::milliseconds(1000));
    QS_VERIFY_OK(again);
    QCOMPARE(again->size(), std::size_t{2});
    std::set<std::string> bodies;
    for (const auto& r : again->messages()) {
        QCOMPARE(r.message().attributes.receiveCount, 2);
        bodies.insert(r.message().body);
    }
    QCOMPARE(bodies, (std::set<std::string>{"m1", "m3"}));
    QS_VERIFY_OK(again->ackAll());
    auto moved = client->receive("rx.range.dest", 1, std::chrono::seconds(5));
    QS_VERIFY_OK(moved);
    QCOMPARE(moved->size(), std::size_t{1});
    QCOMPARE(moved->messages()[0].message().id, movedId);
    QS_VERIFY_OK(moved->ackAll());
    syncStream(*client, "rx.range");
    QVERIFY(client->takeSettlementErrors().empty());
}

// A bad list is refused locally and nothing of it is settled.
void TestClientReceive::rangeSettlementMisuseSendsNothing() {
    auto client = makeClient(broker_.address());
    sendN(*client, "rx.range.bad", 3);
    auto batch = client->receive("rx.range.bad", 3, std::chrono::seconds(5));
    QS_VERIFY_OK(batch);
    QCOMPARE(batch->size(), std::size_t{3});
    auto& m = batch->messages();
    auto refused = [](const Result<void>& r) {
        return !r.ok() && r.error().category == ErrorCategory::InvalidArgument;
    };
    QVERIFY(refused(batch->ackRange({})));
    const std::vector<std::uint64_t> twice{m[0].sequence(), m[1].sequence(), m[0].sequence()};
    QVERIFY(refused(batch->ackRange(twice)));
    const std::vector<std::uint64_t> unknown{m[1].sequence(), 999999};
    QVERIFY(refused(batch->rejectRange(unknown)));
    const std::vector<std::uint64_t> two{m[1].sequence(), m[2].sequence()};
    QVERIFY(refused(batch->requeueRange(two, "bad target")));
    QCOMPARE(batch->unsettledCount(), std::size_t{3});  // none of it went out
    QS_VERIFY_OK(m[1].ack());
    const std::vector<std::uint64_t> settled{m[0].sequence(), m[1].sequence()};
    QVERIFY(refused(batch->ackRange(settled)));  // m[1] already acked
    QVERIFY(!m[0].isSettled());
    QS_VERIFY_OK(batch->ackRange(std::vector<std::uint64_t>{m[0].sequence(), m[2].sequence()}));
    QCOMPARE(batch->unsettledCount(), std::size_t{0});
    syncStream(*client, "rx.range.bad");
    client->abandon();  // nothing unsettled: nothing may come back
    QCOMPARE(waiting(broker_.address(), "rx.range.bad"), std::size_t{0});
    QVERIFY(client->takeSettlementErrors().empty());

    ReceivedBatch none;  // default-constructed: nothing to settle
    QVERIFY(refused(none.ackRange(two)));
}

void TestClientReceive::receiveReturnsPartialAfterWait() {
    auto client = makeClient(broker_.address());
    sendN(*client, "rx.partial", 2);
    const auto start = std::chrono::steady_clock::now();
    auto batch = client->receive("rx.partial", 5, std::chrono::milliseconds(1500));
    QS_VERIFY_OK(batch);
    QCOMPARE(batch->size(), std::size_t{2});
    QVERIFY(qs::test::secondsSince(start) >= 1.0);  // the server waits out the wait time
    QS_VERIFY_OK(batch->ackAll());

    auto empty = client->receive("rx.partial", 1, std::chrono::milliseconds(0));
    QS_VERIFY_OK(empty);
    QVERIFY(empty->empty());
    QS_VERIFY_OK(empty->ackAll());  // a local no-op on an empty batch
    QS_VERIFY_OK(empty->close());
}

void TestClientReceive::rejectRedeliversAtTail() {
    auto client = makeClient(broker_.address());
    sendN(*client, "rx.reject", 1);
    auto first = client->receive("rx.reject", 1, std::chrono::seconds(5));
    QS_VERIFY_OK(first);
    QCOMPARE(first->size(), std::size_t{1});
    const std::string id = first->messages()[0].message().id;
    QS_VERIFY_OK(first->messages()[0].reject());
    auto second = client->receive("rx.reject", 1, std::chrono::seconds(5));
    QS_VERIFY_OK(second);
    QCOMPARE(second->size(), std::size_t{1});
    const QueueMessage& again = second->messages()[0].message();
    QCOMPARE(again.id, id);
    QCOMPARE(again.attributes.receiveCount, 2);
    QCOMPARE(again.attributes.sequence, std::uint64_t{2});
    QS_VERIFY_OK(second->messages()[0].ack());
}

void TestClientReceive::requeueMovesMessage() {
    auto client = makeClient(broker_.address());
    sendN(*client, "rx.requeue", 1);
    auto batch = client->receive("rx.requeue", 1, std::chrono::seconds(5));
    QS_VERIFY_OK(batch);
    QCOMPARE(batch->size(), std::size_t{1});
    const std::string id = batch->messages()[0].message().id;
    auto badTarget = batch->messages()[0].requeue("bad target");
    QVERIFY(!badTarget.ok());
    QS_COMPARE_ENUM(badTarget.error().category, ErrorCategory::InvalidArgument);
    QS_VERIFY_OK(batch->messages()[0].requeue("rx.requeue.dest"));
    auto moved = client->receive("rx.requeue.dest", 1, std::chrono::seconds(5));
    QS_VERIFY_OK(moved);
    QCOMPARE(moved->size(), std::size_t{1});
    QCOMPARE(moved->messages()[0].message().id, id);
    QS_VERIFY_OK(moved->ackAll());
    syncStream(*client, "rx.requeue");
    QCOMPARE(waiting(broker_.address(), "rx.requeue"), std::size_t{0});
}

void TestClientReceive::ackAll() {
    auto client = makeClient(broker_.address());
    sendN(*client, "rx.ackall", 3);
    auto batch = client->receive("rx.ackall", 3, std::chrono::seconds(5));
    QS_VERIFY_OK(batch);
    QCOMPARE(batch->size(), std::size_t{3});
    QS_VERIFY_OK(batch->messages()[0].ack());
    QS_VERIFY_OK(batch->ackAll());
    QCOMPARE(batch->unsettledCount(), std::size_t{0});
    QVERIFY(batch->messages()[2].isSettled());
    auto late = batch->messages()[1].ack();
    QVERIFY(!late.ok());
    QS_COMPARE_ENUM(late.error().category, ErrorCategory::InvalidArgument);
    syncStream(*client, "rx.ackall");
    client->abandon();
    QCOMPARE(waiting(broker_.address(), "rx.ackall"), std::size_t{0});
    QVERIFY(client->takeSettlementErrors().empty());
}

void TestClientReceive::rejectAll() {
    auto client = makeClient(broker_.address());
    sendN(*client, "rx.rejectall", 3);
    auto batch = client->receive("rx.rejectall", 3, std::chrono::seconds(5));
    QS_VERIFY_OK(batch);
    QCOMPARE(batch->size(), std::size_t{3});
    QS_VERIFY_OK(batch->rejectAll());
    auto again = client->receive("rx.rejectall", 3, std::chrono::seconds(5));
    QS_VERIFY_OK(again);
    QCOMPARE(again->size(), std::size_t{3});
    std::set<std::uint64_t> sequences;
    for (const auto& message : again->messages()) {
        QCOMPARE(message.message().attributes.receiveCount, 2);
        sequences.insert(message.sequence());
    }
    QCOMPARE(sequences, (std::set<std::uint64_t>{4, 5, 6}));
    QS_VERIFY_OK(again->ackAll());
}

void TestClientReceive::requeueAll() {
    auto client = makeClient(broker_.address());
    sendN(*client, "rx.requeueall", 2);
    auto batch = client->receive("rx.requeueall", 2, std::chrono::seconds(5));
    QS_VERIFY_OK(batch);
    QCOMPARE(batch->size(), std::size_t{2});
    auto bad = batch->requeueAll("");
    QVERIFY(!bad.ok());
    QS_COMPARE_ENUM(bad.error().category, ErrorCategory::InvalidArgument);
    QS_VERIFY_OK(batch->requeueAll("rx.requeueall.dest"));
    auto moved = client->receive("rx.requeueall.dest", 2, std::chrono::seconds(5));
    QS_VERIFY_OK(moved);
    QCOMPARE(moved->size(), std::size_t{2});
    QS_VERIFY_OK(moved->ackAll());
}

void TestClientReceive::closeReturnsMessages() {
    auto client = makeClient(broker_.address());
    sendN(*client, "rx.close", 2);
    auto batch = client->receive("rx.close", 2, std::chrono::seconds(5));
    QS_VERIFY_OK(batch);
    QCOMPARE(batch->size(), std::size_t{2});
    QS_VERIFY_OK(batch->messages()[0].ack());
    QS_VERIFY_OK(batch->close());
    auto again = client->receive("rx.close", 2, std::chrono::milliseconds(1000));
    QS_VERIFY_OK(again);
    QCOMPARE(again->size(), std::size_t{1});
    const QueueMessage& back = again->messages()[0].message();
    QCOMPARE(back.attributes.sequence, std::uint64_t{2});  // same stored copy
    QCOMPARE(back.attributes.receiveCount, 1);             // count unchanged
    QS_VERIFY_OK(again->ackAll());
}

void TestClientReceive::autoAck() {
    auto client = makeClient(broker_.address());
    sendN(*client, "rx.auto", 2);
    auto batch = client->receive("rx.auto", 2, std::chrono::seconds(5), true);
    QS_VERIFY_OK(batch);
    QVERIFY(batch->autoAck());
    QCOMPARE(batch->size(), std::size_t{2});
    QVERIFY(batch->messages()[0].isSettled());
    auto ack = batch->messages()[0].ack();
    QVERIFY(!ack.ok());
    QS_COMPARE_ENUM(ack.error().category, ErrorCategory::InvalidArgument);
    QS_VERIFY_OK(batch->ackAll());
    client->abandon();
    QCOMPARE(waiting(broker_.address(), "rx.auto"), std::size_t{0});
}

void TestClientReceive::settleTwiceIsLocalError() {
    auto client = makeClient(broker_.address());
    sendN(*client, "rx.twice", 1);
    auto batch = client->receive("rx.twice", 1, std::chrono::seconds(5));
    QS_VERIFY_OK(batch);
    ReceivedMessage copy = batch->messages()[0];
    QS_VERIFY_OK(batch->messages()[0].ack());
    QVERIFY(copy.isSettled());  // copies share the state
    auto twice = copy.reject();
    QVERIFY(!twice.ok());
    QS_COMPARE_ENUM(twice.error().category, ErrorCategory::InvalidArgument);
    QVERIFY(twice.error().message.find("already settled") != std::string::npos);
}

void TestClientReceive::deadLetterAfterMaxReceive() {
    auto client = makeClient(broker_.address());
    QueueMessage message = textMessage("rx.dl", "poison");
    message.policy.maxReceiveCount = 1;
    message.policy.deadLetterQueue = "rx.dl.dead";
    auto sent = client->send(message);
    QS_VERIFY_OK(sent);
    auto batch = client->receive("rx.dl", 1, std::chrono::seconds(5));
    QS_VERIFY_OK(batch);
    QCOMPARE(batch->size(), std::size_t{1});
    QS_VERIFY_OK(batch->messages()[0].reject());
    auto dead = client->receive("rx.dl.dead", 1, std::chrono::seconds(5));
    QS_VERIFY_OK(dead);
    QCOMPARE(dead->size(), std::size_t{1});
    const QueueMessage& copy = dead->messages()[0].message();
    QCOMPARE(copy.id, sent->messageId);
    QVERIFY(copy.attributes.reRouted);
    QCOMPARE(copy.attributes.reRoutedFrom, std::string("rx.dl"));
    QS_VERIFY_OK(dead->ackAll());
}

void TestClientReceive::settlementErrorIsSurfaced() {
    // Local checks off so the bad requeue target reaches the server, which
    // answers with an error frame (successful settlements get none).
    auto client = makeClient(broker_.address(), "raw", {}, false);
    std::mutex mutex;
    std::vector<SettlementError> errors;
    client->setSettlementErrorHandler([&](const SettlementError& error) {
        std::lock_guard lock(mutex);
        errors.push_back(error);
    });
    sendN(*client, "rx.err", 1);
    auto batch = client->receive("rx.err", 1, std::chrono::seconds(5));
    QS_VERIFY_OK(batch);
    QCOMPARE(batch->size(), std::size_t{1});
    const std::uint64_t sequence = batch->messages()[0].sequence();
    QS_VERIFY_OK(batch->messages()[0].requeue("bad*target"));
    QVERIFY(qs::test::waitUntil([&] {
        std::lock_guard lock(mutex);
        return !errors.empty();
    }));
    std::lock_guard lock(mutex);
    QCOMPARE(errors.size(), std::size_t{1});
    const SettlementError& error = errors.front();
    QS_COMPARE_ENUM(error.operation, SettleOp::Requeue);
    QCOMPARE(error.transactionId, batch->transactionId());
    QCOMPARE(error.sequences, std::vector<std::uint64_t>{sequence});
    QVERIFY2(error.message.find("Error 120") != std::string::npos, error.message.c_str());
    QVERIFY(!error.requestId.empty());
}

void TestClientReceive::settlementErrorQueueWithoutHandler() {
    auto client = makeClient(broker_.address(), "raw", {}, false);
    sendN(*client, "rx.errq", 2);
    auto batch = client->receive("rx.errq", 2, std::chrono::seconds(5));
    QS_VERIFY_OK(batch);
    QCOMPARE(batch->size(), std::size_t{2});
    QS_VERIFY_OK(batch->requeueAll("bad target"));
    std::vector<SettlementError> errors;
    QVERIFY(qs::test::waitUntil([&] {
        for (auto& error : client->takeSettlementErrors()) {
            errors.push_back(std::move(error));
        }
        return !errors.empty();
    }));
    QS_COMPARE_ENUM(errors.front().operation, SettleOp::RequeueAll);
    QVERIFY2(errors.front().message.find("Error 120") != std::string::npos,
             errors.front().message.c_str());
}

void TestClientReceive::receiveServerError() {
    auto client = makeClient(broker_.address(), "raw", {}, false);
    auto bad = client->receive("bad name", 1, std::chrono::milliseconds(0));
    QVERIFY(!bad.ok());
    QS_COMPARE_ENUM(bad.error().category, ErrorCategory::ServerError);
    QVERIFY2(bad.error().message.rfind("Error 120", 0) == 0, bad.error().message.c_str());
    // The stream survives an in-band error.
    sendN(*client, "rx.after", 1);
    auto good = client->receive("rx.after", 1, std::chrono::seconds(5));
    QS_VERIFY_OK(good);
    QCOMPARE(good->size(), std::size_t{1});
    QS_VERIFY_OK(good->ackAll());
}

void TestClientReceive::peekAndPull() {
    auto client = makeClient(broker_.address());
    sendN(*client, "rx.peek", 2);
    auto peeked = client->peek("rx.peek", 10, kShort);
    QS_VERIFY_OK(peeked);
    QVERIFY(peeked->isPeek);
    QCOMPARE(peeked->messages.size(), std::size_t{2});
    auto peekedAgain = client->peek("rx.peek", 1, kShort);
    QS_VERIFY_OK(peekedAgain);
    QCOMPARE(peekedAgain->messages.size(), std::size_t{1});
    QCOMPARE(peekedAgain->messages[0].attributes.sequence, std::uint64_t{1});
    auto pulled = client->pull("rx.peek", 10, kShort);
    QS_VERIFY_OK(pulled);
    QVERIFY(!pulled->isPeek);
    QCOMPARE(pulled->messages.size(), std::size_t{2});
    QCOMPARE(pulled->messagesReceived, 2);
    auto none = client->peek("rx.peek", 10, kShort);
    QS_VERIFY_OK(none);
    QCOMPARE(none->messages.size(), std::size_t{0});
}

void TestClientReceive::ackAllQueueMessages() {
    auto client = makeClient(broker_.address());
    sendN(*client, "rx.ackallq", 3);
    auto affected = client->ackAllQueueMessages("rx.ackallq", kShort);
    QS_VERIFY_OK(affected);
    QCOMPARE(affected.value(), std::uint64_t{3});
    auto again = client->ackAllQueueMessages("rx.ackallq", std::chrono::milliseconds(0));
    QS_VERIFY_OK(again);
    QCOMPARE(again.value(), std::uint64_t{0});
}

// A client that settles and is destroyed straight away: the stream is
// half-closed and the server reads the settlements before it ends, instead of
// a cancel discarding what was still in flight (the messages would come back).
void TestClientReceive::settlementsBeforeCloseAreApplied() {
    constexpr int kRounds = 20;
    for (int round = 0; round < kRounds; ++round) {
        auto client = makeClient(broker_.address());
        sendN(*client, "rx.close.acked", 5);
        sendN(*client, "rx.close.moved", 1);
        auto batch = client->receive("rx.close.acked", 5, std::chrono::seconds(5));
        QS_VERIFY_OK(batch);
        QCOMPARE(batch->size(), std::size_t{5});
        QS_VERIFY_OK(batch->ackAll());
        auto one = client->receive("rx.close.moved", 1, std::chrono::seconds(5));
        QS_VERIFY_OK(one);
        QCOMPARE(one->size(), std::size_t{1});
        QS_VERIFY_OK(one->messages()[0].requeue("rx.close.dest"));
        client.reset();  // no sync: the close itself must carry the settlements
    }
    QCOMPARE(waiting(broker_.address(), "rx.close.acked"), std::size_t{0});
    QCOMPARE(waiting(broker_.address(), "rx.close.moved"), std::size_t{0});
    QCOMPARE(waiting(broker_.address(), "rx.close.dest"), std::size_t{kRounds});
}

QTEST_APPLESS_MAIN(TestClientReceive)
#include "tst_client_receive.moc"
