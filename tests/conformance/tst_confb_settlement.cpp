// Spec §4 cases 54-68: QueuesDownstream settlement and query operations on
// transactions (ack, nack, re-queue, active offsets, close, dead-lettering).
#include <QTest>
#include <memory>
#include <thread>

#include "conformance_qt.h"
#include "conformance_streams.h"
#include "test_broker.h"

using namespace qs::test::conf;
using namespace std::chrono_literals;

Q_DECLARE_METATYPE(kubemq::QueuesDownstreamRequestType)

class TestConfbSettlement : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void case54_ackAllHasNoResponse();
    void case55_ackRangeThenActiveOffsets();
    void case56_ackRangeStopsAtUnknownSequence();
    void case57_emptySequenceLists_data();
    void case57_emptySequenceLists();
    void case58_operationsOnClosedTransaction_data();
    void case58_operationsOnClosedTransaction();
    void case59_unknownTransaction();
    void case60_transactionStatusIsUnknownRequest();
    void case61_nackedMessageReturnsAtTail();
    void case62_deadLetterAfterMaxReceiveCount();
    void case63_dropWithoutDeadLetterQueue();
    void case64_reQueueAllMovesMessages();
    void case65_reQueueErrors();
    void case66_closeByClientReturnsMessages();
    void case67_cancelledStreamMessagesComeFirst();
    void case68_autoAckClosesTransaction();

private:
    // Sends count messages "<channel>-<i>" to channel, then Gets exactly count
    // of them on stream; returns the Get response (empty on failure).
    kubemq::QueuesDownstreamResponse fetch(DownstreamSession& stream, const std::string& channel,
                                           int count);

    std::unique_ptr<qs::test::TestBroker> broker_;
    std::unique_ptr<Stub> stub_;
};

void TestConfbSettlement::init() {
    broker_ = std::make_unique<qs::test::TestBroker>();
    QVERIFY2(broker_->ok(), broker_->error().c_str());
    stub_ = broker_->newStub();
}

void TestConfbSettlement::cleanup() {
    stub_.reset();
    broker_.reset();
}

kubemq::QueuesDownstreamResponse TestConfbSettlement::fetch(DownstreamSession& stream,
                                                            const std::string& channel, int count) {
    if (const std::string failed = sendMany(*stub_, channel, count, channel); !failed.empty()) {
        qWarning("send failed: %s", failed.c_str());
        return {};
    }
    const auto frame = stream.get("fetch-" + channel, channel, count, 5000);
    if (!frame)
        return {};
    return frame->message;
}

void TestConfbSettlement::case54_ackAllHasNoResponse() {
    DownstreamSession stream(broker_->newChannel());
    const auto got = fetch(stream, "q54", 5);
    QCOMPARE(got.messages_size(), 5);

    QVERIFY(stream.sendSettle("a54", kubemq::AckAll, got.transactionid()));
    const auto next = stream.get("g54", "q54", 1, 1000);
    QVERIFY(next);
    QCOMPARE(qstr(next->message.refrequestid()), QStringLiteral("g54"));
    QCOMPARE(next->message.requesttypedata(), kubemq::Get);
    QCOMPARE(next->message.iserror(), false);
    QCOMPARE(next->message.messages_size(), 0);
}

void TestConfbSettlement::case55_ackRangeThenActiveOffsets() {
    DownstreamSession stream(broker_->newChannel());
    const auto got = fetch(stream, "q55", 5);
    QCOMPARE(qints(sequencesOf(got.messages())), (QList<qint64>{1, 2, 3, 4, 5}));

    QVERIFY(stream.sendSettle("a55", kubemq::AckRange, got.transactionid(), {1, 2, 3}));
    const auto offsets = stream.activeOffsets("o55", got.transactionid());
    QVERIFY(offsets);
    QCOMPARE(qstr(offsets->message.refrequestid()), QStringLiteral("o55"));
    QCOMPARE(offsets->message.requesttypedata(), kubemq::ActiveOffsets);
    QCOMPARE(offsets->message.iserror(), false);
    QCOMPARE(qints(offsetSet(offsets->message)), (QList<qint64>{4, 5}));
}

