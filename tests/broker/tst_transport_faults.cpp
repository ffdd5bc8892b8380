// Transport faults against the real embedded broker on 127.0.0.1 (ephemeral
// ports), each bounded and stopping by itself (ctest label `faults`):
// - a downstream consumer that disconnects (cancels its call, or loses its TCP
//   connection) after each step of a transaction: what it had not acked comes
//   back, what it acked never does;
// - a stream cut in the middle of an HTTP/2 frame (CuttingProxy), either way:
//   the server goes on serving, a half-sent request has no effect, messages in
//   a half-sent answer go back to the queue, nothing is lost;
// - a broker restart (same port, same --data-dir) during a client's long poll:
//   the poll ends with a clear error, the client reconnects by itself, every
//   stored message is still there, and no thread is left hanging.
// No fixed sleeps: conditions are awaited with generous deadlines.
#include <QTemporaryDir>
#include <QTest>
#include <atomic>
#include <future>
#include <map>
#include <set>
#include <string>
#include <thread>

#include "client/queues_client.h"
#include "conformance_rpc.h"
#include "conformance_streams.h"
#include "cutting_proxy.h"
#include "exposition_parser.h"
#include "test_broker.h"
#include "wait_until.h"
#include "workers/worker_pool.h"

using namespace qs::test;
using namespace qs::test::conf;

namespace {

constexpr std::chrono::seconds kJoinDeadline{60};

// How a consumer goes away.
enum class Disconnect { CancelCall, DropConnection };
// The last step of its transaction before it goes.
enum class Step { AfterGet, AfterPartialAck, AfterNAck, AfterAckAllBeforeClose };

std::shared_ptr<grpc::Channel> channelTo(const std::string& address) {
    grpc::ChannelArguments args;
    static std::atomic<int> unique{0};  // own TCP connection per channel (see TestBroker)
    args.SetInt("queuescope.test.faults", ++unique);
    return grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), args);
}

// Runs `work` on a thread of its own; finish() joins it within a deadline or
// ends the whole run: a hanging thread is the failure these cases look for.
class BoundedThread {
public:
    explicit BoundedThread(std::function<void()> work)
        : future_(std::async(std::launch::async, std::move(work))) {}
    ~BoundedThread() { finish(); }
    void finish(std::chrono::seconds deadline = kJoinDeadline) {
        if (!future_.valid())
            return;
        if (future_.wait_for(deadline) != std::future_status::ready)
            qFatal("a client thread did not return within %lld s of its fault",
                   static_cast<long long>(deadline.count()));
        future_.get();
    }

private:
    std::future<void> future_;
};

// MessageID -> receive count of every message a fresh consumer gets from
// `channel` until `expected` are all in (or the deadline), acking each batch;
// then one more Get must come back empty: nothing else is left.
struct Collected {
    std::map<std::string, int> receiveCounts;
    std::size_t handOuts = 0;  // more than receiveCounts.size(): one came twice
    bool drained = false;      // the last Get found nothing more
};
Collected collect(const std::string& address, const std::string& channel,
                  const std::set<std::string>& expected) {
    Collected got;
    DownstreamSession session(channelTo(address));
    auto missing = [&] {
        std::size_t count = 0;
        for (const std::string& id : expected)
            count += got.receiveCounts.count(id) == 0 ? 1 : 0;
        return count;
    };
    int request = 0;
    auto takeOnce = [&] {
        // Asking for exactly what is missing returns at once when it is all
        // there (a Get short of its MaxItems waits out its wait time).
        const std::size_t stillMissing = missing();
        const int maxItems = stillMissing > 0 ? static_cast<int>(stillMissing) : 10;
        auto frame = session.get("c" + std::to_string(++request), channel, maxItems, 1000);
        if (!frame || frame->message.messages().empty())
            return std::size_t{0};
        for (const auto& m : frame->message.messages())
            got.receiveCounts[m.messageid()] = static_cast<int>(m.attributes().receivecount());
        got.handOuts += static_cast<std::size_t>(frame->message.messages().size());
        session.sendSettle("a" + std::to_string(request), kubemq::AckAll,
                           frame->message.transactionid());
        return static_cast<std::size_t>(frame->message.messages().size());
    };
    waitUntil([&] {
        takeOnce();
        return missing() == 0;
    });
    got.drained = takeOnce() == 0;
    return got;
}

