// Malformed and out-of-range requests across every queue RPC: each row asserts
// the exact error (gRPC status or in-band text) and that the seeded queue is
// unchanged afterwards (same waiting messages, same sequences, same receive
// counts, no new queue anywhere). Plus the gRPC body limit: an oversized
// request is refused while another connected client keeps working.
#include <QTest>
#include <climits>
#include <functional>
#include <memory>

#include "conformance_qt.h"
#include "conformance_streams.h"
#include "test_broker.h"

using namespace qs::test::conf;
using namespace std::chrono_literals;

namespace {

constexpr const char* kQueue = "bad.q";
constexpr const char* kTab = "bad\tq";

struct Context {
    qs::test::TestBroker& broker;
    Stub& stub;
};

// One bad request and how to describe what the broker answered.
struct BadInputRow {
    std::function<QString(Context&)> act;
};

QString inBand(std::string_view error) {
    return QStringLiteral("in-band: ") + qstr(error);
}

// --- unary RPCs ---------------------------------------------------------------

BadInputRow sendRow(std::function<void(kubemq::QueueMessage&)> mutate) {
    return {[mutate](Context& ctx) -> QString {
        auto message = makeMessage(kQueue, "payload", "bad-msg");
        mutate(message);
        const auto result = send(ctx.stub, message).reply;
        if (!result.iserror())
            return QStringLiteral("accepted");
        QString out = inBand(result.error());
        if (result.sentat() != 0)
            out += QStringLiteral(" [SentAt set]");
        if (result.messageid() != message.messageid())
            out += QStringLiteral(" [MessageID changed]");
        return out;
    }};
}

BadInputRow batchRow(std::function<void(kubemq::QueueMessagesBatchRequest&)> fill) {
    return {[fill](Context& ctx) -> QString {
        kubemq::QueueMessagesBatchRequest batch;
        batch.set_batchid("bad-batch");
        fill(batch);
        const auto rpc = sendBatch(ctx.stub, batch);
        if (!rpc.ok())
            return qstr(describe(rpc.status));
        const auto& response = rpc.reply;
        QString out;
        for (int i = 0; i < response.results_size(); ++i) {
            const auto& result = response.results(i);
            out += QStringLiteral("results[%1] ").arg(i) +
                   (result.iserror() ? inBand(result.error()) : QStringLiteral("accepted")) +
                   QStringLiteral("; ");
        }
        return out + QStringLiteral("HaveErrors=") +
               (response.haveerrors() ? QStringLiteral("true") : QStringLiteral("false"));
    }};
}

BadInputRow receiveRow(bool peek,
                       std::function<void(kubemq::ReceiveQueueMessagesRequest&)> mutate) {
    return {[peek, mutate](Context& ctx) -> QString {
        kubemq::ReceiveQueueMessagesRequest request;
        request.set_requestid("bad-receive");
        request.set_clientid(std::string(kClientId));
        request.set_channel(kQueue);
        request.set_maxnumberofmessages(3);
        request.set_waittimeseconds(1);
        request.set_ispeak(peek);
        mutate(request);
        const auto rpc = receive(ctx.stub, request);
        if (!rpc.ok())
            return qstr(describe(rpc.status));
        const auto& response = rpc.reply;
        if (!response.iserror()) {
            return QStringLiteral("accepted, %1 messages").arg(response.messages_size());
        }
        QString out = inBand(response.error());
        if (response.requestid() != request.requestid())
            out += QStringLiteral(" [RequestID]");
        if (response.messages_size() != 0)
            out += QStringLiteral(" [messages returned]");
        return out;
    }};
}

BadInputRow ackAllRow(std::function<void(kubemq::AckAllQueueMessagesRequest&)> mutate) {
    return {[mutate](Context& ctx) -> QString {
        kubemq::AckAllQueueMessagesRequest request;
        request.set_requestid("bad-ackall");
        request.set_clientid(std::string(kClientId));
        request.set_channel(kQueue);
        request.set_waittimeseconds(1);
        mutate(request);
        const auto rpc = ackAll(ctx.stub, request);
        if (!rpc.ok())
            return qstr(describe(rpc.status));
        const auto& response = rpc.reply;
        if (!response.iserror()) {
            return QStringLiteral("accepted, %1 affected").arg(response.affectedmessages());
        }
        QString out = inBand(response.error());
        if (response.affectedmessages() != 0)
            out += QStringLiteral(" [AffectedMessages]");
        return out;
    }};
}

// --- QueuesDownstream ---------------------------------------------------------

// Describes an error frame; marks deviations from the expected type and
// transaction id (empty expectedTxn = "any non-empty id").
QString describeFrame(const std::optional<DownstreamFrame>& frame, const std::string& requestId,
                      int expectedType, const std::string& expectedTxn) {
    if (!frame)
        return QStringLiteral("no response");
    const auto& response = frame->message;
    QString out = response.iserror() ? inBand(response.error()) : QStringLiteral("no error");
    if (response.refrequestid() != requestId)
        out += QStringLiteral(" [RefRequestId]");
    if (static_cast<int>(response.requesttypedata()) != expectedType) {
        out += QStringLiteral(" [type %1]").arg(static_cast<int>(response.requesttypedata()));
    }
    if (expectedTxn.empty() ? response.transactionid().empty()
                            : response.transactionid() != expectedTxn) {
        out += QStringLiteral(" [TransactionId '%1']").arg(qstr(response.transactionid()));
    }
    return out;
}

// A Get that is refused before it reserves anything.
BadInputRow getRow(std::function<void(kubemq::QueuesDownstreamRequest&)> mutate) {
    return {[mutate](Context& ctx) -> QString {
        DownstreamSession stream(ctx.broker.newChannel());
        auto request = DownstreamSession::getRequest("bad-get", kQueue, 3, 1000);
        mutate(request);
        if (!stream.send(request))
            return QStringLiteral("stream broken");
        return describeFrame(stream.next(10s), "bad-get", kubemq::Get, {});
    }};
}

// A non-Get request referring to a transaction id the stream never issued.
BadInputRow unknownTxnRow(int type, std::vector<std::int64_t> sequences = {},
                          std::string requeueChannel = {}) {
    return {[=](Context& ctx) -> QString {
        DownstreamSession stream(ctx.broker.newChannel());
        const auto request = DownstreamSession::settleRequest(
            "bad-settle", static_cast<kubemq::QueuesDownstreamRequestType>(type), "no-such-txn",
            sequences, requeueChannel);
        if (!stream.send(request))
            return QStringLiteral("stream broken");
        return describeFrame(stream.next(10s), "bad-settle", type, "no-such-txn");
    }};
}

// A bad request on an open transaction holding the three seeded messages;
// reports the answer and the transaction's unsettled sequences afterwards,
// then closes the transaction so the messages return to the queue.
BadInputRow openTxnRow(int type, std::vector<std::int64_t> sequences = {},
                       std::string requeueChannel = {}, int expectedType = -1) {
    return {[=](Context& ctx) -> QString {
        DownstreamSession stream(ctx.broker.newChannel());
        const auto got = stream.get("hold", kQueue, 3, 5000);
        if (!got || got->message.messages_size() != 3)
            return QStringLiteral("seed Get failed");
        const std::string txn = got->message.transactionid();
        const auto request = DownstreamSession::settleRequest(
            "bad-settle", static_cast<kubemq::QueuesDownstreamRequestType>(type), txn, sequences,
            requeueChannel);
        if (!stream.send(request))
            return QStringLiteral("stream broken");
        QString out = describeFrame(stream.next(10s), "bad-settle",
                                    expectedType >= 0 ? expectedType : type, txn);
        const auto offsets = stream.activeOffsets("offsets", txn);
        out += QStringLiteral("; active=");
        if (offsets && !offsets->message.iserror()) {
            QStringList parts;
            for (const auto seq : offsetSet(offsets->message))
                parts << QString::number(seq);
            out += parts.join(QLatin1Char(','));
        } else {
            out += offsets ? qstr(offsets->message.error()) : QStringLiteral("no response");
        }
        // CloseByClient has no answer; the following query proves it was processed.
        stream.sendSettle("close", kubemq::CloseByClient, txn);
        stream.activeOffsets("after-close", txn);
        return out;
    }};
}

// --- QueuesUpstream -----------------------------------------------------------

BadInputRow upstreamRow(std::function<void(kubemq::QueuesUpstreamRequest&)> fill) {
    return {[fill](Context& ctx) -> QString {
        UpstreamSession stream(ctx.broker.newChannel());
        kubemq::QueuesUpstreamRequest request;
        request.set_requestid("bad-up");
        fill(request);
        if (!stream.send(request))
            return QStringLiteral("stream broken");
        const auto frame = stream.next(10s);
        if (!frame)
            return QStringLiteral("no response");
        const auto& response = frame->message;
        QString out;
        if (response.refrequestid() != "bad-up")
            out += QStringLiteral("[RefRequestID] ");
        if (response.iserror())
            return out + inBand(response.error());
        for (int i = 0; i < response.results_size(); ++i) {
            const auto& result = response.results(i);
            out += QStringLiteral("results[%1] ").arg(i) +
                   (result.iserror() ? inBand(result.error()) : QStringLiteral("accepted"));
        }
        return out;
    }};
}

// --- StreamQueueMessage (v1) --------------------------------------------------

kubemq::StreamQueueMessagesRequest v1Request(int type) {
    kubemq::StreamQueueMessagesRequest request;
    request.set_requestid("bad-v1");
    request.set_clientid(std::string(kClientId));
    request.set_streamrequesttypedata(static_cast<kubemq::StreamRequestType>(type));
    request.set_channel(kQueue);
    request.set_visibilityseconds(10);
    request.set_waittimeseconds(1);
    return request;
}

// Sends one bad request and then a request of unknown type: the second must
// still be answered (validation errors do not end the v1 stream).
BadInputRow v1Row(int type, std::function<void(kubemq::StreamQueueMessagesRequest&)> mutate) {
    return {[type, mutate](Context& ctx) -> QString {
        V1StreamSession stream(ctx.broker.newChannel());
        auto request = v1Request(type);
        mutate(request);
        if (!stream.send(request))
            return QStringLiteral("stream broken");
        const auto frame = stream.next(10s);
        if (!frame)
            return QStringLiteral("no response");
        const auto& response = frame->message;
        QString out = response.iserror() ? inBand(response.error()) : QStringLiteral("no error");
        if (response.requestid() != "bad-v1")
            out += QStringLiteral(" [RequestID]");
        if (static_cast<int>(response.streamrequesttypedata()) != type) {
            out += QStringLiteral(" [type %1]")
                       .arg(static_cast<int>(response.streamrequesttypedata()));
        }
        if (response.has_message() && !response.message().messageid().empty()) {
            out += QStringLiteral(" [message delivered]");
        }
        auto probe = v1Request(7);
        probe.set_requestid("probe");
        const bool open = stream.send(probe) && stream.next(10s).has_value();
        return out + (open ? QStringLiteral("; stream open") : QStringLiteral("; stream ended"));
    }};
}

// --- queue state --------------------------------------------------------------

struct Snapshot {
    bool ok = false;
    QStringList waiting;  // "seq id rc" of every message a peek sees
    QStringList queues;   // per queue: name and counters that only change with content
};

Snapshot snapshot(Stub& stub) {
    Snapshot out;
    // Exactly three are seeded, so the peek returns at once when they are all there.
    const auto peeked = peek(stub, kQueue, 3, 1).reply;
    if (peeked.iserror())
        return out;
    for (const auto& message : peeked.messages()) {
        out.waiting << QStringLiteral("%1 %2 rc%3")
                           .arg(message.attributes().sequence())
                           .arg(qstr(message.messageid()))
                           .arg(message.attributes().receivecount());
    }
    const auto info = queuesInfo(stub);
    if (!info)
        return out;
    for (const auto& queue : info->queues()) {
        out.queues << QStringLiteral("%1 messages=%2 waiting=%3 first=%4 last=%5")
                          .arg(qstr(queue.name()))
                          .arg(queue.messages())
                          .arg(queue.waiting())
                          .arg(queue.firstsequence())
                          .arg(queue.lastsequence());
    }
    out.queues.sort();
    out.ok = true;
    return out;
}

}  // namespace