void TestConfbSettlement::case56_ackRangeStopsAtUnknownSequence() {
    DownstreamSession stream(broker_->newChannel());
    const auto got = fetch(stream, "q56", 3);
    QCOMPARE(qints(sequencesOf(got.messages())), (QList<qint64>{1, 2, 3}));

    QVERIFY(stream.sendSettle("a56", kubemq::AckRange, got.transactionid(), {1, 9}));
    const auto error = stream.next(10s);
    QVERIFY(error);
    QCOMPARE(error->message.iserror(), true);
    QCOMPARE(qstr(error->message.error()), QStringLiteral("invalid ack sequence id 9"));
    QCOMPARE(error->message.requesttypedata(), kubemq::AckRange);
    QCOMPARE(qstr(error->message.transactionid()), qstr(got.transactionid()));
    QCOMPARE(qstr(error->message.refrequestid()), QStringLiteral("a56"));

    const auto offsets = stream.activeOffsets("o56", got.transactionid());
    QVERIFY(offsets);
    QCOMPARE(offsets->message.iserror(), false);
    QCOMPARE(qints(offsetSet(offsets->message)), (QList<qint64>{2, 3}));
}

void TestConfbSettlement::case57_emptySequenceLists_data() {
    QTest::addColumn<kubemq::QueuesDownstreamRequestType>("type");
    QTest::addColumn<QString>("requeueChannel");
    QTest::addColumn<QString>("error");
    QTest::newRow("AckRange []") << kubemq::AckRange << QString()
                                 << QStringLiteral("cannot ack empty list of of offsets");
    QTest::newRow("NAckRange []") << kubemq::NAckRange << QString()
                                  << QStringLiteral("cannot nack empty list of of offsets");
    QTest::newRow("ReQueueRange [] to x")
        << kubemq::ReQueueRange << QStringLiteral("x")
        << QStringLiteral("cannot requeue empty list of of offsets");
}

void TestConfbSettlement::case57_emptySequenceLists() {
    QFETCH(kubemq::QueuesDownstreamRequestType, type);
    QFETCH(QString, requeueChannel);
    QFETCH(QString, error);
    DownstreamSession stream(broker_->newChannel());
    const auto got = fetch(stream, "q57", 3);
    QCOMPARE(got.messages_size(), 3);

    QVERIFY(stream.sendSettle("s57", type, got.transactionid(), {}, requeueChannel.toStdString()));
    const auto frame = stream.next(10s);
    QVERIFY(frame);
    QCOMPARE(frame->message.iserror(), true);
    QCOMPARE(qstr(frame->message.error()), error);
    QCOMPARE(frame->message.requesttypedata(), type);
    QCOMPARE(qstr(frame->message.transactionid()), qstr(got.transactionid()));
    QCOMPARE(qstr(frame->message.refrequestid()), QStringLiteral("s57"));

    // The rejected request settled nothing.
    const auto offsets = stream.activeOffsets("o57", got.transactionid());
    QVERIFY(offsets);
    QCOMPARE(qints(offsetSet(offsets->message)), (QList<qint64>{1, 2, 3}));
}

void TestConfbSettlement::case58_operationsOnClosedTransaction_data() {
    QTest::addColumn<kubemq::QueuesDownstreamRequestType>("type");
    QTest::addColumn<QString>("error");
    QTest::newRow("AckAll") << kubemq::AckAll
                            << QStringLiteral("cannot ack messages with closed response ");
    QTest::newRow("NAckAll") << kubemq::NAckAll
                             << QStringLiteral("cannot nack messages with closed response ");
    QTest::newRow("ActiveOffsets")
        << kubemq::ActiveOffsets
        << QStringLiteral("cannot get active offsets with closed response ");
    QTest::newRow("ReQueueRange [1] to x")
        << kubemq::ReQueueRange << QStringLiteral("cannot requeue messages with closed response ");
}

void TestConfbSettlement::case58_operationsOnClosedTransaction() {
    QFETCH(kubemq::QueuesDownstreamRequestType, type);
    QFETCH(QString, error);
    DownstreamSession stream(broker_->newChannel());
    const auto got = fetch(stream, "q58", 2);
    QCOMPARE(got.messages_size(), 2);
    QVERIFY(stream.sendSettle("a58", kubemq::AckAll, got.transactionid()));

    const bool requeue = type == kubemq::ReQueueRange;
    QVERIFY(stream.sendSettle("s58", type, got.transactionid(),
                              requeue ? std::vector<std::int64_t>{1} : std::vector<std::int64_t>{},
                              requeue ? "x" : ""));
    const auto frame = stream.next(10s);
    QVERIFY(frame);
    QCOMPARE(qstr(frame->message.refrequestid()), QStringLiteral("s58"));
    QCOMPARE(frame->message.iserror(), true);
    QCOMPARE(qstr(frame->message.error()), error);
    QCOMPARE(frame->message.requesttypedata(), type);
    QCOMPARE(qstr(frame->message.transactionid()), qstr(got.transactionid()));
}

