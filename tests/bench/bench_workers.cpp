// bench_workers: tasks per second through the embedded broker with the worker
// pool (N workers, batch B, zero work, ack per task), with the event stream on
// (workers, producer and broker observer all pushing, one reader draining
// every 5 ms) and off; the two sides alternate which runs first. "Steady"
// rates stop the clock before the protocol's end-of-run wait can start
// (see runOnce); the rate to the last ack is printed too. Not a test; run it on an optimized
// build:
//   bench_workers [--tasks 200000] [--workers 8] [--batch 50] [--settle each|batch]
//                 [--runs 1] [--ledger] [--only on|off] [--sliced MS]
//                 [--recording [--record-dir DIR]]
// --only runs one side (for profiling it alone, e.g. under perf or callgrind);
// with --recording, the recording's side (events on for both).
// --sliced MS measures both sides inside each run instead: the stream and the
// broker observer are switched on and off every MS milliseconds, and each
// side's rate is its acks over its time. A run's two sides then share the
// same seconds of a noisy machine; whole runs, one after the other, do not.
// --recording compares the run recording on and off instead (events on for
// both; the reader feeds a ledger and, on one side, a RecordingWriter into
// DIR/bench_workers.qsrun, as `queuescope run --record` does), and prints the
// recording's bytes per event and the events it lost (must be 0).
#include <pthread.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bench_stats.h"
#include "broker/broker.h"
#include "common/clock.h"
#include "events/broker_event_sink.h"
#include "events/event_stream.h"
#include "events/ledger.h"
#include "recording/recording_writer.h"
#include "workers/task_producer.h"
#include "workers/worker_pool.h"

namespace {

using qs::bench::median;
using qs::bench::processCpuSeconds;

using Clock = std::chrono::steady_clock;

struct Args {
    int tasks = 200000;
    int workers = 8;
    int batch = 50;
    int runs = 1;
    bool ledger = false;
    int only = -1;           // -1 both, 1 events on only, 0 events off only
    int slicedMs = 0;        // > 0: switch events on and off every slicedMs within each run
    bool recording = false;  // compare the recording on and off (events on for both)
    std::string recordDir = "/tmp";
    qs::workers::SettleMode settle = qs::workers::SettleMode::Each;
};

struct Outcome {
    double seconds = 0;        // first send to the last ack
    double steadySeconds = 0;  // first send to the ack of all but the last workers x batch tasks
    double cpuSeconds = 0;     // user + system CPU of the whole process (broker included)
    double steadyTasks = 0;
    std::uint64_t acked = 0;
    std::uint64_t events = 0;
    std::uint64_t dropped = 0;
    std::uint64_t polls = 0;  // Gets the workers made (how well batches filled)
    // With a recording: what it holds, what it lost, its size and how long
    // closing it took after the run (the writer's backlog).
    std::uint64_t recorded = 0;
    std::uint64_t recordingLost = 0;
    std::uint64_t recordingBytes = 0;
    double closeSeconds = 0;
    double writerCpuSeconds = 0;  // the writer thread's share of cpuSeconds
    double readerCpuSeconds = 0;  // the reader thread's (it encodes for the recording)
    // --sliced: each side's share of the steady part of the run (the first
    // slice, a warm-up, the start of every slice and the slice cut short by
    // the steady point are left out).
    struct Side {
        double seconds = 0;
        double cpuSeconds = 0;
        std::uint64_t acked = 0;
        int slices = 0;
    };
    Side slicedOn, slicedOff;
};

// CPU seconds of this process's thread named `name` (the recording writer
// names its thread "qs-recording"), 0 when there is none. Linux: a thread's
// CPU clock from its id, as clock_getcpuclockid does for a process.
double threadCpuSeconds(const std::string& name) {
    std::error_code ec;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", ec)) {
        std::ifstream commFile(task.path() / "comm");
        std::string comm;
        if (!std::getline(commFile, comm) || comm != name)
            continue;
        const auto tid = static_cast<clockid_t>(std::stol(task.path().filename().string()));
        const clockid_t clock = (~tid << 3) | 6;  // MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED)
        timespec ts{};
        if (clock_gettime(clock, &ts) != 0)
            return 0;
        return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
    }
    return 0;
}

// Events on (stream enabled, broker observed) or off, switchable mid-run.
void setEvents(qs::broker::Broker& broker, qs::EventStream& stream, qs::BrokerEventSink& sink,
               bool on) {
    stream.setEnabled(on);
    broker.setObserver(on ? &sink : nullptr);
}