Q_DECLARE_METATYPE(BadInputRow)

class TestConfbBadInput : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void badInput_data();
    void badInput();
    void bodyLimit_oversizedRequestRefusedOthersUnaffected();

private:
    std::unique_ptr<qs::test::TestBroker> broker_;
    std::unique_ptr<Stub> stub_;
};

void TestConfbBadInput::init() {
    broker_ = std::make_unique<qs::test::TestBroker>();
    QVERIFY2(broker_->ok(), broker_->error().c_str());
    stub_ = broker_->newStub();
}

void TestConfbBadInput::cleanup() {
    stub_.reset();
    broker_.reset();
}

void TestConfbBadInput::badInput_data() {
    QTest::addColumn<BadInputRow>("row");
    QTest::addColumn<QString>("expected");

    const QString e101 = inBand(err::k101);
    const QString e110 = inBand(err::k110);
    const QString e120 = inBand(err::k120);
    const QString e122 = inBand(err::k122);
    const QString e125 = inBand(err::k125);
    const QString e127 = inBand(err::k127);
    const QString e132 = inBand(err::k132);
    const QString e133 = inBand(err::k133);
    const QString e134 = inBand(err::k134);
    const QString e135 = inBand(err::k135);
    const QString e136 = inBand(err::k136);
    const QString notFound = inBand(err::kTransactionNotFound);

    // SendQueueMessage
    auto channel = [](const char* name) {
        return sendRow([name](kubemq::QueueMessage& m) { m.set_channel(name); });
    };
    QTest::newRow("send: channel with TAB") << channel(kTab) << e120;
    QTest::newRow("send: channel with space") << channel("bad q") << e120;
    QTest::newRow("send: channel ends with dot") << channel("bad.q.") << e120;
    QTest::newRow("send: channel with *") << channel("bad.*") << e120;
    QTest::newRow("send: channel with >") << channel("bad.>") << e120;
    QTest::newRow("send: empty channel") << channel("") << e120;
    QTest::newRow("send: empty ClientID")
        << sendRow([](kubemq::QueueMessage& m) { m.set_clientid(""); }) << e101;
    QTest::newRow("send: empty Body and Metadata")
        << sendRow([](kubemq::QueueMessage& m) { m.set_body(""); }) << e110;
    QTest::newRow("send: tags only") << sendRow([](kubemq::QueueMessage& m) {
        m.set_body("");
        m.mutable_tags()->insert({"k", "v"});
    }) << e110;
    auto policy = [](std::function<void(kubemq::QueueMessagePolicy&)> set) {
        return sendRow([set](kubemq::QueueMessage& m) { set(*m.mutable_policy()); });
    };
    QTest::newRow("send: ExpirationSeconds -1")
        << policy([](auto& p) { p.set_expirationseconds(-1); }) << e133;
    QTest::newRow("send: ExpirationSeconds 43201")
        << policy([](auto& p) { p.set_expirationseconds(43201); }) << e133;
    QTest::newRow("send: ExpirationSeconds INT_MAX")
        << policy([](auto& p) { p.set_expirationseconds(INT_MAX); }) << e133;
    QTest::newRow("send: DelaySeconds -1")
        << policy([](auto& p) { p.set_delayseconds(-1); }) << e135;
    QTest::newRow("send: DelaySeconds 43201")
        << policy([](auto& p) { p.set_delayseconds(43201); }) << e135;
    QTest::newRow("send: DelaySeconds INT_MIN")
        << policy([](auto& p) { p.set_delayseconds(INT_MIN); }) << e135;
    QTest::newRow("send: MaxReceiveCount -1")
        << policy([](auto& p) { p.set_maxreceivecount(-1); }) << e134;
    QTest::newRow("send: MaxReceiveCount 1025")
        << policy([](auto& p) { p.set_maxreceivecount(1025); }) << e134;
    QTest::newRow("send: MaxReceiveCount INT_MAX")
        << policy([](auto& p) { p.set_maxreceivecount(INT_MAX); }) << e134;
    QTest::newRow("send: MaxReceiveQueue with TAB")
        << policy([](auto& p) { p.set_maxreceivequeue("dlq\tx"); }) << e120;
    QTest::newRow("send: MaxReceiveQueue with space")
        << policy([](auto& p) { p.set_maxreceivequeue("dlq x"); }) << e120;

    // SendQueueMessagesBatch
    QTest::newRow("batch: empty") << batchRow([](kubemq::QueueMessagesBatchRequest&) {})
                                  << QStringLiteral("UNKNOWN: empty messages batch");
    QTest::newRow("batch: only an invalid message")
        << batchRow([](kubemq::QueueMessagesBatchRequest& b) {
               auto* m = b.add_messages();
               *m = makeMessage(kTab, "x", "b1");
           })
        << QStringLiteral("results[0] ") + e120 + QStringLiteral("; HaveErrors=false");

    // ReceiveQueueMessages (pull and peek) on the seeded queue
    auto pullRow = [](std::function<void(kubemq::ReceiveQueueMessagesRequest&)> mutate) {
        return receiveRow(false, std::move(mutate));
    };
    QTest::newRow("pull: MaxNumberOfMessages 0")
        << pullRow([](auto& r) { r.set_maxnumberofmessages(0); }) << e122;
    QTest::newRow("pull: MaxNumberOfMessages -1")
        << pullRow([](auto& r) { r.set_maxnumberofmessages(-1); }) << e122;
    QTest::newRow("pull: MaxNumberOfMessages 1025")
        << pullRow([](auto& r) { r.set_maxnumberofmessages(1025); }) << e122;
    QTest::newRow("pull: WaitTimeSeconds -1")
        << pullRow([](auto& r) { r.set_waittimeseconds(-1); }) << e136;
    QTest::newRow("pull: WaitTimeSeconds 3601")
        << pullRow([](auto& r) { r.set_waittimeseconds(3601); }) << e136;
    QTest::newRow("pull: WaitTimeSeconds INT_MAX")
        << pullRow([](auto& r) { r.set_waittimeseconds(INT_MAX); }) << e136;
    QTest::newRow("pull: empty ClientID") << pullRow([](auto& r) { r.set_clientid(""); }) << e101;
    QTest::newRow("pull: channel with TAB")
        << pullRow([](auto& r) { r.set_channel(kTab); }) << e120;
    QTest::newRow("pull: channel with >")
        << pullRow([](auto& r) { r.set_channel("bad.>"); }) << e120;
    QTest::newRow("peek: MaxNumberOfMessages 1025")
        << receiveRow(true, [](auto& r) { r.set_maxnumberofmessages(1025); }) << e122;
    QTest::newRow("peek: WaitTimeSeconds -1")
        << receiveRow(true, [](auto& r) { r.set_waittimeseconds(-1); }) << e136;

    // AckAllQueueMessages on the seeded queue
    QTest::newRow("ackall: empty ClientID")
        << ackAllRow([](auto& r) { r.set_clientid(""); }) << e101;
    QTest::newRow("ackall: channel with TAB")
        << ackAllRow([](auto& r) { r.set_channel(kTab); }) << e120;
    QTest::newRow("ackall: WaitTimeSeconds -1")
        << ackAllRow([](auto& r) { r.set_waittimeseconds(-1); }) << e136;
    QTest::newRow("ackall: WaitTimeSeconds 3601")
        << ackAllRow([](auto& r) { r.set_waittimeseconds(3601); }) << e136;

    // QueuesDownstream Get
    QTest::newRow("get: empty ClientID") << getRow([](auto& r) { r.set_clientid(""); }) << e101;
    QTest::newRow("get: channel with TAB") << getRow([](auto& r) { r.set_channel(kTab); }) << e120;
    QTest::newRow("get: channel ends with dot")
        << getRow([](auto& r) { r.set_channel("bad.q."); }) << e120;
    QTest::newRow("get: empty channel") << getRow([](auto& r) { r.set_channel(""); }) << e120;
    QTest::newRow("get: channel with *") << getRow([](auto& r) { r.set_channel("bad.*"); }) << e120;

    // QueuesDownstream settlements on a transaction the stream does not know
    QTest::newRow("unknown txn: AckAll") << unknownTxnRow(kubemq::AckAll) << notFound;
    QTest::newRow("unknown txn: AckRange [1]") << unknownTxnRow(kubemq::AckRange, {1}) << notFound;
    QTest::newRow("unknown txn: NAckAll") << unknownTxnRow(kubemq::NAckAll) << notFound;
    QTest::newRow("unknown txn: NAckRange [1]")
        << unknownTxnRow(kubemq::NAckRange, {1}) << notFound;
    QTest::newRow("unknown txn: ReQueueAll")
        << unknownTxnRow(kubemq::ReQueueAll, {}, "x") << notFound;
    QTest::newRow("unknown txn: ReQueueRange [1]")
        << unknownTxnRow(kubemq::ReQueueRange, {1}, "x") << notFound;
    QTest::newRow("unknown txn: ActiveOffsets") << unknownTxnRow(kubemq::ActiveOffsets) << notFound;
    QTest::newRow("unknown txn: CloseByClient") << unknownTxnRow(kubemq::CloseByClient) << notFound;
    QTest::newRow("unknown txn: type 0")
        << unknownTxnRow(kubemq::PollRequestTypeUnknown) << notFound;
    QTest::newRow("unknown txn: TransactionStatus")
        << unknownTxnRow(kubemq::TransactionStatus) << notFound;
    QTest::newRow("unknown txn: CloseByServer") << unknownTxnRow(kubemq::CloseByServer) << notFound;
    QTest::newRow("unknown txn: type 42") << unknownTxnRow(42) << notFound;

    // QueuesDownstream bad requests on an open transaction (sequences 1..3)
    const QString allActive = QStringLiteral("; active=1,2,3");
    QTest::newRow("open txn: AckRange []")
        << openTxnRow(kubemq::AckRange)
        << inBand("cannot ack empty list of of offsets") + allActive;
    QTest::newRow("open txn: NAckRange []")
        << openTxnRow(kubemq::NAckRange)
        << inBand("cannot nack empty list of of offsets") + allActive;
    QTest::newRow("open txn: ReQueueRange [] to x")
        << openTxnRow(kubemq::ReQueueRange, {}, "x")
        << inBand("cannot requeue empty list of of offsets") + allActive;
    QTest::newRow("open txn: AckRange [99]")
        << openTxnRow(kubemq::AckRange, {99}) << inBand("invalid ack sequence id 99") + allActive;
    QTest::newRow("open txn: AckRange [0]")
        << openTxnRow(kubemq::AckRange, {0}) << inBand("invalid ack sequence id 0") + allActive;
    QTest::newRow("open txn: AckRange [-1]")
        << openTxnRow(kubemq::AckRange, {-1}) << inBand("invalid ack sequence id -1") + allActive;
    QTest::newRow("open txn: NAckRange [99]")
        << openTxnRow(kubemq::NAckRange, {99}) << inBand("invalid nack sequence id 99") + allActive;
    QTest::newRow("open txn: ReQueueRange [99] to x")
        << openTxnRow(kubemq::ReQueueRange, {99}, "x")
        << inBand("invalid ack sequence id 99") + allActive;
    QTest::newRow("open txn: ReQueueAll to empty channel")
        << openTxnRow(kubemq::ReQueueAll, {}, "")
        << inBand("cannot requeue messages with empty channel destination ") + allActive;
    QTest::newRow("open txn: ReQueueRange [1] to empty channel")
        << openTxnRow(kubemq::ReQueueRange, {1}, "")
        << inBand("cannot requeue messages with empty channel destination ") + allActive;
    QTest::newRow("open txn: ReQueueRange [2] to TAB channel")
        << openTxnRow(kubemq::ReQueueRange, {2}, kTab)
        << QStringLiteral("in-band: re-queue message with seq 2 failed, ") + qstr(err::k120) +
               allActive;
    QTest::newRow("open txn: type 0") << openTxnRow(kubemq::PollRequestTypeUnknown, {}, {}, 0)
                                      << inBand("request unknown") + allActive;
    QTest::newRow("open txn: TransactionStatus") << openTxnRow(kubemq::TransactionStatus, {}, {}, 0)
                                                 << inBand("request unknown") + allActive;
    QTest::newRow("open txn: CloseByServer")
        << openTxnRow(kubemq::CloseByServer, {}, {}, 0) << inBand("request unknown") + allActive;
    QTest::newRow("open txn: type 42")
        << openTxnRow(42, {}, {}, 0) << inBand("request unknown") + allActive;

    // QueuesUpstream
    QTest::newRow("upstream: no messages")
        << upstreamRow([](kubemq::QueuesUpstreamRequest&) {}) << inBand("no messages to send");
    QTest::newRow("upstream: channel with TAB")
        << upstreamRow([](kubemq::QueuesUpstreamRequest& r) {
               *r.add_messages() = makeMessage(kTab, "x", "u1");
           })
        << QStringLiteral("results[0] ") + e120;
    QTest::newRow("upstream: empty ClientID") << upstreamRow([](kubemq::QueuesUpstreamRequest& r) {
        auto* m = r.add_messages();
        *m = makeMessage(kQueue, "x", "u1");
        m->set_clientid("");
    }) << QStringLiteral("results[0] ") + e101;
    QTest::newRow("upstream: DelaySeconds 43201")
        << upstreamRow([](kubemq::QueuesUpstreamRequest& r) {
               auto* m = r.add_messages();
               *m = makeMessage(kQueue, "x", "u1");
               m->mutable_policy()->set_delayseconds(43201);
           })
        << QStringLiteral("results[0] ") + e135;

    // StreamQueueMessage (v1): validation errors keep the stream open
    const QString open = QStringLiteral("; stream open");
    auto none = [](kubemq::StreamQueueMessagesRequest&) {};
    QTest::newRow("v1: empty ClientID")
        << v1Row(kubemq::ReceiveMessage, [](auto& r) { r.set_clientid(""); }) << e101 + open;
    QTest::newRow("v1: type 7") << v1Row(7, none) << e132 + open;
    QTest::newRow("v1: type 0") << v1Row(0, none) << e132 + open;
    QTest::newRow("v1: ReceiveMessage channel with TAB")
        << v1Row(kubemq::ReceiveMessage, [](auto& r) { r.set_channel(kTab); }) << e120 + open;
    QTest::newRow("v1: ReceiveMessage channel with space")
        << v1Row(kubemq::ReceiveMessage, [](auto& r) { r.set_channel("bad q"); }) << e120 + open;
    QTest::newRow("v1: ReceiveMessage VisibilitySeconds -1")
        << v1Row(kubemq::ReceiveMessage, [](auto& r) { r.set_visibilityseconds(-1); })
        << e127 + open;
    QTest::newRow("v1: ReceiveMessage VisibilitySeconds 43201")
        << v1Row(kubemq::ReceiveMessage, [](auto& r) { r.set_visibilityseconds(43201); })
        << e127 + open;
    QTest::newRow("v1: ReceiveMessage WaitTimeSeconds -1")
        << v1Row(kubemq::ReceiveMessage, [](auto& r) { r.set_waittimeseconds(-1); }) << e136 + open;
    QTest::newRow("v1: ReceiveMessage WaitTimeSeconds 3601")
        << v1Row(kubemq::ReceiveMessage, [](auto& r) { r.set_waittimeseconds(3601); })
        << e136 + open;
    QTest::newRow("v1: AckMessage RefSequence 0")
        << v1Row(kubemq::AckMessage, [](auto& r) { r.set_refsequence(0); }) << e125 + open;
    QTest::newRow("v1: AckMessage without a message")
        << v1Row(kubemq::AckMessage, [](auto& r) { r.set_refsequence(5); })
        << inBand("Error 124: no active message to ack") + open;
    QTest::newRow("v1: RejectMessage without a message")
        << v1Row(kubemq::RejectMessage, [](auto& r) { r.set_refsequence(5); })
        << inBand("Error 137: no active message to reject") + open;
    QTest::newRow("v1: ResendMessage without a message")
        << v1Row(kubemq::ResendMessage, [](auto& r) { r.set_channel("x"); })
        << inBand("Error 126: no active message to send") + open;
    QTest::newRow("v1: SendModifiedMessage without ModifiedMessage")
        << v1Row(kubemq::SendModifiedMessage, none)
        << inBand("Error 131: invalid queue message") + open;
    QTest::newRow("v1: ModifyVisibility 43201")
        << v1Row(kubemq::ModifyVisibility, [](auto& r) { r.set_visibilityseconds(43201); })
        << e127 + open;
}