void TestConfbSettlement::case59_unknownTransaction() {
    DownstreamSession stream(broker_->newChannel());
    QVERIFY(stream.sendSettle("a59", kubemq::AckAll, "bogus"));
    const auto frame = stream.next(10s);
    QVERIFY(frame);
    QCOMPARE(frame->message.iserror(), true);
    QCOMPARE(qstr(frame->message.error()), qstr(err::kTransactionNotFound));
    QCOMPARE(qstr(frame->message.transactionid()), QStringLiteral("bogus"));
    QCOMPARE(frame->message.requesttypedata(), kubemq::AckAll);
    QCOMPARE(qstr(frame->message.refrequestid()), QStringLiteral("a59"));
}

void TestConfbSettlement::case60_transactionStatusIsUnknownRequest() {
    DownstreamSession stream(broker_->newChannel());
    const auto got = fetch(stream, "q60", 2);
    QCOMPARE(got.messages_size(), 2);

    QVERIFY(stream.sendSettle("t60", kubemq::TransactionStatus, got.transactionid()));
    const auto frame = stream.next(10s);
    QVERIFY(frame);
    QCOMPARE(frame->message.iserror(), true);
    QCOMPARE(qstr(frame->message.error()), QStringLiteral("request unknown"));
    QCOMPARE(frame->message.requesttypedata(), kubemq::PollRequestTypeUnknown);
    QCOMPARE(qstr(frame->message.refrequestid()), QStringLiteral("t60"));
}

void TestConfbSettlement::case61_nackedMessageReturnsAtTail() {
    DownstreamSession stream(broker_->newChannel());
    const auto got = fetch(stream, "q61", 3);
    QCOMPARE(qints(sequencesOf(got.messages())), (QList<qint64>{1, 2, 3}));

    QVERIFY(stream.sendSettle("n61", kubemq::NAckRange, got.transactionid(), {2}));
    QVERIFY(stream.sendSettle("a61", kubemq::AckRange, got.transactionid(), {1, 3}));
    const auto again = stream.get("g61", "q61", 10, 1000);
    QVERIFY(again);
    QCOMPARE(qstr(again->message.refrequestid()), QStringLiteral("g61"));
    QCOMPARE(again->message.iserror(), false);
    QCOMPARE(again->message.messages_size(), 1);
    const auto& message = again->message.messages(0);
    QCOMPARE(qstr(message.messageid()), QStringLiteral("q61-2"));
    QCOMPARE(message.attributes().sequence(), quint64(4));
    QCOMPARE(message.attributes().receivecount(), 2);
}

void TestConfbSettlement::case62_deadLetterAfterMaxReceiveCount() {
    auto message = makeMessage("q62", "poison", "m62");
    message.mutable_policy()->set_maxreceivecount(2);
    message.mutable_policy()->set_maxreceivequeue("dlq");
    const auto sent = send(*stub_, message).reply;
    QVERIFY2(!sent.iserror(), sent.error().c_str());

    DownstreamSession stream(broker_->newChannel());
    for (int round = 1; round <= 2; ++round) {
        const auto got = stream.get("g62-" + std::to_string(round), "q62", 1, 5000);
        QVERIFY(got);
        QCOMPARE(got->message.messages_size(), 1);
        QCOMPARE(got->message.messages(0).attributes().receivecount(), round);
        QVERIFY(stream.sendSettle("n62-" + std::to_string(round), kubemq::NAckAll,
                                  got->message.transactionid()));
    }

    const auto source = stream.get("s62", "q62", 1, 1000);
    QVERIFY(source);
    QCOMPARE(qstr(source->message.refrequestid()), QStringLiteral("s62"));
    QCOMPARE(source->message.messages_size(), 0);

    const auto dlq = stream.get("d62", "dlq", 1, 5000);
    QVERIFY(dlq);
    QCOMPARE(dlq->message.iserror(), false);
    QCOMPARE(dlq->message.messages_size(), 1);
    const auto& dead = dlq->message.messages(0);
    QCOMPARE(qstr(dead.messageid()), QStringLiteral("m62"));
    QCOMPARE(dead.attributes().rerouted(), true);
    QCOMPARE(qstr(dead.attributes().reroutedfromqueue()), QStringLiteral("q62"));
    QCOMPARE(dead.attributes().receivecount(), 1);
    QCOMPARE(dead.policy().maxreceivecount(), 0);
}