std::set<std::string> idsFrom(int first, int last, const std::string& prefix) {
    std::set<std::string> ids;
    for (int i = first; i <= last; ++i)
        ids.insert(prefix + "-" + std::to_string(i));
    return ids;
}

// The broker's own figure `name` for `channel` (docs/broker.md, Metrics); -1
// when the exposition does not parse.
double channelMetric(qs::broker::Broker& broker, const std::string& name,
                     const std::string& channel) {
    std::string error;
    const auto parsed = parseExposition(broker.metricsText(), &error);
    if (!parsed)
        return -1;
    return parsed->value("queuescope_broker_" + name, {{"channel", channel}}).value_or(0);
}

double channelConsumers(qs::broker::Broker& broker, const std::string& channel) {
    return channelMetric(broker, "channel_consumers", channel);
}

}  // namespace

Q_DECLARE_METATYPE(Disconnect)
Q_DECLARE_METATYPE(Step)

class TstTransportFaults : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void disconnectAfterEachStep_data() {
        QTest::addColumn<Step>("step");
        QTest::addColumn<Disconnect>("how");
        const std::pair<const char*, Step> steps[] = {
            {"after Get", Step::AfterGet},
            {"after a partial AckRange", Step::AfterPartialAck},
            {"after a NAckRange", Step::AfterNAck},
            {"after AckAll, before Close", Step::AfterAckAllBeforeClose}};
        for (const auto& [name, step] : steps) {
            QTest::addRow("%s, call cancelled", name) << step << Disconnect::CancelCall;
            QTest::addRow("%s, connection dropped", name) << step << Disconnect::DropConnection;
        }
    }

    // Six messages, one Get of all six, then the step, then the consumer goes.
    // Acked: 1-2 (partial ack), all (AckAll). NAcked: 3, back as a new copy
    // with receive count 2. The rest come back unchanged (receive count 1).
    void disconnectAfterEachStep() {
        QFETCH(Step, step);
        QFETCH(Disconnect, how);
        TestBroker broker;
        QVERIFY2(broker.ok(), broker.error().c_str());
        CuttingProxy proxy(broker.address());
        QVERIFY2(proxy.ok(), proxy.error().c_str());
        const std::string channel = uniqueChannel("disconnect");
        auto stub = broker.newStub();
        QCOMPARE(sendMany(*stub, channel, 6, "m"), std::string());

        std::set<std::string> expectedBack = idsFrom(1, 6, "m");
        {
            DownstreamSession consumer(channelTo(proxy.address()));
            const auto batch = consumer.get("g1", channel, 6, 5000);
            QVERIFY(batch);
            QCOMPARE(batch->message.messages().size(), 6);
            const std::string txn = batch->message.transactionid();
            const auto seqs = sequencesOf(batch->message.messages());
            const auto seq = [&](int i) { return static_cast<std::int64_t>(seqs[i]); };
            std::size_t stillHeld = 6;
            if (step == Step::AfterPartialAck || step == Step::AfterNAck) {
                QVERIFY(consumer.sendSettle("s1", kubemq::AckRange, txn, {seq(0), seq(1)}));
                stillHeld = 4;
                expectedBack = idsFrom(3, 6, "m");
            }
            if (step == Step::AfterNAck) {
                QVERIFY(consumer.sendSettle("s2", kubemq::NAckRange, txn, {seq(2)}));
                stillHeld = 3;
            }
            if (step == Step::AfterAckAllBeforeClose) {
                QVERIFY(consumer.sendSettle("s3", kubemq::AckAll, txn));
                stillHeld = 0;
                expectedBack.clear();
            }
            // The stream runs its requests in order: once ActiveOffsets is
            // answered, the settlements before it are applied.
            if (stillHeld > 0) {
                const auto offsets = consumer.activeOffsets("o1", txn);
                QVERIFY(offsets);
                QCOMPARE(static_cast<std::size_t>(offsets->message.activeoffsets().size()),
                         stillHeld);
            } else {
                // Nothing answers an AckAll: wait for the broker's count.
                QVERIFY(waitUntil([&] {
                    return channelMetric(broker.broker(), "channel_messages_acked_total",
                                         channel) == 6;
                }));
            }
            if (how == Disconnect::CancelCall)
                consumer.cancel();
            else
                proxy.dropAll();
            QVERIFY(consumer.waitEnded(kJoinDeadline));
        }
        const Collected back = collect(broker.address(), channel, expectedBack);
        QVERIFY(back.drained);
        QCOMPARE(back.handOuts, back.receiveCounts.size());
        std::set<std::string> ids;
        for (const auto& [id, count] : back.receiveCounts) {
            ids.insert(id);
            QCOMPARE(count, step == Step::AfterNAck && id == "m-3" ? 2 : 1);
        }
        QVERIFY(ids == expectedBack);
        QVERIFY2(stub && ping(*stub).ok(), "the broker stopped answering");
    }

    void disconnectWhileWaitingInGet_data() {
        QTest::addColumn<Disconnect>("how");
        QTest::newRow("call cancelled") << Disconnect::CancelCall;
        QTest::newRow("connection dropped") << Disconnect::DropConnection;
    }

    // A consumer gone in the middle of its long poll leaves no waiter behind
    // that could swallow the next messages: they all reach the next consumer.
    void disconnectWhileWaitingInGet() {
        QFETCH(Disconnect, how);
        TestBroker broker;
        QVERIFY2(broker.ok(), broker.error().c_str());
        CuttingProxy proxy(broker.address());
        QVERIFY2(proxy.ok(), proxy.error().c_str());
        const std::string channel = uniqueChannel("waiting");
        {
            DownstreamSession waiter(channelTo(proxy.address()));
            QVERIFY(waiter.sendGet("g1", channel, 5, 60000));
            QVERIFY(waitUntil([&] { return channelConsumers(broker.broker(), channel) == 1; }));
            if (how == Disconnect::CancelCall)
                waiter.cancel();
            else
                proxy.dropAll();
            QVERIFY(waiter.waitEnded(kJoinDeadline));
            QVERIFY(waitUntil([&] { return channelConsumers(broker.broker(), channel) == 0; }));
        }
        auto stub = broker.newStub();
        QCOMPARE(sendMany(*stub, channel, 5, "w"), std::string());
        const Collected back = collect(broker.address(), channel, idsFrom(1, 5, "w"));
        QVERIFY(back.drained);
        QCOMPARE(back.handOuts, back.receiveCounts.size());
        QCOMPARE(back.receiveCounts.size(), std::size_t{5});
        for (const auto& [id, count] : back.receiveCounts)
            QCOMPARE(count, 1);
    }

    // A send whose HTTP/2 DATA frame stops half way: the server drops that
    // connection and nothing of the cut request; it keeps serving everyone
    // else, and what it answered before the cut is all there.
    void streamCutMidFrameInSend() {
        TestBroker broker;
        QVERIFY2(broker.ok(), broker.error().c_str());
        CuttingProxy proxy(broker.address());
        QVERIFY2(proxy.ok(), proxy.error().c_str());
        const std::string channel = uniqueChannel("cut-send");
        const std::string bigBody(64 * 1024, 'x');
        {
            UpstreamSession sender(channelTo(proxy.address()));
            kubemq::QueuesUpstreamRequest first;
            first.set_requestid("u1");
            *first.add_messages() = makeMessage(channel, "before the cut", "before");
            QVERIFY(sender.send(first));
            const auto answer = sender.next(std::chrono::milliseconds(kJoinDeadline));
            QVERIFY(answer);
            QVERIFY2(!answer->message.iserror(), answer->message.error().c_str());
            proxy.armCut();
            kubemq::QueuesUpstreamRequest cut;
            cut.set_requestid("u2");
            *cut.add_messages() = makeMessage(channel, bigBody, "cut");
            sender.send(cut);  // may report success: the bytes went to the proxy
            QVERIFY(sender.waitEnded(kJoinDeadline));
            QVERIFY(!sender.finish().ok());  // the client learns its stream broke
        }
        QCOMPARE(proxy.cuts(), 1);
        QVERIFY(proxy.cutForwardedBytes() < proxy.cutFrameBytes());  // a half-written frame
        // The server is unharmed: a new client sends and receives as before.
        auto stub = broker.newStub();
        QVERIFY(ping(*stub).ok());
        const auto resent = send(*stub, makeMessage(channel, bigBody, "cut"));
        QVERIFY(resent.ok());
        QVERIFY2(!resent.reply.iserror(), resent.reply.error().c_str());
        DownstreamSession consumer(channelTo(broker.address()));
        const auto got = consumer.get("g1", channel, 10, 1000);
        QVERIFY(got);
        QVERIFY(idsOf(got->message.messages()) == (std::vector<std::string>{"before", "cut"}));
        QCOMPARE(got->message.messages(1).body(), bigBody);
        QVERIFY(consumer.sendSettle("a1", kubemq::AckAll, got->message.transactionid()));
        QVERIFY(collect(broker.address(), channel, {}).drained);
    }

    // An AckRange whose frame is cut half way never takes effect: the stream
    // is gone, so every message it held comes back, unchanged.
    void streamCutMidFrameInAck() {
        TestBroker broker;
        QVERIFY2(broker.ok(), broker.error().c_str());
        CuttingProxy proxy(broker.address());
        QVERIFY2(proxy.ok(), proxy.error().c_str());
        const std::string channel = uniqueChannel("cut-ack");
        auto stub = broker.newStub();
        QCOMPARE(sendMany(*stub, channel, 5, "k"), std::string());
        {
            DownstreamSession consumer(channelTo(proxy.address()));
            const auto batch = consumer.get("g1", channel, 5, 5000);
            QVERIFY(batch);
            QCOMPARE(batch->message.messages().size(), 5);
            std::vector<std::int64_t> all;
            for (const auto s : sequencesOf(batch->message.messages()))
                all.push_back(static_cast<std::int64_t>(s));
            proxy.armCut();
            consumer.sendSettle("s1", kubemq::AckRange, batch->message.transactionid(), all);
            QVERIFY(consumer.waitEnded(kJoinDeadline));
        }
        QCOMPARE(proxy.cuts(), 1);
        QVERIFY(proxy.cutForwardedBytes() < proxy.cutFrameBytes());
        const Collected back = collect(broker.address(), channel, idsFrom(1, 5, "k"));
        QVERIFY(back.drained);
        QCOMPARE(back.handOuts, back.receiveCounts.size());
        QCOMPARE(back.receiveCounts.size(), std::size_t{5});
        for (const auto& [id, count] : back.receiveCounts)
            QCOMPARE(count, 1);
        QVERIFY(ping(*stub).ok());
    }

    // The answer to a Get cut half way to the client: the client never sees
    // those messages, and the broker, whose stream is gone, takes them back.
    void streamCutMidFrameInGetAnswer() {
        TestBroker broker;
        QVERIFY2(broker.ok(), broker.error().c_str());
        CuttingProxy proxy(broker.address());
        QVERIFY2(proxy.ok(), proxy.error().c_str());
        const std::string channel = uniqueChannel("cut-answer");
        auto stub = broker.newStub();
        for (int i = 1; i <= 5; ++i) {
            const auto sent =
                send(*stub, makeMessage(channel, std::string(8 * 1024, static_cast<char>('a' + i)),
                                        "r-" + std::to_string(i)));
            QVERIFY(sent.ok() && !sent.reply.iserror());
        }
        {
            DownstreamSession consumer(channelTo(proxy.address()));
            proxy.armCutToClient();
            QVERIFY(consumer.sendGet("g1", channel, 5, 5000));
            QVERIFY(consumer.waitEnded(kJoinDeadline));
            QVERIFY(!consumer.next(std::chrono::milliseconds(0)));  // no answer got through
        }
        QCOMPARE(proxy.cuts(), 1);
        QVERIFY(proxy.cutForwardedBytes() < proxy.cutFrameBytes());
        QVERIFY(waitUntil([&] {
            return channelMetric(broker.broker(), "channel_messages_delivered_total", channel) == 5;
        }));
        const Collected back = collect(broker.address(), channel, idsFrom(1, 5, "r"));
        QVERIFY(back.drained);
        QCOMPARE(back.handOuts, back.receiveCounts.size());
        QCOMPARE(back.receiveCounts.size(), std::size_t{5});
        for (const auto& [id, count] : back.receiveCounts)
            QCOMPARE(count, 1);
        QVERIFY(ping(*stub).ok());
    }

    // The broker restarts (same port, same data directory) while a client waits
    // in a long poll and a worker pool polls: the client's poll ends with a
    // clear error, its next receive reconnects and finds every stored message;
    // the workers carry on by themselves; every thread returns.
    void brokerRestartDuringLongPoll() {
        QTemporaryDir dataDir;
        QVERIFY(dataDir.isValid());
        qs::broker::BrokerOptions options = TestBroker::defaultOptions();
        options.dataDirectory = dataDir.path().toStdString();
        auto broker = std::make_unique<TestBroker>(options);
        QVERIFY2(broker->ok(), broker->error().c_str());
        options.port = broker->broker().port();
        const std::string address = broker->address();
        const std::string kept = uniqueChannel("kept");
        const std::string idle = uniqueChannel("idle");
        const std::string work = uniqueChannel("work");
        {
            auto stub = broker->newStub();
            QCOMPARE(sendMany(*stub, kept, 4, "p"), std::string());
        }
        qs::client::ClientOptions clientOptions;
        clientOptions.address = address;
        clientOptions.clientId = "long-poller";
        auto created = qs::client::QueuesClient::create(clientOptions);
        QVERIFY(created.ok());
        auto client = std::move(created).value();

        qs::workers::PoolOptions poolOptions;
        poolOptions.client = clientOptions;
        poolOptions.channel = work;
        // Batches of one: a Get returns as soon as it has its batch, so the 20
        // tasks never end split over two waiting Gets, neither full, each
        // waiting out its 30 s (the protocol's end-of-run wait).
        qs::workers::WorkerConfig config;
        config.batchSize = 1;
        config.waitMs = 30000;
        config.work = qs::workers::WorkProfile::none();
        qs::workers::WorkerPool pool(poolOptions, config);
        QCOMPARE(pool.addWorkers(2).size(), std::size_t{2});

        std::optional<qs::client::Error> pollError;
        BoundedThread poller([&] {
            auto got = client->receive(idle, 10, std::chrono::seconds(30));
            if (!got.ok())
                pollError = got.error();
        });
        QVERIFY(waitUntil([&] {
            return channelConsumers(broker->broker(), idle) == 1 &&
                   channelConsumers(broker->broker(), work) == 2;
        }));
        broker.reset();  // stops serving, closes the store
        poller.finish();
        QVERIFY2(pollError, "the long poll returned as if nothing happened");
        QVERIFY2(!pollError->describe().empty(), "an error with no text");
        QVERIFY2(pollError->category == qs::client::ErrorCategory::StreamLost ||
                     pollError->category == qs::client::ErrorCategory::Unavailable,
                 pollError->describe().c_str());

        // The same port can be bound again as soon as the old listener is gone.
        QVERIFY(waitUntil([&] {
            broker = std::make_unique<TestBroker>(options);
            return broker->ok();
        }));
        QCOMPARE(broker->address(), address);
        std::set<std::string> keptBack;
        QVERIFY(waitUntil([&] {
            auto got = client->receive(kept, 10, std::chrono::milliseconds(1000));
            if (got.ok()) {
                for (const auto& m : got->messages())
                    keptBack.insert(m.message().id);
                if (!got->empty() && !got->ackAll().ok())
                    return false;
            }
            return keptBack.size() == 4;
        }));
        QVERIFY(keptBack == idsFrom(1, 4, "p"));

        auto stub = broker->newStub();
        QCOMPARE(sendMany(*stub, work, 20, "t"), std::string());
        // The broker's count, not the workers': a stop may cancel an ack still
        // on the wire, and that task would come back.
        QVERIFY(waitUntil([&] {
            return channelMetric(broker->broker(), "channel_messages_acked_total", work) == 20;
        }));
        // A worker counts its ack once the answer is back, after the broker
        // counted it: wait for the workers' count too.
        QVERIFY(waitUntil([&] { return pool.totals().acked >= 20; }));
        QCOMPARE(pool.totals().acked, std::uint64_t{20});
        BoundedThread stopper([&] { pool.stop(); });
        stopper.finish();
        QVERIFY(collect(address, work, {}).drained);
        QVERIFY(collect(address, kept, {}).drained);
        BoundedThread closer([&] { client.reset(); });
        closer.finish();
    }
};

QTEST_APPLESS_MAIN(TstTransportFaults)
#include "tst_transport_faults.moc"
