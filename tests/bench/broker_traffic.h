#pragma once

#include <charconv>
#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kubemq.grpc.pb.h"

// The client side of bench_broker's traffic shapes, shared by every benchmark that
// drives a KubeMQ-compatible server with them (bench_broker, bench_grpc_floor), so
// the broker and the gRPC floor are measured by the same code. All calls block the
// calling thread; the stub must outlive them.
namespace qs::bench {

using Clock = std::chrono::steady_clock;

// A benchmark option's number: the whole text, at least `min` (command lines
// of bench_broker and bench_grpc_floor).
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

struct TrafficShape {
    long messages = 200000;  // (a): messages produced and consumed
    int batch = 100;         // (a): messages per upstream request and per Get
    int window = 16;         // (a): upstream requests allowed unanswered
    long iterations = 5000;  // (b): measured round trips
    long warmup = 500;       // (b): round trips before those
    int bodyBytes = 256;
};

// (a): one producer on QueuesUpstream, one consumer looping Get(batch) + AckAll.
struct ThroughputFigures {
    long messages = 0;
    double seconds = 0;     // first upstream write .. last answer or Get, whichever is later
    double cpuSeconds = 0;  // this whole process, the servers it hosts included
    double messagesPerSecond() const { return static_cast<double>(messages) / seconds; }
    double cpuMicrosPerMessage() const { return cpuSeconds * 1e6 / static_cast<double>(messages); }
};

// (b): unary SendQueueMessage, downstream Get(1), AckRange([sequence]).
struct LatencyFigures {
    std::size_t roundTrips = 0;
    double p50 = 0;  // µs, whole round trip
    double p99 = 0;
    double max = 0;
    double sendP50 = 0;  // µs, the unary send alone
    double sendP99 = 0;
};

// Every answer is checked on the way (results all successes, Gets matching their
// request with bodies of the sent size, the last transaction closed after AckAll);
// a failure returns nullopt with the reason in *error.
std::optional<ThroughputFigures> measureThroughput(kubemq::kubemq::Stub& stub,
                                                   const TrafficShape& shape, std::string* error);
std::optional<LatencyFigures> measureLatency(kubemq::kubemq::Stub& stub, const TrafficShape& shape,
                                             std::string* error);

// (b) one round trip at a time on one downstream stream, so that two servers' round
// trips can alternate and each pair sees the machine in the same milliseconds.
class LatencyProbe {
public:
    LatencyProbe(kubemq::kubemq::Stub& stub, const TrafficShape& shape);
    ~LatencyProbe();
    LatencyProbe(const LatencyProbe&) = delete;
    LatencyProbe& operator=(const LatencyProbe&) = delete;

    // One round trip, kept unless `warmup`; false once one failed.
    bool roundTrip(bool warmup);
    // Closes the stream; the figures, or nullopt with *error after a failure.
    std::optional<LatencyFigures> finish(std::string* error);

private:
    struct State;
    std::unique_ptr<State> state_;
};

// Sends `total` messages on one QueuesUpstream stream in requests of `batch`, at most
// `window` unanswered; true when every one was stored, else false with *error.
bool produce(kubemq::kubemq::Stub& stub, const std::string& channel, const std::string& body,
             long total, int batch, int window, std::string* error);

// A channel name no earlier run of any benchmark used: `prefix` + pid + time.
std::string uniqueChannel(std::string_view prefix);

// The lines every benchmark prints for (a) and (b). `label` starts each line ("" or
// "floor "), so scripts can tell whose figures they read; `cpuWhat` names what the
// CPU figure covers (empty: no CPU line, e.g. for an external server).
void printThroughput(std::string_view label, const ThroughputFigures& figures,
                     const TrafficShape& shape, std::string_view cpuWhat);
void printLatency(std::string_view label, const LatencyFigures& figures);

// Medians over repeated runs (a run that did not measure a shape adds nothing to it).
struct TrafficMedians {
    std::size_t throughputRuns = 0;
    std::size_t latencyRuns = 0;
    double rate = 0;  // msg/s
    double cpu = 0;   // µs CPU per message
    double p50 = 0;   // µs
    double p99 = 0;
    double sendP50 = 0;
};
TrafficMedians mediansOf(const std::vector<ThroughputFigures>& throughput,
                         const std::vector<LatencyFigures>& latency);
// "median of 5: NAME: throughput ... msg/s (... µs CPU per message); round trip ...".
void printMedians(std::string_view name, const TrafficMedians& medians, bool withCpu);

}  // namespace qs::bench
