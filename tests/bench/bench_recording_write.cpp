// bench_recording_write: the recording writer alone. Hands it N events shaped
// like a full-speed pool's (8 workers, batch 50: a 22-character MessageID, a
// 36-character transaction per batch, per task TaskSent, BrokerStored,
// BrokerDelivered, MessageAssigned, WorkStarted, WorkFinished, Acked,
// BrokerAcked) in batches of 4096, waits until all are committed, then
// closes, and prints the CPU time per event until committed (what a busy run
// pays while it runs: staged blobs, or rows with --rows) and in all (close
// included: staged events become rows there), events per second of wall time
// and bytes per event. Not a test; run it on an optimized build:
//   bench_recording_write [--events 1000000] [--runs 3] [--dir /tmp] [--rows] [--pool-order]
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "bench_stats.h"
#include "recording/recording_writer.h"

namespace {

using Clock = std::chrono::steady_clock;

std::vector<qs::Event> taskEvents(int task) {
    static const qs::EventKind kinds[] = {
        qs::EventKind::TaskSent,        qs::EventKind::BrokerStored, qs::EventKind::BrokerDelivered,
        qs::EventKind::MessageAssigned, qs::EventKind::WorkStarted,  qs::EventKind::WorkFinished,
        qs::EventKind::Acked,           qs::EventKind::BrokerAcked};
    char id[32];
    std::snprintf(id, sizeof id, "NUIDx7Qp3Lk9Zr%08d", task);
    char txn[40];
    std::snprintf(txn, sizeof txn, "5f0c2a9e-1b7d-4c3e-9a8f-%012d", task / 50);
    std::vector<qs::Event> out;
    const std::int64_t t = static_cast<std::int64_t>(task) * 10000;
    for (qs::EventKind k : kinds) {
        qs::Event e;
        e.kind = k;
        e.timeNs = t + static_cast<std::int64_t>(k) * 1000;
        e.source = k >= qs::EventKind::BrokerStored && k != qs::EventKind::MessageAssigned &&
                           k != qs::EventKind::WorkStarted && k != qs::EventKind::WorkFinished &&
                           k != qs::EventKind::Acked
                       ? qs::EventSource::Broker
                       : qs::EventSource::Worker;
        e.actor = qs::Name("worker-" + std::to_string(task / 50 % 8 + 1));
        e.channel = qs::Name("bench");
        e.messageId = id;
        e.sequence = static_cast<std::uint64_t>(task) + 1;
        e.receiveCount = 1;
        if (k != qs::EventKind::TaskSent && k != qs::EventKind::BrokerStored)
            e.transaction = txn;
        if (k == qs::EventKind::WorkFinished)
            e.value = 1200;
        out.push_back(e);
    }
    return out;
}

// --pool-order: the same events in the order a full-speed pool's stream
// delivers them (docs/recording.md, "Figures"): per batch of 50 tasks, the
// producer's 50 sends and the broker's 50 stores, the 50 hand-outs and 50
// assignments to the batch's worker, then per task its start, finish and
// ack, then the broker's 50 acks. Consecutive events then mostly name
// different messages, as in a real run.
std::vector<qs::Event> batchEvents(int firstTask) {
    std::vector<std::vector<qs::Event>> tasks;
    for (int task = firstTask; task < firstTask + 50; ++task)
        tasks.push_back(taskEvents(task));
    std::vector<qs::Event> out;
    auto all = [&](int k) {
        for (auto& t : tasks)
            out.push_back(t[static_cast<std::size_t>(k)]);
    };
    all(0);  // TaskSent
    all(1);  // BrokerStored
    all(2);  // BrokerDelivered
    all(3);  // MessageAssigned
    for (auto& t : tasks)
        out.insert(out.end(), t.begin() + 4, t.begin() + 7);  // started, finished, acked
    all(7);                                                   // BrokerAcked
    return out;
}

double threadlessCpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
    int events = 1000000;
    int runs = 3;
    std::string dir = "/tmp";
    bool poolOrder = false;
    qs::recording::RecordingWriterOptions options;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--rows")
            options.stageAtEvents = 0;
        else if (a == "--pool-order")
            poolOrder = true;
        else if (i + 1 < argc && a == "--events")
            events = std::atoi(argv[++i]);
        else if (i + 1 < argc && a == "--runs")
            runs = std::atoi(argv[++i]);
        else if (i + 1 < argc && a == "--dir")
            dir = argv[++i];
        else {
            std::fprintf(stderr,
                         "usage: bench_recording_write [--events N] [--runs N] [--dir D] [--rows] "
                         "[--pool-order]\n");
            return 2;
        }
    }
    // Built up front: the run measures the writer, not the making of events.
    std::vector<std::vector<qs::Event>> batches(1);
    for (int task = 0;
         static_cast<int>(batches.size() - 1) * 4096 + static_cast<int>(batches.back().size()) <
         events;
         task += poolOrder ? 50 : 1) {
        for (qs::Event& e : poolOrder ? batchEvents(task) : taskEvents(task)) {
            if (batches.back().size() == 4096)
                batches.emplace_back();
            batches.back().push_back(std::move(e));
        }
    }
    std::vector<double> cpuNs, committedNs, rates, bytes;
    const std::string path = dir + "/bench_recording_write.qsrun";
    for (int r = 0; r < runs; ++r) {
        std::vector<std::vector<qs::Event>> work = batches;
        std::string error;
        const double cpu0 = threadlessCpuSeconds();
        const auto t0 = Clock::now();
        auto writer = qs::recording::RecordingWriter::create(path, 0, options, &error);
        if (!writer) {
            std::fprintf(stderr, "%s\n", error.c_str());
            return 3;
        }
        std::uint64_t handed = 0;
        for (auto& b : work) {
            handed += b.size();
            writer->append(b);
        }
        while (writer->stats().eventsCommitted < handed && writer->stats().error.empty())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        const double committedCpu = threadlessCpuSeconds() - cpu0;
        const std::uint64_t staged = writer->stats().eventsStaged;
        if (!writer->close(&error)) {
            std::fprintf(stderr, "%s\n", error.c_str());
            return 3;
        }
        const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
        const double cpu = threadlessCpuSeconds() - cpu0;
        const auto st = writer->stats();
        const double size = static_cast<double>(std::filesystem::file_size(path));
        std::printf(
            "run %d: %llu events in %.2f s (%.0f events/s), cpu %.0f ns/event until committed "
            "(%llu staged), %.0f ns/event in all, %.1f bytes/event, lost %llu\n",
            r + 1, static_cast<unsigned long long>(st.eventsCommitted), wall,
            static_cast<double>(handed) / wall, committedCpu * 1e9 / static_cast<double>(handed),
            static_cast<unsigned long long>(staged), cpu * 1e9 / static_cast<double>(handed),
            size / static_cast<double>(st.eventsCommitted),
            static_cast<unsigned long long>(st.eventsLost));
        cpuNs.push_back(cpu * 1e9 / static_cast<double>(handed));
        committedNs.push_back(committedCpu * 1e9 / static_cast<double>(handed));
        rates.push_back(static_cast<double>(handed) / wall);
        bytes.push_back(size / static_cast<double>(st.eventsCommitted));
        std::filesystem::remove(path);
    }
    std::printf(
        "median of %d: %.0f events/s, cpu %.0f ns/event until committed, %.0f ns/event in all, "
        "%.1f bytes/event\n",
        runs, qs::bench::median(rates), qs::bench::median(committedNs), qs::bench::median(cpuNs),
        qs::bench::median(bytes));
    return 0;
}
