// The broker's metrics, end to end: real gRPC calls against an in-process
// broker, a real HTTP scrape of its metrics endpoint, the answer read by a
// strict parser of the text format, and every figure compared with what the
// calls did.
#include <grpcpp/grpcpp.h>

#include <QTest>

#include <atomic>
#include <map>
#include <thread>
#include <vector>

#include "exposition_parser.h"
#include "http_get.h"
#include "metrics/exposition.h"
#include "metrics/metrics_http_server.h"
#include "test_broker.h"
#include "wait_until.h"

using qs::test::ParsedExposition;
using Downstream =
    grpc::ClientReaderWriter<kubemq::QueuesDownstreamRequest, kubemq::QueuesDownstreamResponse>;

namespace {

const std::string kPrefix = "queuescope_broker_";

// The broker and its scrape endpoint, as queuescope-broker --metrics-port 0 runs them.
struct ScrapedBroker {
    qs::test::TestBroker broker;
    std::unique_ptr<qs::metrics::MetricsHttpServer> endpoint = qs::metrics::MetricsHttpServer::start(
        0, [this] { return broker.broker().metricsText(); }, nullptr);

    ~ScrapedBroker() { endpoint.reset(); }  // no scrape while the broker goes
};

// GET /metrics, checked as HTTP and as text format; fails the test otherwise.
ParsedExposition scrape(const ScrapedBroker& target) {
    const auto response = qs::test::httpRequest(target.endpoint->port(), "GET", "/metrics");
    if (response.status != 200)
        qFatal("scrape failed: %d %s", response.status, response.error.c_str());
    if (response.headers.at("content-type") != qs::metrics::kExpositionContentType)
        qFatal("wrong content type %s", response.headers.at("content-type").c_str());
    std::string error;
    auto parsed = qs::test::parseExposition(response.body, &error);
    if (!parsed)
        qFatal("the exposition does not parse: %s\n%s", error.c_str(), response.body.c_str());
    return *parsed;
}

double channelValue(const ParsedExposition& metrics, const std::string& name,
                    const std::string& channel) {
    return metrics.value(kPrefix + name, {{"channel", channel}}).value_or(-1);
}

double requests(const ParsedExposition& metrics, const std::string& method) {
    return metrics.value(kPrefix + "rpc_requests_total", {{"method", method}}).value_or(-1);
}

kubemq::QueueMessage message(const std::string& channel, const std::string& body) {
    kubemq::QueueMessage m;
    m.set_clientid("producer");
    m.set_channel(channel);
    m.set_body(body);
    return m;
}

bool send(kubemq::kubemq::Stub& stub, const kubemq::QueueMessage& m) {
    grpc::ClientContext context;
    kubemq::SendQueueMessageResult result;
    return stub.SendQueueMessage(&context, m, &result).ok() && !result.iserror();
}

kubemq::ReceiveQueueMessagesResponse pull(kubemq::kubemq::Stub& stub, const std::string& channel,
                                          int max, bool peek = false, int waitSeconds = 1) {
    kubemq::ReceiveQueueMessagesRequest request;
    request.set_clientid("puller");
    request.set_channel(channel);
    request.set_maxnumberofmessages(max);
    request.set_waittimeseconds(waitSeconds);
    request.set_ispeak(peek);
    grpc::ClientContext context;
    kubemq::ReceiveQueueMessagesResponse response;
    if (!stub.ReceiveQueueMessages(&context, request, &response).ok())
        response.set_iserror(true);
    return response;
}

kubemq::QueuesDownstreamRequest get(const std::string& channel, int maxItems) {
    kubemq::QueuesDownstreamRequest request;
    request.set_requestid("get");
    request.set_clientid("consumer");
    request.set_channel(channel);
    request.set_requesttypedata(kubemq::Get);
    request.set_maxitems(maxItems);
    request.set_waittimeout(5000);
    return request;
}

kubemq::QueuesDownstreamRequest settle(kubemq::QueuesDownstreamRequestType type,
                                       const std::string& transaction,
                                       std::vector<std::int64_t> sequences) {
    kubemq::QueuesDownstreamRequest request;
    request.set_requestid("settle");
    request.set_clientid("consumer");
    request.set_requesttypedata(type);
    request.set_reftransactionid(transaction);
    for (auto sequence : sequences)
        request.add_sequencerange(sequence);
    return request;
}

std::int64_t sequenceOf(const kubemq::QueuesDownstreamResponse& response, int i) {
    return static_cast<std::int64_t>(response.messages(i).attributes().sequence());
}

// Every counter series of `before` is in `after`, with a value at least as high.
bool countersGrew(const ParsedExposition& before, const ParsedExposition& after,
                  std::string* problem) {
    for (const auto& [name, family] : before.families) {
        if (family.type != "counter")
            continue;
        for (const auto& series : family.series) {
            const auto now = after.value(name, series.labels);
            if (!now || *now < series.value) {
                *problem = name + " went from " + std::to_string(series.value) + " to " +
                           (now ? std::to_string(*now) : std::string("nothing"));
                return false;
            }
        }
    }
    return true;
}

}  // namespace