Outcome runOnce(const Args& args, bool events, bool record = false) {
    qs::broker::BrokerOptions bo;
    bo.bindAddress = "127.0.0.1";
    bo.port = 0;
    qs::broker::Broker broker(bo);
    std::string error;
    if (!broker.start(&error)) {
        std::fprintf(stderr, "broker: %s\n", error.c_str());
        std::exit(3);
    }
    qs::EventStream stream(1u << 20, events);
    qs::BrokerEventSink sink(stream);
    setEvents(broker, stream, sink, events);
    std::unique_ptr<qs::recording::RecordingWriter> writer;
    const std::string recordingPath = args.recordDir + "/bench_workers.qsrun";
    if (record) {
        writer =
            qs::recording::RecordingWriter::create(recordingPath, qs::monotonicNanos(), {}, &error);
        if (!writer) {
            std::fprintf(stderr, "recording: %s\n", error.c_str());
            std::exit(3);
        }
    }
    std::atomic<bool> readerStop{false};
    std::uint64_t drained = 0;
    std::string firstProblem;  // the first Error / SendFailed event, for diagnosis
    std::thread reader([&] {
        pthread_setname_np(pthread_self(), "bench-reader");  // for threadCpuSeconds()
        std::vector<qs::Event> batch;
        qs::Ledger ledger;
        while (!readerStop.load()) {
            batch.clear();
            stream.drain(batch);
            for (const qs::Event& e : batch) {
                if (firstProblem.empty() &&
                    (e.kind == qs::EventKind::Error || e.kind == qs::EventKind::SendFailed))
                    firstProblem =
                        e.actor.str() + ": " + std::string(qs::toString(e.kind)) + ": " + e.detail;
            }
            if (args.ledger)
                ledger.apply(batch);
            drained += batch.size();
            if (writer)
                writer->append(batch);
            // Drain at a cadence, as the product's readers do (the headless
            // recorder every 5 ms, the console once a frame): a reader that
            // spins on a busy stream takes a core's share from the workers.
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        batch.clear();
        stream.drain(batch);
        drained += batch.size();
        if (writer)
            writer->append(batch);
    });

    qs::client::ClientOptions client;
    client.address = broker.address();
    qs::workers::PoolOptions po;
    po.client = client;
    po.channel = "bench";
    po.events = &stream;
    po.seed = 1;
    qs::workers::WorkerConfig wc;
    wc.batchSize = args.batch;
    wc.waitMs = 1000;
    wc.work = qs::workers::WorkProfile::none();
    wc.settle = args.settle;
    qs::workers::WorkerPool pool(po, wc);

    qs::workers::TaskSpec spec;
    spec.channel = "bench";
    spec.count = args.tasks;
    spec.sendBatchSize = 500;
    qs::workers::ProducerOptions prod;
    prod.client = client;
    prod.events = &stream;
    qs::workers::TaskProducer producer(prod, spec);

    if (static_cast<int>(pool.addWorkers(args.workers, &error).size()) != args.workers) {
        std::fprintf(stderr, "workers: %s\n", error.c_str());
        std::exit(3);
    }
    const auto start = Clock::now();
    const double cpuStart = processCpuSeconds();
    if (!producer.start(&error)) {
        std::fprintf(stderr, "producer: %s\n", error.c_str());
        std::exit(3);
    }
    // A Get returns when it has its batch or at its wait timeout (spec
    // §2.8.2, floor 1 s). Once the producer is done, the last tasks can sit
    // split over several waiting Gets, none full, and the run ends one wait
    // timeout later. That wait is the protocol's, not the pool's or the
    // stream's, and it strikes runs at random, on either side: the steady rate
    // stops the clock before it can start (fewer than workers x batch tasks
    // can be held in waiting Gets).
    const auto steadyTarget =
        static_cast<std::uint64_t>(std::max(1, args.tasks - args.workers * args.batch));
    std::optional<Clock::time_point> steadyAt;
    const auto limit = start + std::chrono::minutes(5);
    Outcome out;
    // --sliced: the current slice, its side, when it began and where its
    // measured part began. That part starts kSliceGuard after the switch, so
    // the reader has drained the previous side's events and the workers have
    // finished the batches they began under it.
    constexpr auto kSliceGuard = std::chrono::milliseconds(10);
    const auto slice = std::chrono::milliseconds(args.slicedMs);
    bool sliceOn = events;
    int sliceIndex = 0;
    auto sliceBegan = start;
    bool measuring = false;
    auto measuredFrom = start;
    double sliceCpu = cpuStart;
    std::uint64_t sliceAcked = 0;
    for (std::uint64_t acked = 0;
         (acked = pool.totals().acked) < static_cast<std::uint64_t>(args.tasks) &&
         Clock::now() < limit;) {
        const auto now = Clock::now();
        if (!steadyAt && acked >= steadyTarget)
            steadyAt = now;
        if (args.slicedMs > 0 && !steadyAt) {
            if (!measuring && now - sliceBegan >= kSliceGuard) {
                measuring = true;
                measuredFrom = now;
                sliceCpu = processCpuSeconds();
                sliceAcked = acked;
            }
            if (now - sliceBegan >= slice) {
                if (measuring && sliceIndex > 0) {
                    Outcome::Side& side = sliceOn ? out.slicedOn : out.slicedOff;
                    side.seconds += std::chrono::duration<double>(now - measuredFrom).count();
                    side.cpuSeconds += processCpuSeconds() - sliceCpu;
                    side.acked += acked - sliceAcked;
                    ++side.slices;
                }
                sliceOn = !sliceOn;
                setEvents(broker, stream, sink, sliceOn);
                ++sliceIndex;
                sliceBegan = now;
                measuring = false;
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    const auto end = Clock::now();
    out.seconds = std::chrono::duration<double>(end - start).count();
    out.steadySeconds = std::chrono::duration<double>(steadyAt.value_or(end) - start).count();
    out.steadyTasks = static_cast<double>(steadyTarget);
    out.cpuSeconds = processCpuSeconds() - cpuStart;
    // Both threads started before the run: nearly all of their time is the run's.
    out.readerCpuSeconds = threadCpuSeconds("bench-reader");
    if (writer)
        out.writerCpuSeconds = threadCpuSeconds("qs-recording");
    producer.wait();
    pool.stop();
    out.acked = pool.totals().acked;
    out.polls = pool.totals().polls;
    setEvents(broker, stream, sink, false);
    readerStop = true;
    reader.join();
    out.events = drained;
    if (!firstProblem.empty())
        std::fprintf(stderr, "first problem reported: %s\n", firstProblem.c_str());
    out.dropped = stream.droppedCount();
    broker.stop();
    if (writer) {
        const auto closeStart = Clock::now();
        if (!writer->close(&error))
            std::fprintf(stderr, "recording: %s\n", error.c_str());
        out.closeSeconds = std::chrono::duration<double>(Clock::now() - closeStart).count();
        out.recorded = writer->stats().eventsCommitted;
        out.recordingLost = writer->stats().eventsLost;
        std::error_code ec;
        out.recordingBytes = std::filesystem::file_size(recordingPath, ec);
        std::filesystem::remove(recordingPath, ec);
    }
    return out;
}

// --recording: whole runs in pairs, recording on and off (events on for both),
// alternating which side runs first.
int compareRecording(const Args& args) {
    for (int r = 0; r < args.runs && args.only >= 0; ++r) {
        const bool record = args.only == 1;
        const Outcome one = runOnce(args, true, record);
        std::printf(
            "run %d: recording %s %.0f tasks/s steady (cpu %.1f us/task, writer %.2f, reader "
            "%.2f, %llu events, %llu recorded, %llu lost, close %.2f s)\n",
            r + 1, record ? "on" : "off", one.steadyTasks / one.steadySeconds,
            one.cpuSeconds * 1e6 / args.tasks, one.writerCpuSeconds * 1e6 / args.tasks,
            one.readerCpuSeconds * 1e6 / args.tasks, static_cast<unsigned long long>(one.events),
            static_cast<unsigned long long>(one.recorded),
            static_cast<unsigned long long>(one.recordingLost), one.closeSeconds);
        std::fflush(stdout);
        if (one.acked != static_cast<std::uint64_t>(args.tasks) || one.recordingLost > 0 ||
            (record && one.recorded != one.events)) {
            std::fprintf(stderr, "a task was not acked, or the recording lost events\n");
            return 1;
        }
    }
    if (args.only >= 0)
        return 0;
    std::printf(
        "bench_workers: %d tasks, %d workers, batch %d, zero work, events on, recording "
        "on vs off (%s)\n",
        args.tasks, args.workers, args.batch, args.recordDir.c_str());
    std::vector<double> rateOn, rateOff, overheads, bytesPerEvent, cpuOn, cpuOff, cpuWriter;
    // The recording's own CPU per task: its writer thread, and what the reader
    // spends more with it (the encoding in append()).
    std::vector<double> cpuOwn;
    for (int r = 0; r < args.runs; ++r) {
        const bool onFirst = r % 2 == 0;
        const Outcome first = runOnce(args, true, onFirst);
        const Outcome second = runOnce(args, true, !onFirst);
        const Outcome& on = onFirst ? first : second;
        const Outcome& off = onFirst ? second : first;
        const double overhead = (on.steadySeconds / off.steadySeconds - 1.0) * 100.0;
        const double bytes = on.recorded > 0 ? static_cast<double>(on.recordingBytes) /
                                                   static_cast<double>(on.recorded)
                                             : 0.0;
        std::printf(
            "run %d (%s first): recording on %.0f tasks/s steady (cpu %.1f us/task, writer %.2f, "
            "reader %.2f, %llu events recorded, %llu lost, %.1f bytes/event, close %.2f s) | off "
            "%.0f tasks/s steady (cpu %.1f us/task, reader %.2f) | recording overhead %.1f%%\n",
            r + 1, onFirst ? "on" : "off", on.steadyTasks / on.steadySeconds,
            on.cpuSeconds * 1e6 / args.tasks, on.writerCpuSeconds * 1e6 / args.tasks,
            on.readerCpuSeconds * 1e6 / args.tasks, static_cast<unsigned long long>(on.recorded),
            static_cast<unsigned long long>(on.recordingLost), bytes, on.closeSeconds,
            off.steadyTasks / off.steadySeconds, off.cpuSeconds * 1e6 / args.tasks,
            off.readerCpuSeconds * 1e6 / args.tasks, overhead);
        std::fflush(stdout);
        if (on.acked != static_cast<std::uint64_t>(args.tasks) ||
            off.acked != static_cast<std::uint64_t>(args.tasks) || on.recordingLost > 0 ||
            on.recorded != on.events) {
            std::fprintf(stderr, "a task was not acked, or the recording lost events\n");
            return 1;
        }
        rateOn.push_back(on.steadyTasks / on.steadySeconds);
        rateOff.push_back(off.steadyTasks / off.steadySeconds);
        overheads.push_back(overhead);
        bytesPerEvent.push_back(bytes);
        cpuOn.push_back(on.cpuSeconds * 1e6 / args.tasks);
        cpuOff.push_back(off.cpuSeconds * 1e6 / args.tasks);
        cpuWriter.push_back(on.writerCpuSeconds * 1e6 / args.tasks);
        cpuOwn.push_back((on.writerCpuSeconds + on.readerCpuSeconds - off.readerCpuSeconds) * 1e6 /
                         args.tasks);
    }
    std::printf(
        "median of %zu: recording on %.0f tasks/s steady (cpu %.1f us/task, writer %.2f) | off "
        "%.0f tasks/s steady (cpu %.1f us/task) | recording overhead %.1f%% (per-run median, "
        "steady) | recording's own cpu %.2f us/task (writer + reader on - reader off) | %.1f "
        "bytes/event\n",
        rateOn.size(), median(rateOn), median(cpuOn), median(cpuWriter), median(rateOff),
        median(cpuOff), median(overheads), median(cpuOwn), median(bytesPerEvent));
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Args args;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> const char* {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--tasks")
            args.tasks = std::atoi(next());
        else if (a == "--workers")
            args.workers = std::atoi(next());
        else if (a == "--batch")
            args.batch = std::atoi(next());
        else if (a == "--runs")
            args.runs = std::atoi(next());
        else if (a == "--ledger")
            args.ledger = true;
        else if (a == "--recording")
            args.recording = true;
        else if (a == "--record-dir")
            args.recordDir = next();
        else if (a == "--only") {
            const std::string side = next();
            if (side != "on" && side != "off") {
                std::fprintf(stderr, "--only: on or off\n");
                return 2;
            }
            args.only = side == "on" ? 1 : 0;
        } else if (a == "--sliced") {
            args.slicedMs = std::atoi(next());
            if (args.slicedMs < 10 || args.slicedMs > 10000) {
                std::fprintf(stderr, "--sliced: 10 to 10000 ms\n");
                return 2;
            }
        } else if (a == "--settle") {
            if (!qs::workers::parseSettleMode(next(), &args.settle)) {
                std::fprintf(stderr, "--settle: each or batch\n");
                return 2;
            }
        } else {
            std::fprintf(stderr,
                         "usage: bench_workers [--tasks N] [--workers N] [--batch N] "
                         "[--settle each|batch] [--runs N] [--ledger] [--only on|off] "
                         "[--sliced MS] [--recording [--record-dir DIR]]\n");
            return 2;
        }
    }
    if (args.tasks <= 0 || args.workers <= 0 || args.batch <= 0 || args.runs <= 0) {
        std::fprintf(stderr, "all counts must be > 0\n");
        return 2;
    }
    if (args.recording && args.slicedMs > 0) {
        std::fprintf(stderr, "--recording compares whole runs: no --sliced with it\n");
        return 2;
    }
    if (args.recording)
        return compareRecording(args);
    if (args.slicedMs > 0 && args.only >= 0) {
        std::fprintf(stderr, "--sliced measures both sides: no --only with it\n");
        return 2;
    }
    std::printf("bench_workers: %d tasks, %d workers, batch %d, zero work, settle %s%s\n",
                args.tasks, args.workers, args.batch,
                std::string(qs::workers::toString(args.settle)).c_str(),
                args.ledger ? ", reader feeds a ledger" : "");
    // The end-of-run wait (see runOnce) shows as the last ack coming a wait
    // timeout after the steady point.
    auto waitedAtEnd = [](const Outcome& o) { return o.seconds - o.steadySeconds > 0.5; };
    // Fewer tasks per poll means more round trips per task: a side that
    // slows the workers a little can cost the pool more than its own work.
    auto perPoll = [](const Outcome& o) {
        return o.polls > 0 ? static_cast<double>(o.acked) / static_cast<double>(o.polls) : 0.0;
    };
    for (int r = 0; r < args.runs && args.only >= 0; ++r) {
        const bool events = args.only == 1;
        const Outcome one = runOnce(args, events);
        std::printf(
            "run %d: events %s %.0f tasks/s steady, %.0f to the last ack (%.2f s%s, %llu events, "
            "cpu %.1f us/task, %.1f tasks/poll)\n",
            r + 1, events ? "on" : "off", one.steadyTasks / one.steadySeconds,
            static_cast<double>(one.acked) / one.seconds, one.seconds,
            waitedAtEnd(one) ? ", end-of-run wait" : "",
            static_cast<unsigned long long>(one.events), one.cpuSeconds * 1e6 / args.tasks,
            perPoll(one));
        std::fflush(stdout);
        if (one.acked != static_cast<std::uint64_t>(args.tasks)) {
            std::fprintf(stderr, "not every task was acked (%llu)\n",
                         static_cast<unsigned long long>(one.acked));
            return 1;
        }
    }
    if (args.slicedMs > 0) {
        std::vector<double> rateOn, rateOff, cpuOn, cpuOff, overheads, cpuOverheads;
        for (int r = 0; r < args.runs; ++r) {
            const bool onFirst = r % 2 == 0;  // the side of the first (warm-up) slice
            const Outcome one = runOnce(args, onFirst);
            const Outcome::Side& on = one.slicedOn;
            const Outcome::Side& off = one.slicedOff;
            if (one.acked != static_cast<std::uint64_t>(args.tasks)) {
                std::fprintf(stderr, "not every task was acked (%llu)\n",
                             static_cast<unsigned long long>(one.acked));
                return 1;
            }
            if (on.slices == 0 || off.slices == 0 || on.acked == 0 || off.acked == 0) {
                std::fprintf(stderr,
                             "run %d: too short for slices of %d ms (on %d, off %d slices); "
                             "use more --tasks or shorter --sliced\n",
                             r + 1, args.slicedMs, on.slices, off.slices);
                return 1;
            }
            const double onRate = static_cast<double>(on.acked) / on.seconds;
            const double offRate = static_cast<double>(off.acked) / off.seconds;
            const double onCpu = on.cpuSeconds * 1e6 / static_cast<double>(on.acked);
            const double offCpu = off.cpuSeconds * 1e6 / static_cast<double>(off.acked);
            // The same measure as the whole-run comparison: time per task, on over off.
            const double overhead = (offRate / onRate - 1.0) * 100.0;
            const double cpuOverhead = (onCpu / offCpu - 1.0) * 100.0;
            std::printf(
                "run %d (sliced %d ms, %s first): events on %.0f tasks/s (%d slices, cpu %.1f "
                "us/task) | events off %.0f tasks/s (%d slices, cpu %.1f us/task) | event "
                "overhead %.1f%%, cpu overhead %.1f%%\n",
                r + 1, args.slicedMs, onFirst ? "on" : "off", onRate, on.slices, onCpu, offRate,
                off.slices, offCpu, overhead, cpuOverhead);
            std::fflush(stdout);
            rateOn.push_back(onRate);
            rateOff.push_back(offRate);
            cpuOn.push_back(onCpu);
            cpuOff.push_back(offCpu);
            overheads.push_back(overhead);
            cpuOverheads.push_back(cpuOverhead);
        }
        std::printf(
            "median of %zu (sliced %d ms): events on %.0f tasks/s (cpu %.1f us/task) | events "
            "off %.0f tasks/s (cpu %.1f us/task) | event overhead %.1f%% (per-run median), cpu "
            "overhead %.1f%%\n",
            rateOn.size(), args.slicedMs, median(rateOn), median(cpuOn), median(rateOff),
            median(cpuOff), median(overheads), median(cpuOverheads));
        return 0;
    }
    std::vector<double> steadyOn, steadyOff, lastOn, lastOff, cpuOn, cpuOff, overheads;
    int waits = 0;
    for (int r = 0; r < args.runs && args.only < 0; ++r) {
        // Alternate which side runs first, so a machine that speeds up or
        // slows down during the series does not favour one side.
        const bool onFirst = r % 2 == 0;
        const Outcome first = runOnce(args, onFirst);
        const Outcome second = runOnce(args, !onFirst);
        const Outcome& on = onFirst ? first : second;
        const Outcome& off = onFirst ? second : first;
        const double overhead = (on.steadySeconds / off.steadySeconds - 1.0) * 100.0;
        std::printf(
            "run %d (%s first): events on %.0f tasks/s steady, %.0f to the last ack (%.2f s%s, "
            "%llu events, %llu dropped, cpu %.1f us/task, %.1f tasks/poll) | events off %.0f "
            "tasks/s steady, %.0f to the last ack (%.2f s%s, cpu %.1f us/task, %.1f tasks/poll) "
            "| event overhead %.1f%%\n",
            r + 1, onFirst ? "on" : "off", on.steadyTasks / on.steadySeconds,
            static_cast<double>(on.acked) / on.seconds, on.seconds,
            waitedAtEnd(on) ? ", end-of-run wait" : "", static_cast<unsigned long long>(on.events),
            static_cast<unsigned long long>(on.dropped), on.cpuSeconds * 1e6 / args.tasks,
            perPoll(on), off.steadyTasks / off.steadySeconds,
            static_cast<double>(off.acked) / off.seconds, off.seconds,
            waitedAtEnd(off) ? ", end-of-run wait" : "", off.cpuSeconds * 1e6 / args.tasks,
            perPoll(off), overhead);
        std::fflush(stdout);
        steadyOn.push_back(on.steadyTasks / on.steadySeconds);
        steadyOff.push_back(off.steadyTasks / off.steadySeconds);
        lastOn.push_back(static_cast<double>(on.acked) / on.seconds);
        lastOff.push_back(static_cast<double>(off.acked) / off.seconds);
        cpuOn.push_back(on.cpuSeconds * 1e6 / args.tasks);
        cpuOff.push_back(off.cpuSeconds * 1e6 / args.tasks);
        overheads.push_back(overhead);
        waits += static_cast<int>(waitedAtEnd(on)) + static_cast<int>(waitedAtEnd(off));
        if (on.acked != static_cast<std::uint64_t>(args.tasks) ||
            off.acked != static_cast<std::uint64_t>(args.tasks)) {
            std::fprintf(stderr, "not every task was acked (%llu / %llu)\n",
                         static_cast<unsigned long long>(on.acked),
                         static_cast<unsigned long long>(off.acked));
            return 1;
        }
    }
    if (!steadyOn.empty()) {
        // Medians: single runs on a shared 2-core machine vary by tens of per cent.
        std::printf(
            "median of %zu: events on %.0f tasks/s steady, %.0f to the last ack (cpu %.1f "
            "us/task) | events off %.0f tasks/s steady, %.0f to the last ack (cpu %.1f us/task) | "
            "event overhead %.1f%% (per-run median, steady), cpu overhead %.1f%% | end-of-run "
            "waits in %d of %zu runs\n",
            steadyOn.size(), median(steadyOn), median(lastOn), median(cpuOn), median(steadyOff),
            median(lastOff), median(cpuOff), median(overheads),
            (median(cpuOn) / median(cpuOff) - 1.0) * 100.0, waits, 2 * steadyOn.size());
    }
    return 0;
}
