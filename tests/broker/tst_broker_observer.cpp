#include <grpcpp/grpcpp.h>

#include <QTest>
#include <mutex>
#include <set>
#include <thread>

#include "events/broker_observer.h"
#include "test_broker.h"

namespace {
class Recorder final : public qs::BrokerObserver {
public:
    void onBrokerEvent(const qs::Event& event) noexcept override {
        std::lock_guard lock(mutex_);
        events_.push_back(event);
    }
    // Hand-overs of several events at once, each as the kinds it carried.
    void takeBrokerEvents(std::vector<qs::Event>& events) noexcept override {
        std::lock_guard lock(mutex_);
        std::vector<qs::EventKind> kinds;
        std::vector<std::int64_t> times;
        for (qs::Event& event : events) {
            kinds.push_back(event.kind);
            times.push_back(event.timeNs);
            events_.push_back(std::move(event));
        }
        groups_.push_back(std::move(kinds));
        groupTimes_.push_back(std::move(times));
        events.clear();
    }
    std::vector<std::vector<std::int64_t>> groupTimes() const {
        std::lock_guard lock(mutex_);
        return groupTimes_;
    }
    std::vector<qs::Event> events() const {
        std::lock_guard lock(mutex_);
        return events_;
    }
    std::vector<std::vector<qs::EventKind>> groups() const {
        std::lock_guard lock(mutex_);
        return groups_;
    }
    std::vector<qs::Event> of(qs::EventKind kind) const {
        std::vector<qs::Event> matching;
        for (const auto& event : events())
            if (event.kind == kind)
                matching.push_back(event);
        return matching;
    }

private:
    mutable std::mutex mutex_;
    std::vector<qs::Event> events_;
    std::vector<std::vector<qs::EventKind>> groups_;
    std::vector<std::vector<std::int64_t>> groupTimes_;
};

kubemq::QueueMessage message(const std::string& channel, const std::string& id, int delay = 0) {
    kubemq::QueueMessage m;
    m.set_messageid(id);
    m.set_clientid("producer");
    m.set_channel(channel);
    m.set_body("x");
    m.mutable_policy()->set_delayseconds(delay);
    m.mutable_policy()->set_maxreceivecount(1);
    m.mutable_policy()->set_maxreceivequeue("dead");
    return m;
}
kubemq::QueuesDownstreamRequest getRequest(const std::string& clientId, const std::string& channel,
                                           int maxItems) {
    kubemq::QueuesDownstreamRequest get;
    get.set_clientid(clientId);
    get.set_channel(channel);
    get.set_requesttypedata(kubemq::Get);
    get.set_maxitems(maxItems);
    return get;
}
}  // namespace

class TestBrokerObserver : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void reportsTheMessageLifecycle() {
        // Declared first, so it outlives the broker: a failed check returns
        // before setObserver(nullptr), and the broker's threads may still
        // report (the observer must outlive the broker or be removed first).
        Recorder recorder;
        qs::test::TestBroker broker;
        broker.broker().setObserver(&recorder);
        auto stub = broker.newStub();
        for (const char* id : {"m1", "m2", "m3"}) {
            grpc::ClientContext context;
            kubemq::SendQueueMessageResult result;
            QVERIFY(stub->SendQueueMessage(&context, message("obs", id), &result).ok());
        }
        {
            grpc::ClientContext context;
            kubemq::SendQueueMessageResult result;
            QVERIFY(stub->SendQueueMessage(&context, message("obs", "late", 1), &result).ok());
        }
        std::string txn;
        {
            grpc::ClientContext context;
            auto stream = stub->QueuesDownstream(&context);
            QVERIFY(stream->Write(getRequest("worker-1", "obs", 3)));
            kubemq::QueuesDownstreamResponse response;
            QVERIFY(stream->Read(&response));
            QCOMPARE(response.messages_size(), 3);
            txn = response.transactionid();
            auto settle = [&](kubemq::QueuesDownstreamRequestType type, std::int64_t seq) {
                kubemq::QueuesDownstreamRequest request;
                request.set_requesttypedata(type);
                request.set_reftransactionid(txn);
                request.add_sequencerange(seq);
                return stream->Write(request);
            };
            QVERIFY(settle(kubemq::AckRange, 1));
            QVERIFY(settle(kubemq::NAckRange, 2));  // MaxReceiveCount 1: dead-lettered
            QVERIFY(stream->WritesDone());          // seq 3 returned at stream end
            while (stream->Read(&response)) {
            }
            QVERIFY(stream->Finish().ok());
        }
        // "late" is released 1 s after its send; the deadline is for a starved
        // sanitizer run (the wait ends as soon as the release is reported).
        QTRY_VERIFY_WITH_TIMEOUT(!recorder.of(qs::EventKind::BrokerReleased).empty(), 60000);
        broker.broker().setObserver(nullptr);

