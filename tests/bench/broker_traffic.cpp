#include "broker_traffic.h"

#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

#include "bench_stats.h"

namespace qs::bench {

namespace {

constexpr const char* kClientId = "bench_broker";

kubemq::QueueMessage makeMessage(const std::string& channel, const std::string& body) {
    kubemq::QueueMessage m;
    m.set_clientid(kClientId);
    m.set_channel(channel);
    m.set_body(body);
    return m;
}

struct ProduceResult {
    bool ok = false;
    std::string error;
    Clock::time_point firstSend;
    Clock::time_point lastAnswer;
};

ProduceResult produceTimed(kubemq::kubemq::Stub& stub, const std::string& channel,
                           const std::string& body, long total, int batch, int window) {
    ProduceResult result;
    grpc::ClientContext context;
    auto stream = stub.QueuesUpstream(&context);

    const long requests = (total + batch - 1) / batch;
    std::mutex mutex;
    std::condition_variable changed;
    long unanswered = 0;
    bool failed = false;
    std::string error;

    std::thread reader([&] {
        kubemq::QueuesUpstreamResponse response;
        long answered = 0;
        long stored = 0;
        while (answered < requests && stream->Read(&response)) {
            ++answered;
            std::string problem;
            if (response.iserror()) {
                problem = "upstream error: " + response.error();
            } else {
                for (const auto& r : response.results()) {
                    if (r.iserror()) {
                        problem = "message rejected: " + r.error();
                        break;
                    }
                    ++stored;
                }
            }
            std::lock_guard lock(mutex);
            --unanswered;
            result.lastAnswer = Clock::now();
            if (!problem.empty() && !failed) {
                failed = true;
                error = problem;
            }
            changed.notify_all();
        }
        std::lock_guard lock(mutex);
        if (!failed && (answered < requests || stored != total)) {
            failed = true;
            error = "upstream stream ended after " + std::to_string(answered) + " of " +
                    std::to_string(requests) + " responses";
        }
        unanswered = -1;  // tells the writer to stop waiting
        changed.notify_all();
    });

    kubemq::QueuesUpstreamRequest request;
    long sent = 0;
    for (long r = 0; r < requests; ++r) {
        const int count = static_cast<int>(std::min<long>(batch, total - sent));
        request.set_requestid(std::to_string(r));
        if (request.messages_size() != count) {
            request.clear_messages();
            for (int i = 0; i < count; ++i)
                *request.add_messages() = makeMessage(channel, body);
        }
        {
            std::unique_lock lock(mutex);
            changed.wait(lock, [&] { return unanswered < window || unanswered < 0 || failed; });
            if (failed || unanswered < 0)
                break;
            ++unanswered;
        }
        if (r == 0)
            result.firstSend = Clock::now();
        if (!stream->Write(request))
            break;
        sent += count;
    }
    bool complete = false;
    {
        std::lock_guard lock(mutex);
        complete = sent == total && !failed;
    }
    // Unblocks the reader when not every request went out.
    if (!complete)
        context.TryCancel();
    reader.join();
    // A v2.4.0 server never ends the stream on half-close; cancel after the last answer.
    stream->WritesDone();
    context.TryCancel();
    stream->Finish();
    result.ok = !failed;
    result.error = error;
    return result;
}

// Consumes exactly `total` messages with Get + AckAll on one QueuesDownstream stream.
struct ConsumeResult {
    bool ok = false;
    std::string error;
    long received = 0;
    Clock::time_point lastReceive;
};

ConsumeResult consume(kubemq::kubemq::Stub& stub, const std::string& channel, long total, int batch,
                      int bodyBytes, const std::atomic<bool>& abandon) {
    ConsumeResult result;
    grpc::ClientContext context;
    auto stream = stub.QueuesDownstream(&context);
    kubemq::QueuesDownstreamRequest get;
    get.set_clientid(kClientId);
    get.set_channel(channel);
    get.set_requesttypedata(kubemq::Get);
    get.set_waittimeout(5000);
    kubemq::QueuesDownstreamRequest ackAll;
    ackAll.set_clientid(kClientId);
    ackAll.set_channel(channel);
    ackAll.set_requesttypedata(kubemq::AckAll);
    kubemq::QueuesDownstreamResponse response;
    long n = 0;
    while (result.received < total) {
        if (abandon) {
            result.error = "abandoned";
            break;
        }
        const std::string id = "g" + std::to_string(n++);
        get.set_requestid(id);
        get.set_maxitems(static_cast<int>(std::min<long>(batch, total - result.received)));
        if (!stream->Write(get) || !stream->Read(&response)) {
            result.error = "downstream stream broke";
            break;
        }
        if (response.iserror() || response.refrequestid() != id) {
            result.error =
                "downstream error (" + response.refrequestid() + "): " + response.error();
            break;
        }
        const int count = response.messages_size();
        if (count > 0 && static_cast<int>(response.messages(0).body().size()) != bodyBytes) {
            result.error = "received a body of unexpected size";
            break;
        }
        result.received += count;
        result.lastReceive = Clock::now();
        if (count > 0) {
            ackAll.set_requestid("a" + id);
            ackAll.set_reftransactionid(response.transactionid());
            if (!stream->Write(ackAll)) {
                result.error = "downstream stream broke on AckAll";
                break;
            }
        }
    }
    // AckAll has no success response. ActiveOffsets on the last transaction is
    // answered only after that AckAll ran; it must find the transaction closed.
    if (result.error.empty() && !ackAll.reftransactionid().empty()) {
        kubemq::QueuesDownstreamRequest offsets = ackAll;
        offsets.set_requestid("final");
        offsets.set_requesttypedata(kubemq::ActiveOffsets);
        if (!stream->Write(offsets) || !stream->Read(&response)) {
            result.error = "downstream stream broke on the final ActiveOffsets";
        } else if (!response.iserror() || response.activeoffsets_size() != 0) {
            result.error = "the last transaction is still open after AckAll (" +
                           std::to_string(response.activeoffsets_size()) + " unsettled)";
        }
    }
    stream->WritesDone();
    context.TryCancel();
    stream->Finish();
    result.ok = result.error.empty();
    return result;
}

double percentile(std::vector<double>& values, double p) {
    std::sort(values.begin(), values.end());
    const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(values.size())));
    return values[std::clamp<std::size_t>(rank, 1, values.size()) - 1];
}

}  // namespace

