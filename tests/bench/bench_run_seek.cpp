// bench_run_seek: a Run of 1,000,000 events - append throughput, seek times
// and memory. Not a test; run it on an optimized build:
//   bench_run_seek [--tasks 10000] [--events 1000000] [--seeks 200]
//                  [--intervals 4096,16384,65536] [--repeats 3] [--seed 1]
//                  [--spill DIR]   (the run spills as the console's does: run.md)
//
// The events are real: a pool run is recorded first (the embedded broker
// through its observer, 8 workers at batch 10, 5 % of tasks rejected, every
// 500th task poison and dead-lettered after 3 receives, crashes at 0.2 % per
// task with restarts), and that recording is repeated, shifted in time, until
// the run has --events events. Each copy gets its own MessageIDs,
// transactions and sequences, so it reads as the same pool working through
// the next batch of tasks.
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench_stats.h"
#include "broker/broker.h"
#include "events/broker_event_sink.h"
#include "events/event_stream.h"
#include "events/ledger.h"
#include "run/run.h"
#include "workers/task_producer.h"
#include "workers/worker_pool.h"

namespace {

using Clock = std::chrono::steady_clock;
using qs::bench::median;

struct Args {
    int tasks = 10000;
    std::uint64_t events = 1'000'000;
    int seeks = 200;
    std::vector<std::uint32_t> intervals{4096, 16384, 65536};
    int repeats = 3;
    unsigned seed = 1;
    std::string spillFolder;  // "" = everything in RAM
};

[[noreturn]] void fail(const std::string& what) {
    std::fprintf(stderr, "bench_run_seek: %s\n", what.c_str());
    std::exit(3);
}

double threadCpuSeconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

// Every event of one real pool run, in stream order.
std::vector<qs::Event> recordPoolRun(int tasks) {
    qs::broker::BrokerOptions bo;
    bo.bindAddress = "127.0.0.1";
    bo.port = 0;
    qs::broker::Broker broker(bo);
    std::string error;
    if (!broker.start(&error))
        fail("broker: " + error);
    qs::EventStream stream(1u << 22);
    qs::BrokerEventSink sink(stream);
    broker.setObserver(&sink);

    std::vector<qs::Event> all;
    std::atomic<std::uint64_t> ended{0};
    std::atomic<bool> stop{false};
    std::thread reader([&] {
        qs::Ledger ledger;
        std::vector<qs::Event> batch;
        while (!stop.load()) {
            batch.clear();
            stream.drain(batch);
            ledger.apply(batch);
            all.insert(all.end(), batch.begin(), batch.end());
            const qs::LedgerSummary s = ledger.summary();
            ended = s.count(qs::MessageState::Acked) + s.count(qs::MessageState::DeadLettered);
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    });

    qs::client::ClientOptions client;
    client.address = broker.address();
    qs::workers::PoolOptions po;
    po.client = client;
    po.channel = "bench.run";
    po.events = &stream;
    po.seed = 1;
    qs::workers::WorkerConfig wc;
    wc.batchSize = 10;
    wc.waitMs = 1000;
    wc.work = qs::workers::WorkProfile::none();
    wc.failureRate = 0.05;
    wc.crashRate = 0.002;
    wc.restartDelayMs = 20;
    qs::workers::WorkerPool pool(po, wc);
    qs::workers::TaskSpec spec;
    spec.channel = "bench.run";
    spec.count = tasks;
    spec.sendBatchSize = 500;
    spec.policy.maxReceiveCount = 3;
    spec.policy.deadLetterQueue = "bench.run.dead";
    for (int n = 500; n <= tasks; n += 500)
        spec.poison.push_back(n);
    qs::workers::ProducerOptions prod;
    prod.client = client;
    prod.events = &stream;
    qs::workers::TaskProducer producer(prod, spec);
    if (pool.addWorkers(8, &error).size() != 8)
        fail("workers: " + error);
    if (!producer.start(&error))
        fail("producer: " + error);
    const auto limit = Clock::now() + std::chrono::minutes(5);
    while (ended.load() < static_cast<std::uint64_t>(tasks) && Clock::now() < limit)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    producer.wait();
    pool.stop();
    broker.setObserver(nullptr);
    stop = true;
    reader.join();
    stream.drain(all);
    broker.stop();
    if (ended.load() < static_cast<std::uint64_t>(tasks))
        fail("the recorded run did not finish in 5 minutes");
    if (stream.droppedCount() != 0)
        fail("the recording dropped events");
    return all;
}

// The recording, repeated until `count` events: copy k is shifted by k run
// lengths and gets its own ids (".k"), transactions and sequences.
std::vector<qs::Event> scaleUp(const std::vector<qs::Event>& recorded, std::uint64_t count) {
    std::int64_t first = recorded.front().timeNs;
    std::int64_t last = first;
    std::uint64_t maxSequence = 0;
    for (const qs::Event& e : recorded) {
        last = std::max(last, e.timeNs);
        maxSequence = std::max({maxSequence, e.sequence, static_cast<std::uint64_t>(e.count2)});
    }
    const std::int64_t span = last - first + 1'000'000;
    std::vector<qs::Event> out;
    out.reserve(count);
    for (std::uint64_t copy = 0; out.size() < count; ++copy) {
        const std::string suffix = copy == 0 ? "" : "." + std::to_string(copy);
        for (const qs::Event& e : recorded) {
            if (out.size() == count)
                break;
            qs::Event c = e;
            c.timeNs += static_cast<std::int64_t>(copy) * span;
            if (!e.messageId.empty())
                c.messageId = e.messageId.str() + suffix;
            if (!e.transaction.empty())
                c.transaction = e.transaction.str() + suffix;
            if (e.sequence != 0)
                c.sequence += copy * (maxSequence + 1);
            if (e.kind == qs::EventKind::BrokerNacked && e.count2 > 0)
                c.count2 += static_cast<std::int64_t>(copy * (maxSequence + 1));
            out.push_back(std::move(c));
        }
    }
    return out;
}

void printMix(const std::vector<qs::Event>& events) {
    std::vector<std::uint64_t> byKind(static_cast<std::size_t>(qs::kLastEventKind) + 1);
    for (const qs::Event& e : events)
        ++byKind[static_cast<std::size_t>(e.kind)];
    std::printf("event mix:");
    for (std::size_t k = 0; k < byKind.size(); ++k) {
        if (byKind[k] != 0)
            std::printf(" %s=%llu",
                        std::string(qs::toString(static_cast<qs::EventKind>(k))).c_str(),
                        static_cast<unsigned long long>(byKind[k]));
    }
    std::printf("\n");
}

constexpr std::size_t kPumpBatch = 4096;  // a pump hands over batches

// Seconds of thread CPU to apply everything to a plain Ledger.
double ledgerAloneSeconds(const std::vector<qs::Event>& events) {
    qs::Ledger ledger;
    const double cpu = threadCpuSeconds();
    for (std::size_t at = 0; at < events.size(); at += kPumpBatch)
        ledger.apply(std::span(events).subspan(at, std::min(kPumpBatch, events.size() - at)));
    return threadCpuSeconds() - cpu;
}

double percentile(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    const auto rank = static_cast<std::size_t>(std::max(1.0, std::ceil(p / 100.0 * v.size())));
    return v[std::min(rank, v.size()) - 1];
}

// Seconds of thread CPU to append everything to `run`.
double appendSeconds(qs::Run& run, const std::vector<qs::Event>& events) {
    const double cpu = threadCpuSeconds();
    for (std::size_t at = 0; at < events.size(); at += kPumpBatch)
        run.append(std::span(events).subspan(at, std::min(kPumpBatch, events.size() - at)));
    return threadCpuSeconds() - cpu;
}

void measureRun(const Args& args, const std::vector<qs::Event>& events, std::uint32_t interval) {
    qs::RunModelOptions options;
    options.checkpointInterval = interval;
    options.spill.directory = args.spillFolder;
    const double n = static_cast<double>(events.size());
    // The ledger alone and the run, alternately: the first of each pays for
    // fresh pages from the system, as a new run does; medians of all.
    std::vector<double> ledgerNs;
    std::vector<double> runNs;
    std::unique_ptr<qs::Run> run;
    for (int rep = 0; rep < args.repeats; ++rep) {
        ledgerNs.push_back(ledgerAloneSeconds(events) / n * 1e9);
        run.reset();
        run = std::make_unique<qs::Run>(options);
        runNs.push_back(appendSeconds(*run, events) / n * 1e9);
    }
    const double ledger = median(ledgerNs);
    const double append = median(runNs);

    std::mt19937_64 random(args.seed);
    std::uniform_int_distribution<std::int64_t> pick(run->streamTimeNs(0),
                                                     run->streamTimeNs(run->eventCount() - 1));
    std::vector<double> wallMs;
    std::vector<double> cpuMs;
    std::uint64_t checksum = 0;
    for (int i = 0; i < args.seeks; ++i) {
        const std::int64_t t = pick(random);
        const double c0 = threadCpuSeconds();
        const auto w0 = Clock::now();
        const qs::RunState state = run->stateAt(t);
        wallMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - w0).count());
        cpuMs.push_back((threadCpuSeconds() - c0) * 1e3);
        checksum += state.messages.size() + state.count(qs::MessageState::InFlight);
    }
    const qs::RunMemory m = run->memory();
    std::printf("interval %u: %zu checkpoints, %zu messages\n", interval, run->checkpointCount(),
                run->messageCount());
    std::printf("append: %.0f events/s, %.0f ns/event CPU (runs:", 1e9 / append, append);
    for (double v : runNs)
        std::printf(" %.0f", v);
    std::printf("); ledger alone %.0f ns/event (runs:", ledger);
    for (double v : ledgerNs)
        std::printf(" %.0f", v);
    std::printf("); run overhead %.0f ns/event = %.0f %% of the ledger's\n", append - ledger,
                (append - ledger) / ledger * 100.0);
    std::printf(
        "seek wall ms: p50 %.2f p99 %.2f max %.2f; cpu ms: p50 %.2f p99 %.2f max %.2f "
        "(checksum %llu)\n",
        percentile(wallMs, 50), percentile(wallMs, 99), percentile(wallMs, 100),
        percentile(cpuMs, 50), percentile(cpuMs, 99), percentile(cpuMs, 100),
        static_cast<unsigned long long>(checksum));
    std::printf(
        "memory bytes/event: events %.1f, changes %.1f, message table %.1f, checkpoints "
        "%.1f, time index %.2f, trail %.1f, head ledger %.1f, total %.1f (%.0f MB); "
        "spilled %.1f%s%s\n",
        m.events / n, m.changes / n, m.messages / n, m.checkpoints / n, m.timeIndex / n,
        m.trail / n, m.ledger / n, m.total() / n, m.total() / 1e6,
        static_cast<double>(m.spilled) / n, run->spillProblem().empty() ? "" : "; ",
        run->spillProblem().c_str());
}