void TestConfbSettlement::case63_dropWithoutDeadLetterQueue() {
    auto message = makeMessage("q63", "once", "m63");
    message.mutable_policy()->set_maxreceivecount(1);
    const auto sent = send(*stub_, message).reply;
    QVERIFY2(!sent.iserror(), sent.error().c_str());

    DownstreamSession stream(broker_->newChannel());
    const auto got = stream.get("g63", "q63", 1, 5000);
    QVERIFY(got);
    QCOMPARE(got->message.messages_size(), 1);
    QVERIFY(stream.sendSettle("n63", kubemq::NAckAll, got->message.transactionid()));

    const auto source = stream.get("s63", "q63", 1, 1000);
    QVERIFY(source);
    QCOMPARE(qstr(source->message.refrequestid()), QStringLiteral("s63"));
    QCOMPARE(source->message.messages_size(), 0);

    // Nothing waits anywhere: no copy was re-enqueued or dead-lettered.
    const auto info = queuesInfo(*stub_);
    QVERIFY(info);
    QCOMPARE(info->waiting(), qint64(0));
    for (const auto& queue : info->queues()) {
        QVERIFY2(queue.waiting() == 0, queue.name().c_str());
    }
}

void TestConfbSettlement::case64_reQueueAllMovesMessages() {
    DownstreamSession stream(broker_->newChannel());
    const auto got = fetch(stream, "q64", 2);
    QCOMPARE(got.messages_size(), 2);
    QVERIFY(stream.sendSettle("r64", kubemq::ReQueueAll, got.transactionid(), {}, "other"));

    const auto source = stream.get("s64", "q64", 1, 1000);
    QVERIFY(source);
    QCOMPARE(qstr(source->message.refrequestid()), QStringLiteral("s64"));
    QCOMPARE(source->message.iserror(), false);
    QCOMPARE(source->message.messages_size(), 0);

    const auto other = stream.get("o64", "other", 2, 5000);
    QVERIFY(other);
    QCOMPARE(other->message.iserror(), false);
    QCOMPARE(sorted(qstrs(idsOf(other->message.messages()))),
             (QStringList{QStringLiteral("q64-1"), QStringLiteral("q64-2")}));
    for (const auto& message : other->message.messages()) {
        QCOMPARE(message.attributes().receivecount(), 1);
        QCOMPARE(message.attributes().rerouted(), false);
    }
}

void TestConfbSettlement::case65_reQueueErrors() {
    DownstreamSession stream(broker_->newChannel());
    const auto got = fetch(stream, "q65", 2);
    QCOMPARE(got.messages_size(), 2);
    const std::uint64_t seq = got.messages(0).attributes().sequence();

    QVERIFY(stream.sendSettle("r65a", kubemq::ReQueueAll, got.transactionid(), {}, ""));
    const auto empty = stream.next(10s);
    QVERIFY(empty);
    QCOMPARE(qstr(empty->message.refrequestid()), QStringLiteral("r65a"));
    QCOMPARE(empty->message.iserror(), true);
    QCOMPARE(qstr(empty->message.error()),
             QStringLiteral("cannot requeue messages with empty channel destination "));
    QCOMPARE(empty->message.requesttypedata(), kubemq::ReQueueAll);
    QCOMPARE(qstr(empty->message.transactionid()), qstr(got.transactionid()));

    QVERIFY(stream.sendSettle("r65b", kubemq::ReQueueRange, got.transactionid(),
                              {static_cast<std::int64_t>(seq)}, "bad name"));
    const auto bad = stream.next(10s);
    QVERIFY(bad);
    QCOMPARE(qstr(bad->message.refrequestid()), QStringLiteral("r65b"));
    QCOMPARE(bad->message.iserror(), true);
    QCOMPARE(qstr(bad->message.error()),
             QStringLiteral("re-queue message with seq %1 failed, ").arg(seq) + qstr(err::k120));
    QCOMPARE(bad->message.requesttypedata(), kubemq::ReQueueRange);
    QCOMPARE(qstr(bad->message.transactionid()), qstr(got.transactionid()));
}