std::optional<ThroughputFigures> measureThroughput(kubemq::kubemq::Stub& stub,
                                                   const TrafficShape& shape, std::string* error) {
    const std::string channel = uniqueChannel("bench.throughput.");
    const std::string body(static_cast<std::size_t>(shape.bodyBytes), 'x');
    const double cpuBefore = processCpuSeconds();
    ConsumeResult consumed;
    std::atomic<bool> abandon{false};
    std::thread consumer([&] {
        consumed = consume(stub, channel, shape.messages, shape.batch, shape.bodyBytes, abandon);
    });
    const ProduceResult produced =
        produceTimed(stub, channel, body, shape.messages, shape.batch, shape.window);
    if (!produced.ok)
        abandon = true;
    consumer.join();
    const double cpu = processCpuSeconds() - cpuBefore;
    if (!produced.ok) {
        *error = "producer failed: " + produced.error;
        return std::nullopt;
    }
    if (!consumed.ok) {
        *error = "consumer failed after " + std::to_string(consumed.received) +
                 " messages: " + consumed.error;
        return std::nullopt;
    }
    // A broker delivers a message only after storing it, so its last Get ends the run;
    // a server that stores nothing can serve the Gets before the producer is done.
    const Clock::time_point end = std::max(consumed.lastReceive, produced.lastAnswer);
    ThroughputFigures figures;
    figures.messages = consumed.received;
    figures.seconds = std::chrono::duration<double>(end - produced.firstSend).count();
    figures.cpuSeconds = cpu;
    return figures;
}