class TestBrokerMetrics : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyFamilyIsDescribedBeforeAnyTraffic() {
        ScrapedBroker target;
        QVERIFY2(target.broker.ok(), target.broker.error().c_str());
        QVERIFY(target.endpoint);
        const auto metrics = scrape(target);
        for (const char* counter :
             {"channel_messages_sent_total", "channel_messages_delivered_total",
              "channel_messages_acked_total", "channel_messages_rejected_total",
              "channel_messages_expired_total", "channel_messages_dead_lettered_total",
              "channel_messages_purged_total", "rpc_requests_total", "rpc_errors_total"}) {
            QVERIFY2(metrics.families.contains(kPrefix + counter), counter);
            QCOMPARE(metrics.families.at(kPrefix + counter).type, std::string("counter"));
        }
        for (const char* gauge : {"channel_messages_waiting", "channel_messages_in_flight",
                                  "channel_messages_delayed", "channel_consumers"}) {
            QVERIFY2(metrics.families.contains(kPrefix + gauge), gauge);
            QCOMPARE(metrics.families.at(kPrefix + gauge).type, std::string("gauge"));
        }
        for (const auto& [name, family] : metrics.families)
            QVERIFY2(!family.help.empty(), name.c_str());
        // Every method of the service is listed from the start, at zero.
        for (const char* method : {"Ping", "SendQueueMessage", "SendQueueMessagesBatch",
                                   "ReceiveQueueMessages", "AckAllQueueMessages",
                                   "QueuesDownstream", "QueuesUpstream", "StreamQueueMessage",
                                   "QueuesInfo", "SendEvent"})
            QCOMPARE(requests(metrics, method), 0.0);
        QVERIFY(metrics.families.at(kPrefix + "rpc_errors_total").series.empty());
    }

    void figuresEqualWhatClientsDid() {
        ScrapedBroker target;
        QVERIFY2(target.broker.ok(), target.broker.error().c_str());
        QVERIFY(target.endpoint);
        auto stub = target.broker.newStub();
        const std::string work = "metrics.work";

        // 6 single sends and a batch of 2.
        for (int i = 0; i < 6; ++i)
            QVERIFY(send(*stub, message(work, "m" + std::to_string(i))));
        {
            kubemq::QueueMessagesBatchRequest batch;
            *batch.add_messages() = message(work, "b1");
            *batch.add_messages() = message(work, "b2");
            grpc::ClientContext context;
            kubemq::QueueMessagesBatchResponse response;
            QVERIFY(stub->SendQueueMessagesBatch(&context, batch, &response).ok());
            QVERIFY(!response.haveerrors());
        }
        // A pull of 2 (acked on receipt), then a peek of 1 (no delivery).
        QCOMPARE(pull(*stub, work, 2).messagesreceived(), 2);
        QCOMPARE(pull(*stub, work, 1, true).messagesreceived(), 1);

        // A downstream Get of 4: ack 2, reject 1, keep 1 in flight.
        grpc::ClientContext streamContext;
        auto stream = stub->QueuesDownstream(&streamContext);
        QVERIFY(stream->Write(get(work, 4)));
        kubemq::QueuesDownstreamResponse got;
        QVERIFY(stream->Read(&got));
        QCOMPARE(got.messages_size(), 4);
        QVERIFY(stream->Write(
            settle(kubemq::AckRange, got.transactionid(), {sequenceOf(got, 0), sequenceOf(got, 1)})));
        QVERIFY(stream->Write(settle(kubemq::NAckRange, got.transactionid(), {sequenceOf(got, 2)})));
        QVERIFY(qs::test::waitUntil([&] {
            return channelValue(scrape(target), "channel_messages_rejected_total", work) == 1;
        }));
        auto metrics = scrape(target);
        QCOMPARE(channelValue(metrics, "channel_messages_sent_total", work), 8.0);
        QCOMPARE(channelValue(metrics, "channel_messages_delivered_total", work), 6.0);
        QCOMPARE(channelValue(metrics, "channel_messages_acked_total", work), 4.0);
        QCOMPARE(channelValue(metrics, "channel_messages_rejected_total", work), 1.0);
        QCOMPARE(channelValue(metrics, "channel_messages_in_flight", work), 1.0);
        QCOMPARE(channelValue(metrics, "channel_messages_waiting", work), 3.0);  // 8 - 6 + 1
        // The stream ends: its unsettled message is waiting again.
        QVERIFY(stream->WritesDone());
        while (stream->Read(&got)) {
        }
        QVERIFY(stream->Finish().ok());
        metrics = scrape(target);
        QCOMPARE(channelValue(metrics, "channel_messages_in_flight", work), 0.0);
        QCOMPARE(channelValue(metrics, "channel_messages_waiting", work), 4.0);

        // A poison message: one delivery, its reject dead-letters it.
        const std::string poison = "metrics.poison";
        const std::string dead = "metrics.dead";
        auto poisonMessage = message(poison, "p");
        poisonMessage.mutable_policy()->set_maxreceivecount(1);
        poisonMessage.mutable_policy()->set_maxreceivequeue(dead);
        QVERIFY(send(*stub, poisonMessage));
        {
            grpc::ClientContext context;
            auto poisonStream = stub->QueuesDownstream(&context);
            QVERIFY(poisonStream->Write(get(poison, 1)));
            QVERIFY(poisonStream->Read(&got));
            QCOMPARE(got.messages_size(), 1);
            QVERIFY(poisonStream->Write(
                settle(kubemq::NAckRange, got.transactionid(), {sequenceOf(got, 0)})));
            QVERIFY(poisonStream->WritesDone());
            while (poisonStream->Read(&got)) {
            }
            QVERIFY(poisonStream->Finish().ok());
        }

        // A delayed message, and one that expires before anyone takes it.
        auto later = message("metrics.later", "l");
        later.mutable_policy()->set_delayseconds(3600);
        QVERIFY(send(*stub, later));
        auto stale = message("metrics.stale", "s");
        stale.mutable_policy()->set_expirationseconds(1);
        QVERIFY(send(*stub, stale));
        int stalePulls = 0;
        QVERIFY(qs::test::waitUntil([&] {  // expiry is noticed by a consumer (lazy): peek
            ++stalePulls;
            return pull(*stub, "metrics.stale", 1, true).messagesexpired() == 1;
        }));

        // A purge of what waits in the work channel, and an RPC that fails.
        {
            kubemq::AckAllQueueMessagesRequest request;
            request.set_clientid("admin");
            request.set_channel(work);
            request.set_waittimeseconds(1);
            grpc::ClientContext context;
            kubemq::AckAllQueueMessagesResponse response;
            QVERIFY(stub->AckAllQueueMessages(&context, request, &response).ok());
            QCOMPARE(response.affectedmessages(), 4u);
        }
        {
            kubemq::Event event;
            event.set_channel("events");
            grpc::ClientContext context;
            kubemq::Result result;
            QCOMPARE(stub->SendEvent(&context, event, &result).error_code(),
                     grpc::StatusCode::UNIMPLEMENTED);
        }

        metrics = scrape(target);
        QCOMPARE(channelValue(metrics, "channel_messages_delivered_total", work), 6.0);
        QCOMPARE(channelValue(metrics, "channel_messages_purged_total", work), 4.0);
        QCOMPARE(channelValue(metrics, "channel_messages_waiting", work), 0.0);
        QCOMPARE(channelValue(metrics, "channel_messages_dead_lettered_total", work), 0.0);

        QCOMPARE(channelValue(metrics, "channel_messages_sent_total", poison), 1.0);
        QCOMPARE(channelValue(metrics, "channel_messages_delivered_total", poison), 1.0);
        QCOMPARE(channelValue(metrics, "channel_messages_rejected_total", poison), 1.0);
        QCOMPARE(channelValue(metrics, "channel_messages_dead_lettered_total", poison), 1.0);
        QCOMPARE(channelValue(metrics, "channel_messages_waiting", poison), 0.0);
        QCOMPARE(channelValue(metrics, "channel_messages_waiting", dead), 1.0);
        QCOMPARE(channelValue(metrics, "channel_messages_sent_total", dead), 0.0);  // moved, not sent

        QCOMPARE(channelValue(metrics, "channel_messages_sent_total", "metrics.later"), 1.0);
        QCOMPARE(channelValue(metrics, "channel_messages_delayed", "metrics.later"), 1.0);
        QCOMPARE(channelValue(metrics, "channel_messages_waiting", "metrics.later"), 0.0);

        QCOMPARE(channelValue(metrics, "channel_messages_expired_total", "metrics.stale"), 1.0);
        QCOMPARE(channelValue(metrics, "channel_messages_delivered_total", "metrics.stale"), 0.0);

        QCOMPARE(requests(metrics, "SendQueueMessage"), 9.0);
        QCOMPARE(requests(metrics, "SendQueueMessagesBatch"), 1.0);
        QCOMPARE(requests(metrics, "ReceiveQueueMessages"), 2.0 + stalePulls);
        QCOMPARE(requests(metrics, "QueuesDownstream"), 2.0);
        QCOMPARE(requests(metrics, "AckAllQueueMessages"), 1.0);
        QCOMPARE(requests(metrics, "SendEvent"), 1.0);
        QCOMPARE(requests(metrics, "Ping"), 0.0);
        const auto& errors = metrics.families.at(kPrefix + "rpc_errors_total").series;
        QCOMPARE(errors.size(), std::size_t(1));
        QCOMPARE(errors[0].labels,
                 (std::map<std::string, std::string>{{"method", "SendEvent"},
                                                     {"code", "UNIMPLEMENTED"}}));
        QCOMPARE(errors[0].value, 1.0);
    }

    void consumersWaitingAreAGauge() {
        ScrapedBroker target;
        QVERIFY2(target.broker.ok(), target.broker.error().c_str());
        auto stub = target.broker.newStub();
        const std::string idle = "metrics.idle";
        std::atomic<int> received{-1};
        std::thread poller([&] { received = pull(*stub, idle, 1, false, 60).messagesreceived(); });
        QVERIFY(qs::test::waitUntil(
            [&] { return channelValue(scrape(target), "channel_consumers", idle) == 1; }));
        QVERIFY(send(*stub, message(idle, "wake")));
        poller.join();
        QCOMPARE(received.load(), 1);
        const auto metrics = scrape(target);
        QCOMPARE(channelValue(metrics, "channel_consumers", idle), 0.0);
        QCOMPARE(channelValue(metrics, "channel_messages_acked_total", idle), 1.0);
    }

    void awkwardChannelNamesAreEscaped() {
        ScrapedBroker target;
        QVERIFY2(target.broker.ok(), target.broker.error().c_str());
        auto stub = target.broker.newStub();
        const std::string awkward = "say\"hi\"\\now-é";
        QVERIFY(send(*stub, message(awkward, "x")));
        const auto metrics = scrape(target);  // the strict parser reads it back
        QCOMPARE(channelValue(metrics, "channel_messages_sent_total", awkward), 1.0);
        QCOMPARE(channelValue(metrics, "channel_messages_waiting", awkward), 1.0);
    }

    // Producers, consumers and scrapes at once: every scrape parses, no
    // counter ever goes down, and at the end the counts add up.
    void countersOnlyGrowUnderLoad() {
        ScrapedBroker target;
        QVERIFY2(target.broker.ok(), target.broker.error().c_str());
        const std::string channel = "metrics.load";
        constexpr int kProducers = 2;
        constexpr int kPerProducer = 150;
        std::atomic<bool> producing{true};
        std::atomic<int> producersLeft{kProducers};
        std::atomic<int> acked{0};
        std::atomic<int> failures{0};
        std::vector<std::thread> threads;
        for (int p = 0; p < kProducers; ++p) {
            threads.emplace_back([&, p] {
                auto stub = target.broker.newStub();
                for (int i = 0; i < kPerProducer; ++i) {
                    if (!send(*stub, message(channel, std::to_string(p) + "-" + std::to_string(i))))
                        ++failures;
                }
                --producersLeft;
            });
        }
        threads.emplace_back([&] {  // a consumer that acks every other batch and rejects the rest
            auto stub = target.broker.newStub();
            grpc::ClientContext context;
            auto stream = stub->QueuesDownstream(&context);
            for (bool ack = true; producing; ack = !ack) {
                kubemq::QueuesDownstreamResponse got;
                if (!stream->Write(get(channel, 10)) || !stream->Read(&got)) {
                    ++failures;
                    break;
                }
                if (got.messages_size() == 0)
                    continue;
                const auto type = ack ? kubemq::AckAll : kubemq::NAckAll;
                if (!stream->Write(settle(type, got.transactionid(), {})))
                    ++failures;
                if (ack)
                    acked += got.messages_size();
            }
            stream->WritesDone();
            kubemq::QueuesDownstreamResponse rest;
            while (stream->Read(&rest)) {
            }
            stream->Finish();
        });
        auto previous = scrape(target);
        int scrapes = 1;
        std::string problem;
        while (producersLeft > 0 || scrapes < 5) {
            auto next = scrape(target);
            ++scrapes;
            QVERIFY2(countersGrew(previous, next, &problem), problem.c_str());
            previous = std::move(next);
        }
        producing = false;
        for (auto& thread : threads)
            thread.join();
        QCOMPARE(failures.load(), 0);
        const auto last = scrape(target);
        QVERIFY2(countersGrew(previous, last, &problem), problem.c_str());
        QCOMPARE(channelValue(last, "channel_messages_sent_total", channel),
                 double(kProducers * kPerProducer));
        QCOMPARE(channelValue(last, "channel_messages_acked_total", channel), double(acked.load()));
        // Every hand-out ended in an ack or a reject; the rejected ones and
        // the never-taken ones wait.
        const double delivered = channelValue(last, "channel_messages_delivered_total", channel);
        const double rejected = channelValue(last, "channel_messages_rejected_total", channel);
        QCOMPARE(delivered, acked.load() + rejected);
        QCOMPARE(channelValue(last, "channel_messages_waiting", channel),
                 kProducers * kPerProducer - acked.load());
        qInfo("%d scrapes during the load", scrapes);
    }
};

QTEST_GUILESS_MAIN(TestBrokerMetrics)
#include "tst_broker_metrics.moc"
