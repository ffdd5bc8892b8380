// bench_broker: throughput, latency and memory figures for the embedded broker
// (or any KubeMQ-compatible server given with --address), measured over
// loopback gRPC with the generated kubemq stub. Not a ctest test.

#include <grpcpp/grpcpp.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "bench_stats.h"
#include "broker/broker.h"
#include "kubemq.grpc.pb.h"

namespace {

using qs::bench::processCpuSeconds;

using Clock = std::chrono::steady_clock;

constexpr std::string_view kUsage = R"(usage: bench_broker [options]

Measures a KubeMQ-compatible broker over loopback gRPC with 256-byte bodies.
By default an embedded qs::broker::Broker is started in this process on
127.0.0.1 (ephemeral port) and both (a) and (b) run.

  (a) throughput: one producer sends QueuesUpstream requests of --batch
      messages (at most --window requests unanswered), one consumer loops
      QueuesDownstream Get(MaxItems --batch) + AckAll on its transaction.
      Prints "throughput: N msg/s" = messages acked / (first send .. last receive).
  (b) latency: unary SendQueueMessage, then downstream Get(MaxItems 1), then
      AckRange([sequence]); prints p50 / p99 of that round trip in µs.
  (c) memory (--memory only): enqueues --memory-messages messages into the
      embedded broker and prints this process's VmRSS before and after, in MB.

options:
  --address HOST:PORT      measure that server instead of an embedded broker
  --messages N             messages for (a) (default 200000)
  --batch N                messages per upstream request / Get (default 100)
  --window N               unanswered upstream requests allowed (default 16)
  --iterations N           measured round trips for (b) (default 5000)
  --warmup N               unmeasured round trips before (b) (default 500)
  --only throughput|latency  run just one of (a) / (b)
  --memory                 run (c) only (embedded broker only)
  --memory-messages N      messages for (c) (default 1000000)
  --body-bytes N           body size (default 256)
  --data-dir DIR           embedded broker with a durable store in DIR (emptied first)
  --sync MODE              with --data-dir: always, batch (default) or none
  --help                   this text
)";

struct Options {
    std::string address;  // empty = embedded broker
    long messages = 200000;
    int batch = 100;
    int window = 16;
    long iterations = 5000;
    long warmup = 500;
    bool runThroughput = true;
    bool runLatency = true;
    bool memory = false;
    long memoryMessages = 1000000;
    int bodyBytes = 256;
    std::string dataDirectory;  // empty = memory-only embedded broker
    qs::broker::SyncMode sync = qs::broker::SyncMode::Batch;
};

template <typename T>
bool parseNumber(std::string_view text, T min, T* out) {
    T value{};
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || value < min)
        return false;
    *out = value;
    return true;
}

// Returns an error message, or nullopt when the options are valid.
std::optional<std::string> parseOptions(int argc, char** argv, Options* o, bool* help) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        auto value = [&]() -> std::optional<std::string_view> {
            if (i + 1 >= argc)
                return std::nullopt;
            return std::string_view(argv[++i]);
        };
        auto number = [&](auto* out, auto min) -> std::optional<std::string> {
            const auto v = value();
            if (!v || !parseNumber(*v, min, out)) {
                return std::string(arg) + " needs a number >= " + std::to_string(min);
            }
            return std::nullopt;
        };
        std::optional<std::string> error;
        if (arg == "--help" || arg == "-h") {
            *help = true;
            return std::nullopt;
        } else if (arg == "--address") {
            const auto v = value();
            if (!v || v->find(':') == std::string_view::npos)
                return "--address needs HOST:PORT";
            o->address = std::string(*v);
        } else if (arg == "--messages") {
            error = number(&o->messages, 1L);
        } else if (arg == "--batch") {
            error = number(&o->batch, 1);
        } else if (arg == "--window") {
            error = number(&o->window, 1);
        } else if (arg == "--iterations") {
            error = number(&o->iterations, 1L);
        } else if (arg == "--warmup") {
            error = number(&o->warmup, 0L);
        } else if (arg == "--memory") {
            o->memory = true;
        } else if (arg == "--memory-messages") {
            error = number(&o->memoryMessages, 1L);
        } else if (arg == "--body-bytes") {
            error = number(&o->bodyBytes, 1);
        } else if (arg == "--data-dir") {
            const auto v = value();
            if (!v || v->empty())
                return "--data-dir needs a directory";
            o->dataDirectory = std::string(*v);
        } else if (arg == "--sync") {
            const auto v = value();
            const auto mode = v ? qs::broker::parseSyncMode(*v) : std::nullopt;
            if (!mode)
                return "--sync needs always, batch or none";
            o->sync = *mode;
        } else if (arg == "--only") {
            const auto v = value();
            if (v == "throughput") {
                o->runLatency = false;
            } else if (v == "latency") {
                o->runThroughput = false;
            } else {
                return "--only needs throughput or latency";
            }
        } else {
            return "unknown option " + std::string(arg);
        }
        if (error)
            return error;
    }
    if (!o->dataDirectory.empty() && !o->address.empty())
        return "--data-dir configures the embedded broker (no --address)";
    if (o->memory && !o->address.empty()) {
        return "--memory measures this process, so it needs the embedded broker (no --address)";
    }
    return std::nullopt;
}

