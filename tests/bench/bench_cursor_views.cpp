// bench_cursor_views: what moving the time cursor costs the timeline, the
// charts and the Channels view (docs/ui.md, "Time travel"): a synthetic
// 100,000-event run (8 workers, batches of 10, 5 % rejects redelivered to
// another worker, a crash every 2,000 tasks), then
//  - a rebuild at 100 random instants (a jump or a move back): TimelineAtCursor
//    with the 60 s window the console uses for a 20 s span, ChartsAtCursor
//    from the run's start, and Run::stateAt (the cursor's state, which the
//    Channels view reads);
//  - playback at 16x: steps of 16/30 s from the start to the end, each fed
//    forward only.
// Prints the UI thread's CPU time per move (median, p99, max) in ms.
//
//   bench_cursor_views [--events N] [--seeks N] [--seed N]
#include <time.h>

#include <QCoreApplication>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bench_stats.h"
#include "models/charts_at_cursor.h"
#include "models/timeline_at_cursor.h"
#include "run/run.h"

using namespace qs;
using namespace qs::ui;

namespace {

double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

Event event(std::int64_t t, EventKind kind, const std::string& actor, const std::string& id,
            int receive = 0) {
    Event e;
    e.timeNs = t;
    e.kind = kind;
    e.source = actor == "producer" ? EventSource::Producer : EventSource::Worker;
    e.actor = actor;
    e.channel = "tasks";
    e.messageId = id;
    e.receiveCount = receive;
    return e;
}

// Tasks sent at 250/s, each handed out in a poll of 10 to one of 8 workers,
// worked 50-300 ms and acked; 5 % rejected once and redelivered to the next
// worker. Events in time order (a stream's order), `count` of them.
std::vector<Event> syntheticRun(std::size_t count, std::mt19937& rng) {
    std::vector<Event> v;
    v.reserve(count + 64);
    const std::int64_t origin = 1'000'000'000'000LL;
    std::uniform_int_distribution<int> work(50, 300);
    std::uniform_int_distribution<int> percent(0, 99);
    struct Pending {
        std::int64_t t;
        Event e;
    };
    std::vector<Pending> later;
    for (std::size_t task = 0; v.size() + later.size() < count; ++task) {
        const std::int64_t sent = origin + static_cast<std::int64_t>(task) * 4'000'000;
        const std::string id = "task-" + std::to_string(task);
        const std::string worker = "worker-" + std::to_string(1 + (task / 10) % 8);
        later.push_back({sent, event(sent, EventKind::TaskSent, "producer", id)});
        const std::int64_t handed = sent + 20'000'000;
        if (task % 10 == 0) {
            later.push_back({handed - 1, event(handed - 1, EventKind::PollStarted, worker, {})});
            Event got = event(handed, EventKind::PollReturned, worker, {});
            got.value = 10;
            later.push_back({handed, got});
        }
        later.push_back({handed, event(handed, EventKind::MessageAssigned, worker, id, 1)});
        const std::int64_t done = handed + work(rng) * 1'000'000LL;
        if (percent(rng) < 5) {
            later.push_back({done, event(done, EventKind::Rejected, worker, id, 1)});
            const std::string next = "worker-" + std::to_string(1 + (task / 10 + 1) % 8);
            const std::int64_t again = done + 30'000'000;
            later.push_back({again, event(again, EventKind::MessageAssigned, next, id, 2)});
            const std::int64_t end = again + work(rng) * 1'000'000LL;
            later.push_back({end, event(end, EventKind::Acked, next, id, 2)});
        } else {
            later.push_back({done, event(done, EventKind::Acked, worker, id, 1)});
        }
        if (task % 2000 == 1999) {
            const std::int64_t crash = done + 1'000'000;
            later.push_back({crash, event(crash, EventKind::WorkerCrashed, worker, {})});
            later.push_back({crash + 5'000'000,
                             event(crash + 5'000'000, EventKind::WorkerReconnected, worker, {})});
        }
    }
    std::stable_sort(later.begin(), later.end(),
                     [](const Pending& a, const Pending& b) { return a.t < b.t; });
    for (std::size_t i = 0; i < std::min(count, later.size()); ++i) {
        v.push_back(later[i].e);
    }
    return v;
}

void report(const char* what, std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    const double p99 = ms[std::min(ms.size() - 1, ms.size() * 99 / 100)];
    std::printf("%-44s n=%-5zu median %8.3f  p99 %8.3f  max %8.3f ms\n", what, ms.size(),
                bench::median(ms), p99, ms.back());
}

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    std::size_t events = 100'000;
    int seeks = 100;
    unsigned seed = 7;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--events") == 0) {
            events = std::strtoull(argv[i + 1], nullptr, 10);
        } else if (std::strcmp(argv[i], "--seeks") == 0) {
            seeks = std::atoi(argv[i + 1]);
        } else if (std::strcmp(argv[i], "--seed") == 0) {
            seed = static_cast<unsigned>(std::strtoul(argv[i + 1], nullptr, 10));
        }
    }
    std::mt19937 rng(seed);
    Run run;
    run.append(syntheticRun(events, rng));
    const std::int64_t start = run.streamTimeNs(0);
    const std::int64_t head = run.streamTimeNs(run.eventCount() - 1);
    std::printf("run: %llu events, %zu messages, %.1f s\n",
                static_cast<unsigned long long>(run.eventCount()), run.messageCount(),
                static_cast<double>(head - start) / 1e9);
    const std::int64_t lookBack = 60'000'000'000LL;  // 3 x the timeline's 20 s span
    std::uniform_int_distribution<std::int64_t> instant(start, head);
    std::vector<double> timeline;
    std::vector<double> charts;
    std::vector<double> state;
    for (int i = 0; i < seeks; ++i) {
        const std::int64_t t = instant(rng);
        TimelineAtCursor tl;
        ChartsAtCursor ch;
        double t0 = threadCpuMs();
        tl.showAt(run, t, lookBack);
        double t1 = threadCpuMs();
        ch.showAt(run, "tasks", t);
        double t2 = threadCpuMs();
        const RunState s = run.stateAt(t);
        double t3 = threadCpuMs();
        timeline.push_back(t1 - t0);
        charts.push_back(t2 - t1);
        state.push_back(t3 - t2);
        if (s.events == 0 && tl.model().lanes().empty() && ch.model().buckets().empty()) {
            std::printf("(empty at %lld)\n", static_cast<long long>(t - start));
        }
    }
    report("rebuild: timeline (60 s window)", timeline);
    report("rebuild: charts (from the run's start)", charts);
    report("rebuild: Run::stateAt (Channels view)", state);
    std::vector<double> total;
    for (std::size_t i = 0; i < timeline.size(); ++i) {
        total.push_back(timeline[i] + charts[i] + state[i]);
    }
    report("rebuild: all three", total);

    TimelineAtCursor tl;
    ChartsAtCursor ch;
    std::vector<double> steps;
    const std::int64_t step = 16'000'000'000LL / 30;
    for (std::int64_t t = start; t <= head; t += step) {
        const double t0 = threadCpuMs();
        tl.showAt(run, t, lookBack);
        ch.showAt(run, "tasks", t);
        const RunState s = run.stateAt(t);
        steps.push_back(threadCpuMs() - t0);
        if (t > start && (!tl.lastWasIncremental() || !ch.lastWasIncremental())) {
            std::printf("a playback step was not incremental\n");
            return 1;
        }
    }
    report("16x playback step: all three", steps);
    return 0;
}
