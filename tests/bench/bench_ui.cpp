// bench_ui: feeds the console's models and views 20,000 events/s (8 workers by default,
// batches of 10, occasional NAcks and crashes) for 10 s, offscreen, through
// the same event pump the live console uses, and reports the UI thread's time
// per frame (median, p99, max; wall clock and the thread's CPU time) and the
// process's peak memory (VmHWM). A frame is what the console does per tick:
// the coalesced batch through its sinks, as the pump's timer hands it over
// (EventPump::deliverLive), then the event loop (the views' timers, layout
// and painting of the visible views: timeline, charts, table). The run sink
// tells the views of the batch before, which the core took in on the run's
// ingest thread while the UI thread slept, waiting for it if it is not done:
// that wait is frame work too. The core's time on that thread is printed
// apart ("ingest thread").
//
// With --record DIR the console's RunRecorder records the run into DIR (its
// sink then shows as "recording": the UI thread's copy into the writer).
//
//   bench_ui [--rate EVENTS_PER_S] [--seconds S] [--fps N] [--workers N] [--record DIR]
//            [--keep-in-ram 1]   (the run keeps every event in RAM: no spill file)
//            [--timeline-bars N] (hand-outs the live timeline holds one by one; 0 = all)
//            [--table-rows N]    (rows of the message table while live; 0 = every task)
//            [--screenshot PNG]  (the window at the end, to look at)
//            [--slow-frames MS]  (each frame over MS of UI-thread CPU: its models' time, the
//                                 core's Run::append of the batch told (ingest thread), and
//                                 the event loop's biggest items: each event it dispatched
//                                 and each widget's paint)
//
// It also prints the resident memory at 10 s and at the end: issue #19 asks
// for 64 workers at 100,000 events/s for 60 s to stay within +10 % of it.
#include <QAbstractSeries>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QElapsedTimer>
#include <QFile>
#include <QGraphicsScene>
#include <QLabel>
#include <QThread>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "common/clock.h"
#include "controllers/console_run.h"
#include "controllers/event_pump.h"
#include "controllers/run_recorder.h"
#include "main_window.h"
#include "models/event_log_model.h"
#include "models/message_table_model.h"
#include "run/run.h"

namespace {

using qs::Event;
using qs::EventKind;
using qs::EventSource;

std::int64_t threadCpuNs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000LL + ts.tv_nsec;
}

// A "Vm...:" figure of /proc/self/status in kB (-1 when it cannot be read).
long statusKb(const char* field) {
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly)) {
        return -1;
    }
    const QByteArray name(field);
    for (const QByteArray& line : f.readAll().split('\n')) {
        if (line.startsWith(name)) {
            return line.mid(name.size()).trimmed().split(' ').first().toLong();
        }
    }
    return -1;
}

// With --slow-frames, what the event loop spent its time on in a frame: each
// event the loop dispatched (its kind and receiver), without the paints it
// set off, and each widget's paint. The split that says which periodic work
// lands in a slow frame. Wall time: a loaded machine inflates it.
class TimedApplication : public QApplication {
public:
    using QApplication::QApplication;

    void setTiming(bool on) { timing_ = on; }
    // Time per label since the last call, then cleared.
    std::map<QString, qint64> take() { return std::exchange(spent_, {}); }

