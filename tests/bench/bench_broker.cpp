// bench_broker: throughput, latency and memory figures for the embedded broker
// (or any KubeMQ-compatible server given with --address), measured over
// loopback gRPC with the generated kubemq stub, each as a ratio to the gRPC floor
// (floor_server.h). No figure decides a test; ctest's bench_broker_quick only runs
// a short one for its checks of the replies.

#include <grpcpp/grpcpp.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "bench_stats.h"
#include "broker/broker.h"
#include "broker_traffic.h"
#include "floor_server.h"
#include "kubemq.grpc.pb.h"

namespace {

using qs::bench::LatencyFigures;
using qs::bench::parseNumber;
using qs::bench::ThroughputFigures;
using qs::bench::TrafficShape;

constexpr std::string_view kUsage = R"(usage: bench_broker [options]

Measures a KubeMQ-compatible broker over loopback gRPC with 256-byte bodies.
By default an embedded qs::broker::Broker is started in this process on
127.0.0.1 (ephemeral port) and both (a) and (b) run.

  (a) throughput: one producer sends QueuesUpstream requests of --batch
      messages (at most --window requests unanswered), one consumer loops
      QueuesDownstream Get(MaxItems --batch) + AckAll on its transaction.
      Prints "throughput: N msg/s" = messages acked / (first send .. last
      receive or last upstream answer, whichever is later).
  (b) latency: unary SendQueueMessage, then downstream Get(MaxItems 1), then
      AckRange([sequence]); prints p50 / p99 of that round trip in µs.
      (a) and (b) also run against the gRPC floor (bench_grpc_floor's server,
      no queue work) in this process, in turn with the broker, and each shape
      prints the broker's figure as a ratio to the floor's.
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
  --runs N                 repeat (a) and (b) N times, then print medians (default 1)
  --no-floor               do not measure the gRPC floor (no ratios)
  --memory                 run (c) only (embedded broker only)
  --memory-messages N      messages for (c) (default 1000000)
  --body-bytes N           body size (default 256)
  --data-dir DIR           embedded broker with a durable store in DIR (emptied first)
  --sync MODE              with --data-dir: always, batch (default) or none
  --help                   this text
)";

