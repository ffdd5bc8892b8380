// bench_grpc_floor: bench_broker's traffic shapes against a server that does no
// queue work (floor_server.h), so what it prints is what gRPC C++ itself allows on
// this machine. No figure decides a test; ctest's bench_grpc_floor_quick only runs
// --quick for its checks of the replies.

#include <grpcpp/grpcpp.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "broker_traffic.h"
#include "floor_server.h"
#include "kubemq.grpc.pb.h"

namespace {

using qs::bench::parseNumber;
using qs::bench::TrafficShape;

constexpr std::string_view kUsage = R"(usage: bench_grpc_floor [options]

Runs bench_broker's traffic shapes, with 256-byte bodies, against the gRPC floor:
a kubemq.kubemq server in this process on 127.0.0.1 (ephemeral port), built like
the broker's (synchronous gRPC API, same thread quota), that stores nothing and
answers each request with the smallest valid reply. Prints every run's figures,
then their medians.

  (a) throughput: one producer sends QueuesUpstream requests of --batch messages
      (at most --window unanswered), one consumer loops QueuesDownstream
      Get(MaxItems --batch) + AckAll. Rate = messages received / (first send ..
      last answer or Get, whichever is later).
  (b) latency: unary SendQueueMessage, downstream Get(MaxItems 1), AckRange.

options:
  --runs N                 repetitions (default 5)
  --messages N             messages for (a) (default 200000)
  --batch N                messages per upstream request / Get (default 100)
  --window N               unanswered upstream requests allowed (default 16)
  --iterations N           measured round trips for (b) (default 5000)
  --warmup N               unmeasured round trips before (b) (default 500)
  --only throughput|latency  run just one of (a) / (b)
  --body-bytes N           body size (default 256)
  --quick                  one short run (20000 messages, 500 round trips): a smoke check
  --help                   this text
)";

struct Options {
    TrafficShape shape;
    int runs = 5;
    bool runThroughput = true;
    bool runLatency = true;
};

// Returns an error message, or nullopt when the options are valid.
std::optional<std::string> parseOptions(int argc, char** argv, Options* o, bool* help) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        const std::optional<std::string_view> next =
            i + 1 < argc ? std::optional<std::string_view>(argv[i + 1]) : std::nullopt;
        auto number = [&](auto* out, auto min) -> std::optional<std::string> {
            ++i;
            if (!next || !parseNumber(*next, min, out))
                return std::string(arg) + " needs a number >= " + std::to_string(min);
            return std::nullopt;
        };
        std::optional<std::string> error;
        if (arg == "--help" || arg == "-h") {
            *help = true;
            return std::nullopt;
        } else if (arg == "--runs") {
            error = number(&o->runs, 1);
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
        } else if (arg == "--body-bytes") {
            error = number(&o->shape.bodyBytes, 1);
        } else if (arg == "--quick") {
            o->runs = 1;
            o->shape.messages = 20000;
            o->shape.iterations = 500;
            o->shape.warmup = 50;
        } else if (arg == "--only") {
            ++i;
            if (next == "throughput") {
                o->runLatency = false;
            } else if (next == "latency") {
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
    return std::nullopt;
}

bool pingFloor(kubemq::kubemq::Stub& stub) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    kubemq::PingResult ping;
    const grpc::Status status = stub.Ping(&context, kubemq::Empty(), &ping);
    if (!status.ok())
        std::cerr << "bench_grpc_floor: Ping failed: " << status.error_message() << "\n";
    return status.ok();
}

// Runs the shapes o.runs times and prints every run's figures, then the medians.
bool measureFloor(kubemq::kubemq::Stub& stub, const Options& o) {
    constexpr std::string_view kLabel = "floor ";
    std::vector<qs::bench::ThroughputFigures> throughput;
    std::vector<qs::bench::LatencyFigures> latency;
    std::string error;
    for (int run = 1; run <= o.runs; ++run) {
        if (o.runs > 1)
            std::printf("run %d of %d\n", run, o.runs);
        if (o.runThroughput) {
            const auto figures = qs::bench::measureThroughput(stub, o.shape, &error);
            if (!figures) {
                std::cerr << "floor throughput: " << error << "\n";
                return false;
            }
            qs::bench::printThroughput(kLabel, *figures, o.shape, "client + floor server");
            throughput.push_back(*figures);
        }
        if (o.runLatency) {
            const auto figures = qs::bench::measureLatency(stub, o.shape, &error);
            if (!figures) {
                std::cerr << "floor latency: " << error << "\n";
                return false;
            }
            qs::bench::printLatency(kLabel, *figures);
            latency.push_back(*figures);
        }
    }
    qs::bench::printMedians("gRPC floor", qs::bench::mediansOf(throughput, latency), true);
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    bool help = false;
    if (const auto error = parseOptions(argc, argv, &o, &help)) {
        std::cerr << "bench_grpc_floor: " << *error << "\n\n" << kUsage;
        return 2;
    }
    if (help) {
        std::cout << kUsage;
        return 0;
    }
#ifndef __OPTIMIZE__
    std::cerr << "bench_grpc_floor: warning: built without optimization; figures are not "
                 "representative\n";
#endif
    qs::bench::FloorServer server(o.shape.bodyBytes);
    std::string error;
    if (!server.start(&error)) {
        std::cerr << "bench_grpc_floor: " << error << "\n";
        return 1;
    }
    std::printf("floor: %s (in process, synchronous gRPC API, no queue work)\n",
                server.address().c_str());
    bool ok = false;
    {
        auto stub = kubemq::kubemq::NewStub(
            grpc::CreateChannel(server.address(), grpc::InsecureChannelCredentials()));
        ok = pingFloor(*stub) && measureFloor(*stub, o);
    }
    server.stop();
    return ok ? 0 : 1;
}