    bool notify(QObject* receiver, QEvent* event) override {
        const bool outer = depth_ == 0;
        const bool paint = event->type() == QEvent::Paint;
        if (!timing_ || (!outer && !paint)) {
            return QApplication::notify(receiver, event);
        }
        // Named before: the event may delete its receiver (DeferredDelete).
        const QString what = label(receiver, event, outer);
        QElapsedTimer clock;
        clock.start();
        const qint64 paintedBefore = paintedNs_;
        ++depth_;
        const bool done = QApplication::notify(receiver, event);
        --depth_;
        const qint64 ns = clock.nsecsElapsed();
        if (paint) {
            paintedNs_ += ns;
            spent_[what] += ns;
        } else {
            // Without the paints it set off (listed on their own): a chart's
            // scene update, say, may paint the whole window on the spot.
            spent_[what] += ns - (paintedNs_ - paintedBefore);
        }
        return done;
    }

private:
    static QString label(QObject* receiver, QEvent* event, bool outer) {
        const QObject* parent = receiver->parent();
        QString who = QString::fromLatin1(receiver->metaObject()->className());
        if (const auto* timer = qobject_cast<QTimer*>(receiver)) {
            who = QStringLiteral("QTimer %1 ms of %2")
                      .arg(timer->interval())
                      .arg(QString::fromLatin1(parent ? parent->metaObject()->className() : "-"));
        } else if (const auto* scene = qobject_cast<QGraphicsScene*>(receiver);
                   scene != nullptr && !scene->views().isEmpty()) {
            // A chart's scene: named by the chart's first series.
            if (const auto* view = qobject_cast<QChartView*>(scene->views().first());
                view != nullptr && !view->chart()->series().isEmpty()) {
                who += QStringLiteral(" of a ") + QString::fromLatin1(
                    view->chart()->series().first()->metaObject()->className());
            }
        } else if (const auto* text = qobject_cast<QLabel*>(receiver)) {
            who += QStringLiteral(" \"%1\"").arg(text->text().left(24));
        } else if (receiver->inherits("QScrollBar") && parent != nullptr &&
                   parent->parent() != nullptr) {
            // In a scroll area's container: named by the area.
            who += QStringLiteral(" of ") +
                   QString::fromLatin1(parent->parent()->metaObject()->className()) +
                   QLatin1Char(' ') + parent->parent()->objectName();
        } else if (receiver->objectName() == QLatin1String("qt_scrollarea_viewport") &&
                   parent != nullptr && parent->parent() != nullptr) {
            // A scroll area's viewport: named by the area and the area's owner.
            who = QString::fromLatin1(parent->metaObject()->className()) +
                  QStringLiteral(" viewport in ") +
                  QString::fromLatin1(parent->parent()->metaObject()->className());
        } else if (!receiver->objectName().isEmpty()) {
            who += QLatin1Char(' ') + receiver->objectName();
        } else if (who == QLatin1String("QWidget") && parent != nullptr) {
            who = QString::fromLatin1(parent->metaObject()->className()) +
                  QStringLiteral(" viewport");
        }
        const QString kind = event->type() == QEvent::Paint ? QStringLiteral("paint")
                                                            : QString::number(int(event->type()));
        return (outer && event->type() != QEvent::Paint ? QStringLiteral("loop ")
                                                          : QStringLiteral("  ")) +
               kind + QLatin1Char(' ') + who;
    }

    bool timing_ = false;
    int depth_ = 0;
    qint64 paintedNs_ = 0;  // every paint's time so far
    std::map<QString, qint64> spent_;
};

double mib(long kb) {
    return static_cast<double>(kb) / 1024.0;
}

// Synthetic but protocol-shaped traffic: what N competing workers emit.
class Traffic {
public:
    explicit Traffic(int workers) : workers_(static_cast<std::size_t>(workers)) {
        for (std::size_t i = 0; i < workers_.size(); ++i) {
            workers_[i].id = "worker-" + std::to_string(i + 1);
        }
    }

    // Appends about `count` events stamped between t0 and t1.
    void generate(std::int64_t t0, std::int64_t t1, std::size_t count, std::vector<Event>& out) {
        const std::size_t start = out.size();
        std::size_t w = 0;
        while (out.size() - start < count) {
            Worker& wk = workers_[w++ % workers_.size()];
            const std::int64_t t =
                t0 + static_cast<std::int64_t>((t1 - t0) * (double(out.size() - start) / count));
            step(wk, t, out);
        }
    }

private:
    struct Held {
        std::string id;
        std::uint64_t seq;
        int receives;
    };
    struct Worker {
        std::string id;
        std::vector<Held> batch;
        std::size_t next = 0;
    };