double residentMegabytes() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0) {
            std::istringstream fields(line.substr(6));
            double kb = 0;
            fields >> kb;
            return kb / 1024.0;
        }
    }
    return -1;
}

std::string uniqueSuffix() {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
    return std::to_string(getpid()) + "." + std::to_string(ms);
}

kubemq::QueueMessage makeMessage(const std::string& channel, const std::string& body) {
    kubemq::QueueMessage m;
    m.set_clientid("bench_broker");
    m.set_channel(channel);
    m.set_body(body);
    return m;
}

// Sends `total` messages on one QueuesUpstream stream in requests of `batch`,
// with at most `window` requests unanswered. Returns the time of the first write.
struct ProduceResult {
    bool ok = false;
    std::string error;
    Clock::time_point firstSend;
};

ProduceResult produce(kubemq::kubemq::Stub& stub, const std::string& channel,
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
    get.set_clientid("bench_broker");
    get.set_channel(channel);
    get.set_requesttypedata(kubemq::Get);
    get.set_waittimeout(5000);
    kubemq::QueuesDownstreamRequest ackAll;
    ackAll.set_clientid("bench_broker");
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

bool runThroughput(kubemq::kubemq::Stub& stub, const Options& o, const std::string& body) {
    const bool external = !o.address.empty();
    const std::string channel = "bench.throughput." + uniqueSuffix();
    const double cpuBefore = processCpuSeconds();
    ConsumeResult consumed;
    std::atomic<bool> abandon{false};
    std::thread consumer(
        [&] { consumed = consume(stub, channel, o.messages, o.batch, o.bodyBytes, abandon); });
    const ProduceResult produced = produce(stub, channel, body, o.messages, o.batch, o.window);
    if (!produced.ok)
        abandon = true;
    consumer.join();
    const double cpu = processCpuSeconds() - cpuBefore;
    if (!produced.ok) {
        std::cerr << "throughput: producer failed: " << produced.error << "\n";
        return false;
    }
    if (!consumed.ok) {
        std::cerr << "throughput: consumer failed after " << consumed.received
                  << " messages: " << consumed.error << "\n";
        return false;
    }
    const double seconds =
        std::chrono::duration<double>(consumed.lastReceive - produced.firstSend).count();
    std::printf("throughput: %.0f msg/s (%ld messages of %d B, batch %d, %.3f s end to end)\n",
                static_cast<double>(consumed.received) / seconds, consumed.received, o.bodyBytes,
                o.batch, seconds);
    // Load-independent companion figure: what one message costs in CPU.
    if (!external) {
        std::printf(
            "throughput cpu: %.2f µs CPU per message (client + embedded broker, %.2f s CPU)\n",
            cpu * 1e6 / static_cast<double>(consumed.received), cpu);
    }
    return true;
}

bool runLatency(kubemq::kubemq::Stub& stub, const Options& o, const std::string& body) {
    const std::string channel = "bench.latency." + uniqueSuffix();
    grpc::ClientContext streamContext;
    auto stream = stub.QueuesDownstream(&streamContext);
    const kubemq::QueueMessage message = makeMessage(channel, body);
    kubemq::QueuesDownstreamRequest get;
    get.set_clientid("bench_broker");
    get.set_channel(channel);
    get.set_requesttypedata(kubemq::Get);
    get.set_maxitems(1);
    get.set_waittimeout(5000);
    kubemq::QueuesDownstreamRequest ack;
    ack.set_clientid("bench_broker");
    ack.set_channel(channel);
    ack.set_requesttypedata(kubemq::AckRange);
    kubemq::QueuesDownstreamResponse response;
    std::vector<double> micros;      // whole round trip
    std::vector<double> sendMicros;  // the unary send alone
    micros.reserve(static_cast<std::size_t>(o.iterations));
    sendMicros.reserve(static_cast<std::size_t>(o.iterations));
    std::string error;
    for (long i = 0; i < o.warmup + o.iterations && error.empty(); ++i) {
        const auto t0 = Clock::now();
        grpc::ClientContext sendContext;
        kubemq::SendQueueMessageResult sent;
        const grpc::Status status = stub.SendQueueMessage(&sendContext, message, &sent);
        if (!status.ok() || sent.iserror()) {
            error = "send failed: " + (status.ok() ? sent.error() : status.error_message());
            break;
        }
        const auto sentAt = Clock::now();
        const std::string id = std::to_string(i);
        get.set_requestid(id);
        if (!stream->Write(get) || !stream->Read(&response)) {
            error = "downstream stream broke";
            break;
        }
        if (response.iserror() || response.refrequestid() != id || response.messages_size() != 1) {
            error = "unexpected Get response: " + response.error() + " (" +
                    std::to_string(response.messages_size()) + " messages)";
            break;
        }
        ack.set_requestid("a" + id);
        ack.set_reftransactionid(response.transactionid());
        ack.clear_sequencerange();
        ack.add_sequencerange(
            static_cast<std::int64_t>(response.messages(0).attributes().sequence()));
        if (!stream->Write(ack)) {
            error = "downstream stream broke on AckRange";
            break;
        }
        const auto t1 = Clock::now();
        if (i >= o.warmup) {
            micros.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
            sendMicros.push_back(std::chrono::duration<double, std::micro>(sentAt - t0).count());
        }
    }
    stream->WritesDone();
    streamContext.TryCancel();
    stream->Finish();
    if (!error.empty()) {
        std::cerr << "latency: " << error << "\n";
        return false;
    }
    auto percentile = [](std::vector<double>& values, double p) {
        std::sort(values.begin(), values.end());
        const auto rank =
            static_cast<std::size_t>(std::ceil(p * static_cast<double>(values.size())));
        return values[std::clamp<std::size_t>(rank, 1, values.size()) - 1];
    };
    const double p50 = percentile(micros, 0.50);
    const double p99 = percentile(micros, 0.99);
    const double max = micros.back();
    const double sendP50 = percentile(sendMicros, 0.50);
    const double sendP99 = percentile(sendMicros, 0.99);
    std::printf(
        "latency: p50 %.0f µs, p99 %.0f µs (%zu round trips send + Get(1) + AckRange, max %.0f "
        "µs)\n",
        p50, p99, micros.size(), max);
    std::printf("latency of the unary send alone: p50 %.0f µs, p99 %.0f µs\n", sendP50, sendP99);
    return true;
}

bool runMemory(kubemq::kubemq::Stub& stub, const Options& o, const std::string& body) {
    const std::string channel = "bench.memory." + uniqueSuffix();
    const double before = residentMegabytes();
    const ProduceResult produced =
        produce(stub, channel, body, o.memoryMessages, o.batch, o.window);
    if (!produced.ok) {
        std::cerr << "memory: producer failed: " << produced.error << "\n";
        return false;
    }
    const double after = residentMegabytes();
    std::printf("memory: RSS before %.1f MB, after %.1f MB (+%.1f MB for %ld messages of %d B)\n",
                before, after, after - before, o.memoryMessages, o.bodyBytes);
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    bool help = false;
    if (const auto error = parseOptions(argc, argv, &o, &help)) {
        std::cerr << "bench_broker: " << *error << "\n\n" << kUsage;
        return 2;
    }
    if (help) {
        std::cout << kUsage;
        return 0;
    }
#ifndef __OPTIMIZE__
    std::cerr
        << "bench_broker: warning: built without optimization; figures are not representative\n";
#endif

    std::unique_ptr<qs::broker::Broker> broker;
    std::string address = o.address;
    if (address.empty()) {
        qs::broker::BrokerOptions options;
        options.bindAddress = "127.0.0.1";
        options.port = 0;
        if (!o.dataDirectory.empty()) {
            std::filesystem::remove_all(o.dataDirectory);  // a fresh store each run
            options.dataDirectory = o.dataDirectory;
            options.sync = o.sync;
        }
        broker = std::make_unique<qs::broker::Broker>(options);
        std::string error;
        if (!broker->start(&error)) {
            std::cerr << "bench_broker: cannot start the embedded broker: " << error << "\n";
            return 1;
        }
        address = broker->address();
    }
    std::printf("server: %s (%s%s%s)\n", address.c_str(), broker ? "embedded" : "external",
                o.dataDirectory.empty() ? "" : ", durable, sync ",
                o.dataDirectory.empty() ? "" : std::string(syncModeName(o.sync)).c_str());

    auto channel = grpc::CreateChannel(address, grpc::InsecureChannelCredentials());
    auto stub = kubemq::kubemq::NewStub(channel);
    {
        grpc::ClientContext context;
        context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
        kubemq::PingResult ping;
        const grpc::Status status = stub->Ping(&context, kubemq::Empty(), &ping);
        if (!status.ok()) {
            std::cerr << "bench_broker: Ping failed: " << status.error_message() << "\n";
            return 1;
        }
    }

    const std::string body(static_cast<std::size_t>(o.bodyBytes), 'x');
    bool ok = true;
    if (o.memory) {
        ok = runMemory(*stub, o, body);
    } else {
        if (o.runThroughput)
            ok = runThroughput(*stub, o, body) && ok;
        if (o.runLatency)
            ok = runLatency(*stub, o, body) && ok;
    }
    stub.reset();
    channel.reset();
    if (broker)
        broker->stop();
    return ok ? 0 : 1;
}