std::vector<std::uint32_t> parseIntervals(const std::string& text) {
    std::vector<std::uint32_t> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');) {
        const long value = std::atol(item.c_str());
        if (value <= 0)
            fail("--intervals: positive numbers separated by commas");
        out.push_back(static_cast<std::uint32_t>(value));
    }
    return out;
}

Args parseArgs(int argc, char** argv) {
    Args args;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) {
            std::fprintf(stderr, "%s needs a value\n", a.c_str());
            std::exit(2);
        }
        const char* value = argv[++i];
        if (a == "--tasks")
            args.tasks = std::max(1, std::atoi(value));
        else if (a == "--events")
            args.events = std::max<std::uint64_t>(1, std::strtoull(value, nullptr, 10));
        else if (a == "--seeks")
            args.seeks = std::max(1, std::atoi(value));
        else if (a == "--intervals")
            args.intervals = parseIntervals(value);
        else if (a == "--repeats")
            args.repeats = std::max(1, std::atoi(value));
        else if (a == "--seed")
            args.seed = static_cast<unsigned>(std::atoi(value));
        else if (a == "--spill")
            args.spillFolder = value;
        else {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            std::exit(2);
        }
    }
    return args;
}

}  // namespace

int main(int argc, char** argv) {
    const Args args = parseArgs(argc, argv);
    const auto recordStart = Clock::now();
    const std::vector<qs::Event> recorded = recordPoolRun(args.tasks);
    std::printf("recorded: %d tasks, %zu events in %.1f s\n", args.tasks, recorded.size(),
                std::chrono::duration<double>(Clock::now() - recordStart).count());
    printMix(recorded);
    const std::vector<qs::Event> events = scaleUp(recorded, args.events);
    std::printf("run: %zu events (%.1f copies of the recording)\n", events.size(),
                static_cast<double>(events.size()) / static_cast<double>(recorded.size()));
    for (const std::uint32_t interval : args.intervals)
        measureRun(args, events, interval);
    return 0;
}