    Event make(EventKind kind, std::int64_t t, const Worker& w) {
        Event e;
        e.timeNs = t;
        e.kind = kind;
        e.source = EventSource::Worker;
        e.actor = w.id;
        e.channel = "tasks";
        return e;
    }

    void step(Worker& w, std::int64_t t, std::vector<Event>& out) {
        if (w.next >= w.batch.size()) {
            // New poll: the producer sends 10 tasks (or old rejected ones come back), worker takes
            // them.
            w.batch.clear();
            w.next = 0;
            Event poll = make(EventKind::PollStarted, t, w);
            poll.value = 10;
            out.push_back(poll);
            Event ret = make(EventKind::PollReturned, t + 1000, w);
            ret.value = 10;
            out.push_back(ret);
            for (int i = 0; i < 10; ++i) {
                Held h;
                if (!returned_.empty()) {
                    h = returned_.back();
                    returned_.pop_back();
                } else {
                    h = {"msg-" + std::to_string(++nextId_), ++seq_, 0};
                    Event sent;
                    sent.timeNs = t;
                    sent.kind = EventKind::TaskSent;
                    sent.source = EventSource::Producer;
                    sent.actor = "producer";
                    sent.channel = "tasks";
                    sent.messageId = h.id;
                    sent.count2 = static_cast<std::int64_t>(nextId_);
                    out.push_back(sent);
                }
                ++h.receives;
                Event a = make(EventKind::MessageAssigned, t + 1000, w);
                a.messageId = h.id;
                a.sequence = h.seq;
                a.receiveCount = h.receives;
                out.push_back(a);
                if (h.receives > 1) {
                    Event r = a;
                    r.kind = EventKind::Redelivered;
                    out.push_back(r);
                }
                w.batch.push_back(h);
            }
            return;
        }
        Held& h = w.batch[w.next++];
        if (rng_() % 4000 == 0) {  // now and then a worker crashes mid-batch
            Event c = make(EventKind::WorkerCrashed, t, w);
            c.value = static_cast<std::int64_t>(w.batch.size() - w.next + 1);
            out.push_back(c);
            for (std::size_t i = w.next - 1; i < w.batch.size(); ++i) {
                returned_.push_back(w.batch[i]);
            }
            w.next = w.batch.size();
            Event back = make(EventKind::WorkerReconnected, t + 1, w);
            out.push_back(back);
            return;
        }
        Event ws = make(EventKind::WorkStarted, t, w);
        ws.messageId = h.id;
        ws.sequence = h.seq;
        out.push_back(ws);
        Event wf = ws;
        wf.kind = EventKind::WorkFinished;
        wf.timeNs = t + 200'000;
        out.push_back(wf);
        Event settle = wf;
        if (rng_() % 50 == 0 && h.receives < 3) {
            settle.kind = EventKind::Rejected;
            returned_.push_back({h.id, ++seq_, h.receives});
        } else {
            settle.kind = EventKind::Acked;
        }
        settle.timeNs = t + 250'000;
        out.push_back(settle);
    }

