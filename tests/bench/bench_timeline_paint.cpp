// bench_timeline_paint: the assignment timeline's paint alone, on a machine
// shared with others. bench_ui's frame depends on how many events the loaded
// machine let it deliver; this one paints a fixed model: 64 workers' polls and
// hand-outs as at 100,000 events/s (batches of 10, 2 % rejected) for 25 s of
// event time, fed to a TimelineModel once, then the TimelineView
// (1450 x 260, the console's timeline at 1600 x 1000) painted live over the
// last 5 s in 33 ms steps, each with a 20 s span. It prints the UI thread's
// CPU time per paint (median, p99, max): the same work on every run.
// With --detail-bars N the model holds its newest N hand-outs one by one and
// the older ones as its summary, as the live console does (100,000); the
// default, 0, keeps every bar.
//
//   bench_timeline_paint [--paints N] [--span S] [--workers N] [--detail-bars N]
#include <QApplication>
#include <QImage>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "models/timeline_model.h"
#include "widgets/timeline_view.h"

namespace {

std::int64_t threadCpuNs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000LL + ts.tv_nsec;
}

qs::Event make(qs::EventKind kind, std::int64_t t, qs::Name worker) {
    qs::Event e;
    e.timeNs = t;
    e.kind = kind;
    e.source = qs::EventSource::Worker;
    e.actor = worker;
    e.channel = "tasks";
    return e;
}

// Each worker polls for 10, gets them at once, settles them one after the other
// (1-3 ms each) and polls again 12 ms later: a batch every ~33 ms, so 64
// workers hand out ~19,000 tasks/s of 1-20 ms each, as bench_ui's traffic at
// 100,000 events/s does (here without the sends and work ends the timeline
// does not read).
std::vector<qs::Event> traffic(int workers, std::int64_t seconds) {
    std::vector<qs::Event> out;
    std::mt19937 rng(42);
    std::uniform_int_distribution<int> workNs(1'000'000, 3'000'000);
    std::uint64_t next = 0;
    std::vector<std::pair<std::int64_t, int>> clock;  // per worker: its time, its index
    for (int w = 0; w < workers; ++w) {
        clock.emplace_back(1'000'000'000LL + w * 50'000LL, w);
    }
    std::vector<qs::Name> names;
    for (int w = 0; w < workers; ++w) {
        names.emplace_back("worker-" + std::to_string(w + 1));
    }
    const std::int64_t end = 1'000'000'000LL + seconds * 1'000'000'000LL;
    std::vector<qs::Event> batch;
    while (true) {
        auto it = std::min_element(clock.begin(), clock.end());
        std::int64_t t = it->first;
        if (t >= end) {
            break;
        }
        const qs::Name worker = names[static_cast<std::size_t>(it->second)];
        batch.clear();
        qs::Event poll = make(qs::EventKind::PollStarted, t, worker);
        poll.value = 10;
        batch.push_back(poll);
        t += 1'000'000;
        qs::Event ret = make(qs::EventKind::PollReturned, t, worker);
        ret.value = 10;
        batch.push_back(ret);
        std::vector<std::pair<std::string, std::uint64_t>> held;
        for (int i = 0; i < 10; ++i) {
            held.emplace_back("msg-" + std::to_string(++next), next);
            qs::Event a = make(qs::EventKind::MessageAssigned, t, worker);
            a.messageId = held.back().first;
            a.sequence = held.back().second;
            a.receiveCount = 1;
            batch.push_back(a);
        }
        for (const auto& [id, seq] : held) {
            qs::Event ws = make(qs::EventKind::WorkStarted, t, worker);
            ws.messageId = id;
            ws.sequence = seq;
            batch.push_back(ws);
            t += workNs(rng);
            qs::Event settle = ws;
            settle.kind = rng() % 50 == 0 ? qs::EventKind::Rejected : qs::EventKind::Acked;
            settle.timeNs = t;
            batch.push_back(settle);
        }
        it->first = t + 12'000'000;
        out.insert(out.end(), batch.begin(), batch.end());
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const qs::Event& a, const qs::Event& b) { return a.timeNs < b.timeNs; });
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    int paints = 150;
    double span = 20;
    int workers = 64;
    long long detailBars = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--paints")) {
            paints = std::atoi(argv[i + 1]);
        } else if (!std::strcmp(argv[i], "--span")) {
            span = std::atof(argv[i + 1]);
        } else if (!std::strcmp(argv[i], "--workers")) {
            workers = std::atoi(argv[i + 1]);
        } else if (!std::strcmp(argv[i], "--detail-bars")) {
            detailBars = std::atoll(argv[i + 1]);
        } else {
            std::fprintf(stderr, "usage: bench_timeline_paint [--paints N] [--span S] [--workers N] "
                                 "[--detail-bars N]\n");
            return 2;
        }
    }
    if (paints < 1 || span <= 0 || workers < 1 || workers > 1024 || detailBars < 0) {
        std::fprintf(stderr, "bench_timeline_paint: paints and span positive, workers 1 to 1024, "
                             "detail bars 0 or more\n");
        return 2;
    }
    QApplication app(argc, argv);
    const std::vector<qs::Event> events = traffic(workers, 25);
    qs::ui::TimelineModel model;
    model.setDetailBudget(static_cast<std::size_t>(detailBars));
    for (std::size_t i = 0; i < events.size(); i += 3333) {  // the pump's batches at 30 fps
        model.apply(std::vector<qs::Event>(
            events.begin() + static_cast<std::ptrdiff_t>(i),
            events.begin() + static_cast<std::ptrdiff_t>(std::min(events.size(), i + 3333))));
    }
    std::int64_t now = model.lastTimeNs() - 5'000'000'000LL;
    qs::ui::TimelineView view;
    view.resize(1450, 260);
    view.setClock([&now] { return now; });
    view.setSpanSeconds(span);
    view.setModel(&model);
    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    std::vector<double> cpuMs;
    const std::int64_t step = 5'000'000'000LL / paints;
    for (int i = 0; i < paints; ++i, now += step) {
        const std::int64_t cpu0 = threadCpuNs();
        view.render(&image);
        cpuMs.push_back(static_cast<double>(threadCpuNs() - cpu0) / 1e6);
    }
    std::sort(cpuMs.begin(), cpuMs.end());
    const auto pct = [&](double p) {
        return cpuMs[static_cast<std::size_t>(p * static_cast<double>(cpuMs.size() - 1))];
    };
    std::printf("bench_timeline_paint: %zu events, %zu bars (detail budget %lld), %d workers, "
                "span %.1f s, %d paints\n",
                events.size(), model.barCount(), detailBars, workers, span, paints);
    std::printf("paint CPU time: median %.3f ms, p99 %.3f ms, max %.3f ms\n", pct(0.5), pct(0.99),
                cpuMs.back());
    return 0;
}