        for (const auto& event : recorder.events()) {
            QVERIFY(event.source == qs::EventSource::Broker);
            QVERIFY(event.timeNs > 0);
        }
        // m1..m3 stored plus the dead-letter copy in "dead".
        const auto stored = recorder.of(qs::EventKind::BrokerStored);
        QCOMPARE(stored.size(), std::size_t(4));
        QCOMPARE(stored[0].messageId, std::string("m1"));
        QCOMPARE(stored[0].sequence, std::uint64_t(1));
        QCOMPARE(stored[0].channel, std::string("obs"));
        QCOMPARE(recorder.of(qs::EventKind::BrokerDelayed).size(), std::size_t(1));
        const auto delivered = recorder.of(qs::EventKind::BrokerDelivered);
        QCOMPARE(delivered.size(), std::size_t(3));
        QCOMPARE(delivered[0].actor, std::string("worker-1"));
        QCOMPARE(delivered[0].transaction, txn);
        QCOMPARE(delivered[0].receiveCount, 1);
        const auto acked = recorder.of(qs::EventKind::BrokerAcked);
        QCOMPARE(acked.size(), std::size_t(1));
        QCOMPARE(acked[0].messageId, std::string("m1"));
        const auto dead = recorder.of(qs::EventKind::BrokerDeadLettered);
        QCOMPARE(dead.size(), std::size_t(1));
        QCOMPARE(dead[0].messageId, std::string("m2"));
        QCOMPARE(dead[0].detail, std::string("dead"));
        const auto returned = recorder.of(qs::EventKind::BrokerReturned);
        QCOMPARE(returned.size(), std::size_t(1));
        QCOMPARE(returned[0].sequence, std::uint64_t(3));
        const auto released = recorder.of(qs::EventKind::BrokerReleased);
        QCOMPARE(released[0].messageId, std::string("late"));
        QCOMPARE(released[0].sequence, std::uint64_t(4));
        const auto connected = recorder.of(qs::EventKind::BrokerClientConnected);
        const auto disconnected = recorder.of(qs::EventKind::BrokerClientDisconnected);
        QCOMPARE(connected.size(), std::size_t(1));
        QCOMPARE(disconnected.size(), std::size_t(1));
        QCOMPARE(connected[0].actor, std::string("worker-1"));
        QVERIFY(!connected[0].detail.empty());
    }

    // A peek sees messages without handing them out; a purge removes them
    // without anyone receiving them: neither is a delivery nor an ack.
    void peekAndPurgeAreNeitherDeliveriesNorAcks() {
        Recorder recorder;
        qs::test::TestBroker broker;
        broker.broker().setObserver(&recorder);
        auto stub = broker.newStub();
        for (const char* id : {"p1", "p2", "p3"}) {
            grpc::ClientContext context;
            kubemq::SendQueueMessageResult result;
            auto m = message("peeked", id);
            m.mutable_policy()->set_maxreceivecount(0);
            QVERIFY(stub->SendQueueMessage(&context, m, &result).ok());
        }
        {
            grpc::ClientContext context;
            kubemq::ReceiveQueueMessagesRequest peek;
            peek.set_requestid("peek-1");
            peek.set_clientid("console");
            peek.set_channel("peeked");
            peek.set_maxnumberofmessages(3);
            peek.set_waittimeseconds(1);
            peek.set_ispeak(true);
            kubemq::ReceiveQueueMessagesResponse reply;
            QVERIFY(stub->ReceiveQueueMessages(&context, peek, &reply).ok());
            QCOMPARE(reply.messages_size(), 3);
        }
        const auto peeked = recorder.of(qs::EventKind::BrokerPeeked);
        QCOMPARE(peeked.size(), std::size_t(3));
        for (const auto& event : peeked) {
            QCOMPARE(std::string(event.actor.view()), std::string("console"));
            QCOMPARE(std::string(event.transaction.view()), std::string("peek-1"));
            QCOMPARE(event.receiveCount, 1);  // as the peek showed it: stored 0, + 1
        }
        QVERIFY(recorder.of(qs::EventKind::BrokerDelivered).empty());
        QVERIFY(recorder.of(qs::EventKind::BrokerReturned).empty());
        {
            grpc::ClientContext context;
            kubemq::AckAllQueueMessagesRequest purge;
            purge.set_requestid("purge-1");
            purge.set_clientid("console");
            purge.set_channel("peeked");
            purge.set_waittimeseconds(1);
            kubemq::AckAllQueueMessagesResponse reply;
            QVERIFY(stub->AckAllQueueMessages(&context, purge, &reply).ok());
            QCOMPARE(reply.affectedmessages(), std::uint64_t(3));
        }
        broker.broker().setObserver(nullptr);
        const auto purged = recorder.of(qs::EventKind::BrokerPurged);
        QCOMPARE(purged.size(), std::size_t(3));
        std::set<std::string> ids;
        for (const auto& event : purged) {
            QCOMPARE(std::string(event.transaction.view()), std::string("purge-1"));
            ids.insert(std::string(event.messageId.view()));
        }
        QCOMPARE(ids, (std::set<std::string>{"p1", "p2", "p3"}));
        QVERIFY(recorder.of(qs::EventKind::BrokerAcked).empty());
        // One purge's events reach the observer in one hand-over.
        const auto groups = recorder.groups();
        QVERIFY(std::any_of(groups.begin(), groups.end(), [](const auto& kinds) {
            return kinds.size() == 3 && kinds[0] == qs::EventKind::BrokerPurged;
        }));
    }

    void nackReportsTheNewSequence() {
        Recorder recorder;  // outlives the broker (see above)
        qs::test::TestBroker broker;
        broker.broker().setObserver(&recorder);
        auto stub = broker.newStub();
        {
            grpc::ClientContext context;
            kubemq::SendQueueMessageResult result;
            auto m = message("nack", "n1");
            m.mutable_policy()->set_maxreceivecount(0);
            m.mutable_policy()->clear_maxreceivequeue();
            QVERIFY(stub->SendQueueMessage(&context, m, &result).ok());
        }
        grpc::ClientContext context;
        auto stream = stub->QueuesDownstream(&context);
        QVERIFY(stream->Write(getRequest("w", "nack", 1)));
        kubemq::QueuesDownstreamResponse response;
        QVERIFY(stream->Read(&response));
        kubemq::QueuesDownstreamRequest nack;
        nack.set_requesttypedata(kubemq::NAckAll);
        nack.set_reftransactionid(response.transactionid());
        QVERIFY(stream->Write(nack));
        QVERIFY(stream->WritesDone());
        while (stream->Read(&response)) {
        }
        stream->Finish();
        const auto nacked = recorder.of(qs::EventKind::BrokerNacked);
        QCOMPARE(nacked.size(), std::size_t(1));
        QCOMPARE(nacked[0].sequence, std::uint64_t(1));
        QCOMPARE(nacked[0].count2, std::int64_t(2));
        broker.broker().setObserver(nullptr);
    }

    // A batch send, a receive of many and an AckRange each reach the observer
    // as one hand-over holding every message's event in order; nothing is
    // lost or reordered on the way.
    void batchOperationsHandOverTheirEventsAtOnce() {
        Recorder recorder;  // outlives the broker (see above)
        qs::test::TestBroker broker;
        broker.broker().setObserver(&recorder);
        auto stub = broker.newStub();
        {
            grpc::ClientContext context;
            kubemq::QueueMessagesBatchRequest batch;
            batch.set_batchid("b1");
            for (const char* id : {"g1", "g2", "g3", "g4"}) {
                auto m = message("grouped", id);
                m.mutable_policy()->set_maxreceivecount(0);
                m.mutable_policy()->clear_maxreceivequeue();
                *batch.add_messages() = m;
            }
            kubemq::QueueMessagesBatchResponse reply;
            QVERIFY(stub->SendQueueMessagesBatch(&context, batch, &reply).ok());
        }
        using K = qs::EventKind;
        QCOMPARE(recorder.groups().size(), std::size_t(1));
        QCOMPARE(recorder.groups()[0], std::vector<K>(4, K::BrokerStored));

        grpc::ClientContext context;
        auto stream = stub->QueuesDownstream(&context);
        QVERIFY(stream->Write(getRequest("w", "grouped", 4)));
        kubemq::QueuesDownstreamResponse response;
        QVERIFY(stream->Read(&response));
        QCOMPARE(response.messages_size(), 4);
        // The hand-outs reached the observer before the client saw the batch.
        QCOMPARE(recorder.groups().size(), std::size_t(2));
        QCOMPARE(recorder.groups()[1], std::vector<K>(4, K::BrokerDelivered));
        const std::string transactionId = response.transactionid();
        QVERIFY(!transactionId.empty());

        kubemq::QueuesDownstreamRequest ack;
        ack.set_requesttypedata(kubemq::AckRange);
        ack.set_reftransactionid(response.transactionid());
        for (const auto& m : response.messages())
            ack.add_sequencerange(static_cast<std::int64_t>(m.attributes().sequence()));
        QVERIFY(stream->Write(ack));
        QVERIFY(stream->WritesDone());
        while (stream->Read(&response)) {
        }
        stream->Finish();
        broker.broker().setObserver(nullptr);
        const auto groups = recorder.groups();
        QVERIFY(groups.size() >= 3);
        QCOMPARE(groups[2], std::vector<K>(4, K::BrokerAcked));
        const auto acked = recorder.of(K::BrokerAcked);
        QCOMPARE(acked.size(), std::size_t(4));
        for (std::size_t i = 0; i < acked.size(); ++i) {
            QCOMPARE(acked[i].sequence, std::uint64_t(i + 1));
            QCOMPARE(acked[i].messageId, std::string("g") + std::to_string(i + 1));
            QCOMPARE(acked[i].transaction, transactionId);
        }
        // One operation, one time: the events of a hand-over share the
        // operation's timestamp, and operations keep their order.
        const auto times = recorder.groupTimes();
        std::int64_t previous = 0;
        for (std::size_t g = 0; g < 3; ++g) {
            QCOMPARE(times[g].size(), std::size_t(4));
            QVERIFY(times[g][0] > 0);
            for (std::int64_t t : times[g])
                QCOMPARE(t, times[g][0]);
            QVERIFY(times[g][0] >= previous);
            previous = times[g][0];
        }
    }
};

QTEST_APPLESS_MAIN(TestBrokerObserver)
#include "tst_broker_observer.moc"