    std::vector<Worker> workers_;
    std::vector<Held> returned_;
    std::uint64_t nextId_ = 0;
    std::uint64_t seq_ = 0;
    std::mt19937 rng_{42};
};

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    double rate = 20000;
    double seconds = 10;
    int fps = 30;
    int workers = 8;
    QString recordFolder;
    bool keepRunInRam = false;
    long long timelineBars = -1;  // -1: the console's default
    long long tableRows = -1;     // -1: the console's default
    QString screenshot;
    double slowFrameMs = 0;  // > 0: print each frame whose UI-thread CPU time exceeds it
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--rate")) {
            rate = std::atof(argv[i + 1]);
        } else if (!std::strcmp(argv[i], "--seconds")) {
            seconds = std::atof(argv[i + 1]);
        } else if (!std::strcmp(argv[i], "--fps")) {
            fps = std::atoi(argv[i + 1]);
        } else if (!std::strcmp(argv[i], "--workers")) {
            workers = std::atoi(argv[i + 1]);
        } else if (!std::strcmp(argv[i], "--slow-frames")) {
            slowFrameMs = std::atof(argv[i + 1]);
        } else if (!std::strcmp(argv[i], "--keep-in-ram")) {
            keepRunInRam = std::atoi(argv[i + 1]) != 0;
        } else if (!std::strcmp(argv[i], "--timeline-bars")) {
            timelineBars = std::atoll(argv[i + 1]);
        } else if (!std::strcmp(argv[i], "--table-rows")) {
            tableRows = std::atoll(argv[i + 1]);
        } else if (!std::strcmp(argv[i], "--screenshot")) {
            screenshot = QString::fromLocal8Bit(argv[i + 1]);
        } else if (!std::strcmp(argv[i], "--record")) {
            recordFolder = QString::fromLocal8Bit(argv[i + 1]);
        } else {
            std::fprintf(stderr,
                         "usage: bench_ui [--rate N] [--seconds S] [--fps N] [--workers N] "
                         "[--record DIR] [--slow-frames MS] [--keep-in-ram 0|1] "
                         "[--timeline-bars N] [--table-rows N] [--screenshot PNG]\n");
            return 2;
        }
    }
    if (rate <= 0 || seconds <= 0 || fps <= 0 || fps > 240 || workers < 1 || workers > 1024 ||
        timelineBars < -1 || tableRows < -1 || tableRows > 1'000'000'000) {
        std::fprintf(stderr,
                     "bench_ui: rate, seconds and fps must be positive (fps <= 240), "
                     "workers 1 to 1024, timeline bars and table rows 0 or more\n");
        return 2;
    }
    TimedApplication app(argc, argv);
    app.setTiming(slowFrameMs > 0);
    qs::ui::MainWindowOptions options;
    options.autoConnect = false;
    options.useSettings = false;
    options.keepRunInRam = keepRunInRam;
    if (timelineBars >= 0) {
        options.liveTimelineBars = static_cast<std::size_t>(timelineBars);
    }
    if (tableRows >= 0) {
        options.liveTableRows = static_cast<int>(tableRows);
    }
    qs::ui::MainWindow window(options);
    if (!recordFolder.isEmpty()) {
        window.recorder()->setFolder(recordFolder);
        window.recorder()->setEnabled(true);
    }
    window.resize(1600, 1000);
    window.show();
    window.pump()->stop();  // frames are driven here, with the same sinks
    QApplication::processEvents();

    Traffic traffic(workers);
    std::vector<Event> batch;
    std::vector<double> frameMs;
    std::vector<double> ingestMs;             // the batch through every model (EventPump::deliver)
    std::vector<double> paintMs;              // then the event loop: timers, layout, painting
    std::vector<std::vector<double>> sinkMs;  // per model, in pump order
    // CPU time of the UI thread per frame: the same work without the time spent
    // waiting for a core, so comparable on a shared machine.
    std::vector<double> cpuMs;
    std::vector<double> ingestThreadMs;  // the core's Run::append of each batch told, off the UI thread
    const auto framePeriodNs = static_cast<std::int64_t>(1e9 / fps);
    const auto perFrame = static_cast<std::size_t>(rate / fps);
    QElapsedTimer wall;
    wall.start();
    std::int64_t last = qs::monotonicNanos();
    std::uint64_t events = 0;
    long rssAt10sKb = -1;  // memory must stay flat after the first 10 s (issue #19)
    std::size_t runAt10sBytes = 0;
    while (wall.nsecsElapsed() < static_cast<qint64>(seconds * 1e9)) {
        if (rssAt10sKb < 0 && wall.nsecsElapsed() >= 10'000'000'000LL) {
            rssAt10sKb = statusKb("VmRSS:");
            runAt10sBytes = window.consoleRun()->run().memory().total();
        }
        const std::int64_t now = qs::monotonicNanos();
        batch.clear();
        traffic.generate(last, now, perFrame, batch);
        last = now;
        const std::int64_t cpu0 = threadCpuNs();
        QElapsedTimer frame;
        frame.start();
        window.pump()->deliverLive(batch);  // as the console's frames: models, timeline, charts
        const qint64 ingestNs = frame.nsecsElapsed();
        QApplication::processEvents();  // painting and the views' own timers
        const qint64 frameNs = frame.nsecsElapsed();
        cpuMs.push_back(static_cast<double>(threadCpuNs() - cpu0) / 1e6);
        frameMs.push_back(static_cast<double>(frameNs) / 1e6);
        ingestMs.push_back(static_cast<double>(ingestNs) / 1e6);
        const auto& sinkNs = window.pump()->lastSinkNs();
        sinkMs.resize(sinkNs.size());
        for (std::size_t i = 0; i < sinkNs.size(); ++i) {
            sinkMs[i].push_back(static_cast<double>(sinkNs[i]) / 1e6);
        }
        paintMs.push_back(static_cast<double>(frameNs - ingestNs) / 1e6);
        ingestThreadMs.push_back(static_cast<double>(window.consoleRun()->lastCoreAppendNs()) / 1e6);
        events += batch.size();
        const std::map<QString, qint64> loopNs = app.take();
        if (slowFrameMs > 0 && cpuMs.back() > slowFrameMs) {
            std::printf("slow frame %zu at %llu events: CPU %.1f ms, wall %.1f ms, deliver %.1f ms (",
                        frameMs.size() - 1, static_cast<unsigned long long>(events), cpuMs.back(),
                        frameMs.back(), ingestMs.back());
            for (std::size_t i = 0; i < sinkNs.size(); ++i) {
                std::printf("%s%s %.1f", i ? ", " : "",
                            qPrintable(window.pump()->sinkNames().value(static_cast<int>(i))),
                            static_cast<double>(sinkNs[i]) / 1e6);
            }
            std::printf("; the core's Run::append of the batch told, on the ingest thread, %.1f)\n",
                        static_cast<double>(window.consoleRun()->lastCoreAppendNs()) / 1e6);
            // The event loop's biggest items (QEvent type numbers, without the
            // paints they set off; then each widget's paint).
            std::vector<std::pair<qint64, QString>> items;
            for (const auto& [what, ns] : loopNs) {
                items.emplace_back(ns, what);
            }
            std::sort(items.rbegin(), items.rend());
            for (std::size_t i = 0; i < items.size() && i < 8 && items[i].first >= 500'000; ++i) {
                std::printf("    %5.1f ms %s\n", static_cast<double>(items[i].first) / 1e6,
                            qPrintable(items[i].second));
            }
        }
        // What the console's event loop does before it blocks (ConsoleRun).
        window.consoleRun()->sleepsNow();
        const std::int64_t spent = qs::monotonicNanos() - now;
        if (spent < framePeriodNs) {
            QThread::usleep(static_cast<unsigned long>((framePeriodNs - spent) / 1000));
        }
    }
    for (auto* v : {&frameMs, &ingestMs, &paintMs, &cpuMs, &ingestThreadMs}) {
        std::sort(v->begin(), v->end());
    }
    for (auto& v : sinkMs) {
        std::sort(v.begin(), v.end());
    }
    auto pctOf = [](const std::vector<double>& v, double p) {
        const auto i = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1));
        return v[i];
    };
    auto pct = [&](double p) { return pctOf(frameMs, p); };
    const double elapsed = static_cast<double>(wall.nsecsElapsed()) / 1e9;
    std::printf("bench_ui: %llu events in %.1f s (%.0f events/s), %zu frames at %d fps target\n",
                static_cast<unsigned long long>(events), elapsed,
                static_cast<double>(events) / elapsed, frameMs.size(), fps);
    std::printf("frame work (UI thread): median %.2f ms, p99 %.2f ms, max %.2f ms\n", pct(0.5),
                pct(0.99), frameMs.back());
    std::printf("frame CPU time (UI thread): median %.2f ms, p99 %.2f ms, max %.2f ms\n",
                pctOf(cpuMs, 0.5), pctOf(cpuMs, 0.99), cpuMs.back());
    std::printf(
        "  of which models (deliver): median %.2f ms, p99 %.2f ms; event loop and "
        "painting: median %.2f ms, p99 %.2f ms\n",
        pctOf(ingestMs, 0.5), pctOf(ingestMs, 0.99), pctOf(paintMs, 0.5), pctOf(paintMs, 0.99));
    for (std::size_t i = 0; i < sinkMs.size(); ++i) {
        std::printf("    %-10s median %.2f ms, p99 %.2f ms\n",
                    qPrintable(window.pump()->sinkNames().value(static_cast<int>(i))),
                    pctOf(sinkMs[i], 0.5), pctOf(sinkMs[i], 0.99));
    }
    std::printf("  not frame work: the core's Run::append per batch on the ingest thread: "
                "median %.2f ms, p99 %.2f ms\n",
                pctOf(ingestThreadMs, 0.5), pctOf(ingestThreadMs, 0.99));
    if (!screenshot.isEmpty() && !window.grab().save(screenshot)) {
        std::fprintf(stderr, "bench_ui: cannot write %s\n", qPrintable(screenshot));
    }
    const qs::RunMemory runMemory = window.consoleRun()->run().memory();
    std::printf("message rows %d, event log rows %d, timeline bars %zu\n",
                window.messages()->rowCount(), window.eventLog()->rowCount(),
                window.timelineModel().barCount());
    const auto runMib = [](std::size_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); };
    std::printf("the run: %llu events, %.1f MiB in RAM (events %.1f, changes %.1f, messages %.1f, "
                "checkpoints %.1f, trail %.1f, head ledger %.1f); %.1f MiB at 10 s; "
                "%.1f MiB spilled to disk%s%s\n",
                static_cast<unsigned long long>(window.consoleRun()->run().eventCount()),
                runMib(runMemory.total()), runMib(runMemory.events), runMib(runMemory.changes),
                runMib(runMemory.messages), runMib(runMemory.checkpoints), runMib(runMemory.trail),
                runMib(runMemory.ledger), runMib(runAt10sBytes),
                runMib(static_cast<std::size_t>(runMemory.spilled)),
                window.consoleRun()->run().spillProblem().empty() ? "" : "; ",
                window.consoleRun()->run().spillProblem().c_str());
    std::printf("peak memory (VmHWM): %.1f MiB\n", mib(statusKb("VmHWM:")));
    const long rssEndKb = statusKb("VmRSS:");
    if (rssAt10sKb > 0) {
        std::printf("resident memory (VmRSS): %.1f MiB at 10 s, %.1f MiB at the end (%+.1f %%)\n",
                    mib(rssAt10sKb), mib(rssEndKb),
                    100.0 * static_cast<double>(rssEndKb - rssAt10sKb) /
                        static_cast<double>(rssAt10sKb));
    } else {
        std::printf("resident memory (VmRSS): %.1f MiB at the end\n", mib(rssEndKb));
    }
    if (!recordFolder.isEmpty()) {
        const QString path = window.recorder()->currentPath();
        std::printf("recording %s: %llu events lost by its writer so far\n", qPrintable(path),
                    static_cast<unsigned long long>(window.recorder()->recordingLost()));
    }
    return 0;
}