struct Options {
    std::string address;  // empty = embedded broker
    TrafficShape shape;
    bool runThroughput = true;
    bool runLatency = true;
    int runs = 1;
    bool floor = true;
    bool memory = false;
    long memoryMessages = 1000000;
    std::string dataDirectory;  // empty = memory-only embedded broker
    qs::broker::SyncMode sync = qs::broker::SyncMode::Batch;
};

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
            error = number(&o->shape.messages, 1L);
        } else if (arg == "--batch") {
            error = number(&o->shape.batch, 1);
        } else if (arg == "--window") {
            error = number(&o->shape.window, 1);
        } else if (arg == "--iterations") {
            error = number(&o->shape.iterations, 1L);
        } else if (arg == "--warmup") {
            error = number(&o->shape.warmup, 0L);
        } else if (arg == "--runs") {
            error = number(&o->runs, 1);
        } else if (arg == "--no-floor") {
            o->floor = false;
        } else if (arg == "--memory") {
            o->memory = true;
        } else if (arg == "--memory-messages") {
            error = number(&o->memoryMessages, 1L);
        } else if (arg == "--body-bytes") {
            error = number(&o->shape.bodyBytes, 1);
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

// A server the shapes are driven against, and what each run measured on it.
struct Subject {
    std::string name;     // "memory broker", "gRPC floor", ...
    std::string label;    // starts its lines: "" for the measured server, "floor " for the floor
    std::string cpuWhat;  // what its CPU figure covers; empty: not printed
    std::shared_ptr<grpc::Channel> channel;
    std::unique_ptr<kubemq::kubemq::Stub> stub;
    std::vector<ThroughputFigures> throughput;
    std::vector<LatencyFigures> latency;
};

// Opens a channel to `address` and checks it answers Ping.
bool connect(Subject& subject, const std::string& address, std::string* error) {
    subject.channel = grpc::CreateChannel(address, grpc::InsecureChannelCredentials());
    subject.stub = kubemq::kubemq::NewStub(subject.channel);
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    kubemq::PingResult ping;
    const grpc::Status status = subject.stub->Ping(&context, kubemq::Empty(), &ping);
    if (!status.ok())
        *error = "Ping to " + address + " failed: " + status.error_message();
    return status.ok();
}

bool measureThroughputOn(Subject& subject, const Options& o) {
    std::string error;
    const auto figures = qs::bench::measureThroughput(*subject.stub, o.shape, &error);
    if (!figures) {
        std::cerr << subject.label << "throughput: " << error << "\n";
        return false;
    }
    qs::bench::printThroughput(subject.label, *figures, o.shape, subject.cpuWhat);
    subject.throughput.push_back(*figures);
    return true;
}

// (b) on every subject at once: their round trips alternate one by one, so each
// pair is taken in the same milliseconds.
bool measureLatencyOn(const std::vector<Subject*>& subjects, const Options& o) {
    std::vector<std::unique_ptr<qs::bench::LatencyProbe>> probes;
    for (Subject* subject : subjects)
        probes.push_back(std::make_unique<qs::bench::LatencyProbe>(*subject->stub, o.shape));
    bool ok = true;
    for (long i = 0; i < o.shape.warmup + o.shape.iterations && ok; ++i) {
        for (auto& probe : probes)
            ok = probe->roundTrip(i < o.shape.warmup) && ok;
    }
    for (std::size_t k = 0; k < subjects.size(); ++k) {
        Subject& subject = *subjects[k];
        std::string error;
        const auto figures = probes[k]->finish(&error);
        if (!figures) {
            std::cerr << subject.label << "latency: " << error << "\n";
            ok = false;
            continue;
        }
        qs::bench::printLatency(subject.label, *figures);
        subject.latency.push_back(*figures);
    }
    return ok;
}

// One run's broker figures over the floor's, taken seconds apart (0: not measured).
struct FloorRatios {
    double throughput = 0;  // broker msg/s over floor msg/s
    double p50 = 0;         // broker round trip over floor round trip
    double p99 = 0;
};

// "memory broker batched: 41 % of the gRPC floor", "memory broker round-trip p50
// 1.3× the floor".
void printRatios(std::string_view prefix, const std::string& name, const FloorRatios& r) {
    const std::string head(prefix);
    if (r.throughput > 0) {
        std::printf("%s%s batched: %.0f %% of the gRPC floor\n", head.c_str(), name.c_str(),
                    100.0 * r.throughput);
    }
    if (r.p50 > 0) {
        std::printf("%s%s round-trip p50 %.2f× the floor (p99 %.2f×)\n", head.c_str(), name.c_str(),
                    r.p50, r.p99);
    }
}

FloorRatios lastRatios(const Subject& measured, const Subject& floor) {
    FloorRatios r;
    if (!measured.throughput.empty() && !floor.throughput.empty()) {
        r.throughput = measured.throughput.back().messagesPerSecond() /
                       floor.throughput.back().messagesPerSecond();
    }
    if (!measured.latency.empty() && !floor.latency.empty()) {
        r.p50 = measured.latency.back().p50 / floor.latency.back().p50;
        r.p99 = measured.latency.back().p99 / floor.latency.back().p99;
    }
    return r;
}

// One repetition of (a) and (b); with a floor, the two servers take turns going first
// (in (b), in each pair of round trips) and the run's ratios are added to *ratios.
bool runOnce(const Options& o, int run, Subject& measured, Subject* floor,
             std::vector<FloorRatios>* ratios) {
    std::vector<Subject*> order{&measured};
    if (floor != nullptr)
        order.insert(run % 2 == 0 ? order.end() : order.begin(), floor);
    bool ok = true;
    if (o.runThroughput) {
        for (Subject* subject : order)
            ok = measureThroughputOn(*subject, o) && ok;
    }
    if (o.runLatency)
        ok = measureLatencyOn(order, o) && ok;
    if (ok && floor != nullptr) {
        ratios->push_back(lastRatios(measured, *floor));
        printRatios("vs floor: ", measured.name, ratios->back());
    }
    return ok;
}

// The medians of each server's figures and of the per-run ratios (the machine's
// speed drifts between runs, so a ratio of two medians would pair different minutes).
void printMedians(const Subject& measured, const Subject* floor,
                  const std::vector<FloorRatios>& ratios) {
    qs::bench::printMedians(measured.name,
                            qs::bench::mediansOf(measured.throughput, measured.latency),
                            !measured.cpuWhat.empty());
    if (floor == nullptr)
        return;
    qs::bench::printMedians(floor->name, qs::bench::mediansOf(floor->throughput, floor->latency),
                            true);
    std::vector<double> throughput, p50, p99;
    for (const auto& r : ratios) {
        throughput.push_back(r.throughput);
        p50.push_back(r.p50);
        p99.push_back(r.p99);
    }
    using qs::bench::median;
    printRatios("median vs floor: ", measured.name,
                FloorRatios{median(throughput), median(p50), median(p99)});
}

bool runMemory(kubemq::kubemq::Stub& stub, const Options& o) {
    const std::string channel = qs::bench::uniqueChannel("bench.memory.");
    const std::string body(static_cast<std::size_t>(o.shape.bodyBytes), 'x');
    const double before = residentMegabytes();
    std::string error;
    if (!qs::bench::produce(stub, channel, body, o.memoryMessages, o.shape.batch, o.shape.window,
                            &error)) {
        std::cerr << "memory: producer failed: " << error << "\n";
        return false;
    }
    const double after = residentMegabytes();
    std::printf("memory: RSS before %.1f MB, after %.1f MB (+%.1f MB for %ld messages of %d B)\n",
                before, after, after - before, o.memoryMessages, o.shape.bodyBytes);
    return true;
}

std::string subjectName(const Options& o) {
    if (!o.address.empty())
        return "server at " + o.address;
    if (o.dataDirectory.empty())
        return "memory broker";
    return "durable broker (sync " + std::string(qs::broker::syncModeName(o.sync)) + ")";
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

    Subject measured;
    measured.name = subjectName(o);
    if (broker)
        measured.cpuWhat = "client + embedded broker";
    std::string error;
    if (!connect(measured, address, &error)) {
        std::cerr << "bench_broker: " << error << "\n";
        return 1;
    }

    bool ok = true;
    if (o.memory) {
        ok = runMemory(*measured.stub, o);
    } else {
        // The floor runs in this process in turn with the broker, so both see the
        // machine in the same minutes (on a shared machine, figures from another
        // minute are no baseline).
        std::unique_ptr<qs::bench::FloorServer> floorServer;
        Subject floor;
        floor.name = "gRPC floor";
        floor.label = "floor ";
        floor.cpuWhat = "client + in-process floor server";
        if (o.floor) {
            floorServer = std::make_unique<qs::bench::FloorServer>(o.shape.bodyBytes);
            if (!floorServer->start(&error) || !connect(floor, floorServer->address(), &error)) {
                std::cerr << "bench_broker: the gRPC floor: " << error << "\n";
                return 1;
            }
            std::printf("floor: %s (in process, no queue work)\n", floorServer->address().c_str());
        }
        Subject* floorOrNull = o.floor ? &floor : nullptr;
        std::vector<FloorRatios> ratios;
        for (int run = 1; run <= o.runs && ok; ++run) {
            if (o.runs > 1)
                std::printf("run %d of %d\n", run, o.runs);
            ok = runOnce(o, run, measured, floorOrNull, &ratios);
        }
        if (ok && o.runs > 1)
            printMedians(measured, floorOrNull, ratios);
        floor.stub.reset();
        floor.channel.reset();
        if (floorServer)
            floorServer->stop();
    }
    measured.stub.reset();
    measured.channel.reset();
    if (broker)
        broker->stop();
    return ok ? 0 : 1;
}