struct LatencyProbe::State {
    State(kubemq::kubemq::Stub& stub, const TrafficShape& shape)
        : stub(stub),
          channel(uniqueChannel("bench.latency.")),
          message(
              makeMessage(channel, std::string(static_cast<std::size_t>(shape.bodyBytes), 'x'))),
          stream(stub.QueuesDownstream(&streamContext)) {
        get.set_clientid(kClientId);
        get.set_channel(channel);
        get.set_requesttypedata(kubemq::Get);
        get.set_maxitems(1);
        get.set_waittimeout(5000);
        ack.set_clientid(kClientId);
        ack.set_channel(channel);
        ack.set_requesttypedata(kubemq::AckRange);
        micros.reserve(static_cast<std::size_t>(shape.iterations));
        sendMicros.reserve(static_cast<std::size_t>(shape.iterations));
    }

    kubemq::kubemq::Stub& stub;
    const std::string channel;
    const kubemq::QueueMessage message;
    grpc::ClientContext streamContext;
    std::unique_ptr<
        grpc::ClientReaderWriter<kubemq::QueuesDownstreamRequest, kubemq::QueuesDownstreamResponse>>
        stream;
    kubemq::QueuesDownstreamRequest get;
    kubemq::QueuesDownstreamRequest ack;
    kubemq::QueuesDownstreamResponse response;
    std::vector<double> micros;      // whole round trip
    std::vector<double> sendMicros;  // the unary send alone
    long next = 0;
    std::string problem;
    bool closed = false;
};

LatencyProbe::LatencyProbe(kubemq::kubemq::Stub& stub, const TrafficShape& shape)
    : state_(std::make_unique<State>(stub, shape)) {}

LatencyProbe::~LatencyProbe() {
    std::string ignored;
    finish(&ignored);
}

bool LatencyProbe::roundTrip(bool warmup) {
    State& s = *state_;
    if (!s.problem.empty() || s.closed)
        return false;
    const auto t0 = Clock::now();
    grpc::ClientContext sendContext;
    kubemq::SendQueueMessageResult sent;
    const grpc::Status status = s.stub.SendQueueMessage(&sendContext, s.message, &sent);
    if (!status.ok() || sent.iserror()) {
        s.problem = "send failed: " + (status.ok() ? sent.error() : status.error_message());
        return false;
    }
    const auto sentAt = Clock::now();
    const std::string id = std::to_string(s.next++);
    s.get.set_requestid(id);
    if (!s.stream->Write(s.get) || !s.stream->Read(&s.response)) {
        s.problem = "downstream stream broke";
        return false;
    }
    if (s.response.iserror() || s.response.refrequestid() != id ||
        s.response.messages_size() != 1) {
        s.problem = "unexpected Get response: " + s.response.error() + " (" +
                    std::to_string(s.response.messages_size()) + " messages)";
        return false;
    }
    s.ack.set_requestid("a" + id);
    s.ack.set_reftransactionid(s.response.transactionid());
    s.ack.clear_sequencerange();
    s.ack.add_sequencerange(
        static_cast<std::int64_t>(s.response.messages(0).attributes().sequence()));
    if (!s.stream->Write(s.ack)) {
        s.problem = "downstream stream broke on AckRange";
        return false;
    }
    const auto t1 = Clock::now();
    if (!warmup) {
        s.micros.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
        s.sendMicros.push_back(std::chrono::duration<double, std::micro>(sentAt - t0).count());
    }
    return true;
}

std::optional<LatencyFigures> LatencyProbe::finish(std::string* error) {
    State& s = *state_;
    if (!s.closed) {
        s.closed = true;
        s.stream->WritesDone();
        s.streamContext.TryCancel();
        s.stream->Finish();
    }
    if (!s.problem.empty() || s.micros.empty()) {
        *error = s.problem.empty() ? "no round trip measured" : s.problem;
        return std::nullopt;
    }
    LatencyFigures figures;
    figures.roundTrips = s.micros.size();
    figures.p50 = percentile(s.micros, 0.50);
    figures.p99 = percentile(s.micros, 0.99);
    figures.max = s.micros.back();
    figures.sendP50 = percentile(s.sendMicros, 0.50);
    figures.sendP99 = percentile(s.sendMicros, 0.99);
    return figures;
}