void TestConfbBadInput::badInput() {
    QFETCH(BadInputRow, row);
    QFETCH(QString, expected);

    QCOMPARE(qstr(sendMany(*stub_, kQueue, 3, "seed")), QString());
    const Snapshot before = snapshot(*stub_);
    QVERIFY(before.ok);
    QCOMPARE(before.waiting,
             (QStringList{QStringLiteral("1 seed-1 rc1"), QStringLiteral("2 seed-2 rc1"),
                          QStringLiteral("3 seed-3 rc1")}));

    Context context{*broker_, *stub_};
    const QString outcome = row.act(context);
    QCOMPARE(outcome, expected);

    const Snapshot after = snapshot(*stub_);
    QVERIFY(after.ok);
    QCOMPARE(after.waiting, before.waiting);
    QCOMPARE(after.queues, before.queues);
}

void TestConfbBadInput::bodyLimit_oversizedRequestRefusedOthersUnaffected() {
    auto options = qs::test::TestBroker::defaultOptions();
    options.maxMessageBytes = 1024 * 1024;
    qs::test::TestBroker limited(std::move(options));
    QVERIFY2(limited.ok(), limited.error().c_str());

    // Client A: its own connection with a downstream stream open throughout.
    auto stubA = limited.newStub();
    DownstreamSession streamA(limited.newChannel());
    QVERIFY(!send(*stubA, makeMessage("limit", "before", "a-before")).reply.iserror());
    const auto before = streamA.get("a1", "limit", 1, 5000);
    QVERIFY(before);
    QCOMPARE(qstrs(idsOf(before->message.messages())), QStringList{QStringLiteral("a-before")});
    QVERIFY(streamA.sendSettle("a1-ack", kubemq::AckAll, before->message.transactionid()));

    // Client B: just under the limit is fine, 2 MiB is refused before any handler.
    auto stubB = limited.newStub();
    const auto nearLimit =
        send(*stubB, makeMessage("limit", std::string(900 * 1024, 'n'), "b-900k")).reply;
    QVERIFY2(!nearLimit.iserror(), nearLimit.error().c_str());
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    kubemq::SendQueueMessageResult result;
    const grpc::Status status = stubB->SendQueueMessage(
        &context, makeMessage("limit", std::string(2 * 1024 * 1024, 'x'), "b-2m"), &result);
    QCOMPARE(qstr(statusCodeName(status.error_code())), QStringLiteral("RESOURCE_EXHAUSTED"));

    // A oversized upstream request ends that stream with the same status.
    {
        UpstreamSession upstreamB(limited.newChannel());
        kubemq::QueuesUpstreamRequest big;
        big.set_requestid("b-up");
        *big.add_messages() = makeMessage("limit", std::string(2 * 1024 * 1024, 'y'), "b-up-2m");
        upstreamB.send(big);
        QVERIFY(upstreamB.waitEnded(15s));
        QVERIFY(!upstreamB.next(0ms));
        QCOMPARE(qstr(statusCodeName(upstreamB.finish().error_code())),
                 QStringLiteral("RESOURCE_EXHAUSTED"));
    }

    // A is unaffected: same stream, new message; only what was accepted is stored.
    QVERIFY(!send(*stubA, makeMessage("limit", "after", "a-after")).reply.iserror());
    const auto after = streamA.get("a2", "limit", 2, 5000);
    QVERIFY(after);
    QCOMPARE(after->message.iserror(), false);
    QCOMPARE(qstrs(idsOf(after->message.messages())),
             (QStringList{QStringLiteral("b-900k"), QStringLiteral("a-after")}));
    QVERIFY(streamA.sendSettle("a2-ack", kubemq::AckAll, after->message.transactionid()));
    const auto rest = streamA.get("a3", "limit", 1, 1000);
    QVERIFY(rest);
    QCOMPARE(rest->message.messages_size(), 0);
}

QTEST_APPLESS_MAIN(TestConfbBadInput)
#include "tst_confb_bad_input.moc"