void TestConfbSettlement::case66_closeByClientReturnsMessages() {
    DownstreamSession stream(broker_->newChannel());
    const auto got = fetch(stream, "q66", 3);
    QCOMPARE(qints(sequencesOf(got.messages())), (QList<qint64>{1, 2, 3}));

    QVERIFY(stream.sendSettle("c66", kubemq::CloseByClient, got.transactionid()));
    const auto again = stream.get("g66", "q66", 3, 5000);
    QVERIFY(again);
    QCOMPARE(qstr(again->message.refrequestid()), QStringLiteral("g66"));
    QCOMPARE(again->message.requesttypedata(), kubemq::Get);
    QCOMPARE(again->message.iserror(), false);
    QCOMPARE(qints(sequencesOf(again->message.messages())), (QList<qint64>{1, 2, 3}));
    QCOMPARE(qstrs(idsOf(again->message.messages())), qstrs(idsOf(got.messages())));
    for (const auto& message : again->message.messages()) {
        QCOMPARE(message.attributes().receivecount(), 1);
    }
}

void TestConfbSettlement::case67_cancelledStreamMessagesComeFirst() {
    {
        DownstreamSession first(broker_->newChannel());
        const auto got = fetch(first, "q67", 2);
        QCOMPARE(qstrs(idsOf(got.messages())),
                 (QStringList{QStringLiteral("q67-1"), QStringLiteral("q67-2")}));
        const auto c = send(*stub_, makeMessage("q67", "C", "q67-C")).reply;
        QVERIFY2(!c.iserror(), c.error().c_str());
        first.cancel();
        QVERIFY(first.waitEnded(10s));
        first.finish();
    }
    // The broker returns the cancelled call's two messages once it notices the
    // cancel, which a loaded machine can delay: wait until all three are ready.
    auto allReady = [&] {
        const auto info = queuesInfo(*stub_, "q67");
        return info && info->waiting() == 3;
    };
    for (const auto deadline = Clock::now() + 60s; !allReady() && Clock::now() < deadline;)
        std::this_thread::sleep_for(10ms);
    QVERIFY(allReady());

    DownstreamSession second(broker_->newChannel());
    const auto frame = second.get("g67", "q67", 3, 5000);
    QVERIFY(frame);
    QCOMPARE(frame->message.iserror(), false);
    QCOMPARE(
        qstrs(idsOf(frame->message.messages())),
        (QStringList{QStringLiteral("q67-1"), QStringLiteral("q67-2"), QStringLiteral("q67-C")}));
    QCOMPARE(qints(sequencesOf(frame->message.messages())), (QList<qint64>{1, 2, 3}));
    for (const auto& message : frame->message.messages()) {
        QCOMPARE(message.attributes().receivecount(), 1);
    }
}

void TestConfbSettlement::case68_autoAckClosesTransaction() {
    QCOMPARE(qstr(sendMany(*stub_, "q68", 2, "q68")), QString());
    DownstreamSession stream(broker_->newChannel());
    const auto got = stream.get("g68", "q68", 2, 5000, /*autoAck=*/true);
    QVERIFY(got);
    QCOMPARE(got->message.iserror(), false);
    QCOMPARE(got->message.messages_size(), 2);

    QVERIFY(stream.sendSettle("a68", kubemq::AckAll, got->message.transactionid()));
    const auto ack = stream.next(10s);
    QVERIFY(ack);
    QCOMPARE(qstr(ack->message.refrequestid()), QStringLiteral("a68"));
    QCOMPARE(ack->message.iserror(), true);
    QCOMPARE(qstr(ack->message.error()),
             QStringLiteral("cannot ack messages with closed response "));

    DownstreamSession other(broker_->newChannel());
    const auto empty = other.get("e68", "q68", 1, 1000);
    QVERIFY(empty);
    QCOMPARE(empty->message.messages_size(), 0);
}

QTEST_APPLESS_MAIN(TestConfbSettlement)
#include "tst_confb_settlement.moc"
