// bench_events: the event path alone, without gRPC or a broker. Producer
// threads build worker-like events (actor, channel, a 22-character MessageID,
// a 36-character TransactionId) in groups and push each group into one
// EventStream; one reader drains it every 5 ms and reads every event, as the
// headless recorder does. The same work with the stream disabled (events
// built and destroyed by the producers, nothing stored or read) separates the
// cost of building events from the cost of the stream and its reader.
//
// bench_workers measures the event stream inside a whole run, where the
// machine's noise is several times the stream's cost; this one measures the
// path itself, in CPU nanoseconds per event.
//
// The producers keep to a total rate (default 720,000 events/s, what
// bench_workers' pool produces with events on: ~90,000 tasks/s x 8 events),
// so the reader keeps up as it does in a real run; --rate 0 lets them run
// flat out, which measures a backlog instead (the buffer grows to millions
// of events and its regrowth dominates).
//
//   bench_events [--producers 8] [--events 1000000] [--group 50] [--rate 720000] [--runs 5]

#include <sys/resource.h>
#include <sys/time.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "bench_stats.h"
#include "events/event.h"
#include "events/event_stream.h"

namespace {

using qs::bench::median;
using qs::bench::processCpuSeconds;

using Clock = std::chrono::steady_clock;

struct Args {
    int producers = 8;
    long long events = 1000000;  // in all, over the producers
    int group = 50;
    long long rate = 720000;  // events/s over all producers; 0 = flat out
    int runs = 5;
};

struct Outcome {
    double cpuNsPerEvent = 0;
    double wallNsPerEvent = 0;
    std::uint64_t read = 0;
    std::uint64_t dropped = 0;
};

Outcome runOnce(const Args& args, bool streamOn) {
    // Room for every event: a drop would skip the reader's share of the cost.
    qs::EventStream stream(static_cast<std::size_t>(args.events), streamOn);
    const auto perProducer = static_cast<std::uint64_t>(args.events / args.producers);
    std::atomic<bool> stop{false};
    std::uint64_t read = 0;
    std::uint64_t acked = 0;  // something the reader computes from every event
    std::thread reader([&] {
        std::vector<qs::Event> batch;
        auto drain = [&] {
            batch.clear();
            stream.drain(batch);
            for (const qs::Event& e : batch) {
                acked += e.kind == qs::EventKind::Acked ? 1 : 0;
                read += e.kind != qs::EventKind::EventsDropped ? 1 : 0;
            }
        };
        while (!stop.load()) {
            drain();
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        drain();
    });

    const double cpuStart = processCpuSeconds();
    const auto start = Clock::now();
    std::vector<std::thread> producers;
    for (int p = 0; p < args.producers; ++p) {
        producers.emplace_back([&, p] {
            const std::string actor = "worker-" + std::to_string(p + 1);
            const std::string channel = "bench";
            const std::string transaction = "3f2b6c1e-9a4d-4e8b-b1f7-0c5d2e8a9b41";
            std::string messageId = "Gh5kLm2nPq8rSt1uVw3x00";
            const qs::EventKind kinds[] = {qs::EventKind::MessageAssigned,
                                           qs::EventKind::WorkStarted, qs::EventKind::WorkFinished,
                                           qs::EventKind::Acked};
            std::vector<qs::Event> staged;
            // Each producer sends its share of the rate, one group at a time.
            const auto groupEvery = std::chrono::nanoseconds(
                args.rate > 0 ? static_cast<std::int64_t>(1e9 * args.group * args.producers /
                                                          static_cast<double>(args.rate))
                              : 0);
            auto due = Clock::now();
            for (std::uint64_t i = 0; i < perProducer; ++i) {
                qs::Event& e = staged.emplace_back();
                e.timeNs = static_cast<std::int64_t>(i);
                e.kind = kinds[i % 4];
                e.source = qs::EventSource::Worker;
                e.actor = actor;
                e.channel = channel;
                messageId[20] = static_cast<char>('A' + (i / 4) % 26);
                messageId[21] = static_cast<char>('a' + (i / 104) % 26);
                e.messageId = messageId;
                e.sequence = i / 4;
                e.receiveCount = 1;
                e.transaction = transaction;
                if (staged.size() == static_cast<std::size_t>(args.group)) {
                    stream.push(staged);  // leaves it empty (cleared when the stream is off)
                    if (groupEvery.count() > 0) {
                        due += groupEvery;
                        std::this_thread::sleep_until(due);
                    }
                }
            }
            stream.push(staged);
            staged.clear();
        });
    }
    for (auto& t : producers)
        t.join();
    stop = true;
    reader.join();
    const auto end = Clock::now();
    const double cpu = processCpuSeconds() - cpuStart;
    const auto total =
        static_cast<double>(perProducer * static_cast<std::uint64_t>(args.producers));
    Outcome out;
    out.cpuNsPerEvent = cpu * 1e9 / total;
    out.wallNsPerEvent = std::chrono::duration<double, std::nano>(end - start).count() / total;
    out.read = read;
    out.dropped = stream.droppedCount();
    if (streamOn &&
        read + out.dropped != perProducer * static_cast<std::uint64_t>(args.producers)) {
        std::fprintf(stderr, "events lost: read %llu, dropped %llu\n",
                     static_cast<unsigned long long>(read),
                     static_cast<unsigned long long>(out.dropped));
        std::exit(1);
    }
    if (streamOn && acked == 0)
        std::fprintf(stderr, "the reader saw no Acked event\n");
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    Args args;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) {
            std::fprintf(stderr,
                         "usage: bench_events [--producers N] [--events N] [--group N] "
                         "[--rate EVENTS_PER_S] [--runs N]\n");
            return 2;
        }
        const char* text = argv[++i];
        char* end = nullptr;
        errno = 0;
        const long long value = std::strtoll(text, &end, 10);
        if (end == text || *end != '\0' || errno != 0) {
            std::fprintf(stderr, "%s: '%s' is not a whole number\n", a.c_str(), text);
            return 2;
        }
        // Out-of-range values are refused below; clamp first so the casts are defined.
        const int small = static_cast<int>(std::clamp<long long>(value, -1, 2000000));
        if (a == "--producers")
            args.producers = small;
        else if (a == "--events")
            args.events = value;
        else if (a == "--group")
            args.group = small;
        else if (a == "--rate")
            args.rate = value;
        else if (a == "--runs")
            args.runs = small;
        else {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            return 2;
        }
    }
    if (args.producers <= 0 || args.producers > 256 || args.events < args.producers ||
        args.events > 100000000 || args.group <= 0 || args.group > 1000000 || args.runs <= 0 ||
        args.runs > 1000 || args.rate < 0) {
        std::fprintf(stderr,
                     "out of range: producers 1-256, events producers-100000000, group "
                     "1-1000000, runs 1-1000, rate >= 0\n");
        return 2;
    }
    std::printf(
        "bench_events: %lld events, %d producers, groups of %d, %lld events/s (0 = flat out), "
        "sizeof(Event) %zu\n",
        args.events, args.producers, args.group, args.rate, sizeof(qs::Event));
    std::vector<double> on, off, wallOn, wallOff;
    for (int r = 0; r < args.runs; ++r) {
        const bool onFirst = r % 2 == 0;  // alternate, so drift favours neither side
        const Outcome first = runOnce(args, onFirst);
        const Outcome second = runOnce(args, !onFirst);
        const Outcome& a = onFirst ? first : second;
        const Outcome& b = onFirst ? second : first;
        std::printf(
            "run %d: stream on %.0f ns cpu/event (%.0f wall, %llu read, %llu dropped) | "
            "stream off (build + destroy only) %.0f ns cpu/event (%.0f wall)\n",
            r + 1, a.cpuNsPerEvent, a.wallNsPerEvent, static_cast<unsigned long long>(a.read),
            static_cast<unsigned long long>(a.dropped), b.cpuNsPerEvent, b.wallNsPerEvent);
        std::fflush(stdout);
        on.push_back(a.cpuNsPerEvent);
        off.push_back(b.cpuNsPerEvent);
        wallOn.push_back(a.wallNsPerEvent);
        wallOff.push_back(b.wallNsPerEvent);
    }
    std::printf(
        "median of %d: stream on %.0f ns cpu/event (%.0f wall) | off %.0f ns cpu/event (%.0f "
        "wall) | the stream and its reader add %.0f ns cpu/event\n",
        args.runs, median(on), median(wallOn), median(off), median(wallOff),
        median(on) - median(off));
    return 0;
}