std::optional<LatencyFigures> measureLatency(kubemq::kubemq::Stub& stub, const TrafficShape& shape,
                                             std::string* error) {
    LatencyProbe probe(stub, shape);
    for (long i = 0; i < shape.warmup + shape.iterations; ++i) {
        if (!probe.roundTrip(i < shape.warmup))
            break;
    }
    return probe.finish(error);
}

bool produce(kubemq::kubemq::Stub& stub, const std::string& channel, const std::string& body,
             long total, int batch, int window, std::string* error) {
    ProduceResult result = produceTimed(stub, channel, body, total, batch, window);
    if (!result.ok)
        *error = result.error;
    return result.ok;
}

std::string uniqueChannel(std::string_view prefix) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
    return std::string(prefix) + std::to_string(getpid()) + "." + std::to_string(ms);
}

void printThroughput(std::string_view label, const ThroughputFigures& figures,
                     const TrafficShape& shape, std::string_view cpuWhat) {
    const std::string prefix(label);
    std::printf("%sthroughput: %.0f msg/s (%ld messages of %d B, batch %d, %.3f s end to end)\n",
                prefix.c_str(), figures.messagesPerSecond(), figures.messages, shape.bodyBytes,
                shape.batch, figures.seconds);
    // Load-independent companion figure: what one message costs in CPU.
    if (!cpuWhat.empty()) {
        std::printf("%sthroughput cpu: %.2f µs CPU per message (%s, %.2f s CPU)\n", prefix.c_str(),
                    figures.cpuMicrosPerMessage(), std::string(cpuWhat).c_str(),
                    figures.cpuSeconds);
    }
}

void printLatency(std::string_view label, const LatencyFigures& figures) {
    const std::string prefix(label);
    std::printf(
        "%slatency: p50 %.0f µs, p99 %.0f µs (%zu round trips send + Get(1) + AckRange, max %.0f "
        "µs)\n",
        prefix.c_str(), figures.p50, figures.p99, figures.roundTrips, figures.max);
    std::printf("%slatency of the unary send alone: p50 %.0f µs, p99 %.0f µs\n", prefix.c_str(),
                figures.sendP50, figures.sendP99);
}

TrafficMedians mediansOf(const std::vector<ThroughputFigures>& throughput,
                         const std::vector<LatencyFigures>& latency) {
    std::vector<double> rate, cpu, p50, p99, sendP50;
    for (const auto& t : throughput) {
        rate.push_back(t.messagesPerSecond());
        cpu.push_back(t.cpuMicrosPerMessage());
    }
    for (const auto& l : latency) {
        p50.push_back(l.p50);
        p99.push_back(l.p99);
        sendP50.push_back(l.sendP50);
    }
    TrafficMedians m;
    m.throughputRuns = throughput.size();
    m.latencyRuns = latency.size();
    m.rate = median(rate);
    m.cpu = median(cpu);
    m.p50 = median(p50);
    m.p99 = median(p99);
    m.sendP50 = median(sendP50);
    return m;
}

void printMedians(std::string_view name, const TrafficMedians& m, bool withCpu) {
    std::printf("median of %zu: %s:", std::max(m.throughputRuns, m.latencyRuns),
                std::string(name).c_str());
    if (m.throughputRuns > 0) {
        std::printf(" throughput %.0f msg/s", m.rate);
        if (withCpu)
            std::printf(" (%.2f µs CPU per message)", m.cpu);
    }
    if (m.throughputRuns > 0 && m.latencyRuns > 0)
        std::printf(";");
    if (m.latencyRuns > 0) {
        std::printf(" round trip p50 %.0f µs, p99 %.0f µs; unary send p50 %.0f µs", m.p50, m.p99,
                    m.sendP50);
    }
    std::printf("\n");
}

}  // namespace qs::bench
