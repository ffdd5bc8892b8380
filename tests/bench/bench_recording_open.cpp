// bench_recording_open: what reopening a large recording costs in the console
// (issue #13's aims, docs/benchmarks.md): the window offscreen at 1600x1000
// opens FILE as File -> Open recording does (read off the UI thread, shown in
// slices), then the time cursor jumps to N random instants. Prints
//  - open to first frame: from the open to the first painted frame that shows
//    the recording's events (the first slice fed, then a full repaint);
//  - open to fully shown: until recordingShown();
//  - the longest the UI thread went without turning its event loop meanwhile;
//  - resident memory while it is open (VmRSS), and the Run's share of it;
//  - seek plus first frame: a cursor move, then a full repaint of the window
//    (wall time, median / p99 / max).
// Not a test; run it on an optimized build:
//   bench_recording_open FILE [--seeks 200] [--seed 1] [--no-teardown 1]
// --no-teardown 1 ends the process right after the figures without freeing
// the window: under heaptrack, what was held open is then reported as
// leaked, by the code that allocated it (docs/benchmarks.md).
#include <QApplication>
#include <QElapsedTimer>
#include <QPixmap>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "bench_stats.h"
#include "controllers/console_run.h"
#include "controllers/time_cursor.h"
#include "main_window.h"
#include "run/run.h"

using namespace qs;

namespace {

double residentMb() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0)
            return std::atof(line.c_str() + 6) / 1024.0;
    }
    return 0;
}

double msSince(const QElapsedTimer& clock) { return static_cast<double>(clock.nsecsElapsed()) / 1e6; }

// A full repaint of the window, as the next frame on screen would be.
void paintFrame(ui::MainWindow& window) { (void)window.grab(); }

// The value below which `fraction` of `values` lie (nearest rank).
double percentile(std::vector<double> values, double fraction) {
    std::sort(values.begin(), values.end());
    const auto rank = static_cast<std::size_t>(fraction * static_cast<double>(values.size()));
    return values[std::min(rank, values.size() - 1)];
}

[[noreturn]] void fail(const std::string& why) {
    std::fprintf(stderr, "bench_recording_open: %s\n", why.c_str());
    std::exit(1);
}

struct Opening {
    double firstFrameMs = 0;
    double shownMs = 0;
    double longestStallMs = 0;
};

Opening open(ui::MainWindow& window, const QString& path) {
    Opening result;
    bool shown = false;
    QString refused;
    QObject::connect(&window, &ui::MainWindow::recordingShown, [&] { shown = true; });
    QObject::connect(&window, &ui::MainWindow::recordingRefused,
                     [&](const QString&, const QString& error) { refused = error; });
    QElapsedTimer clock, sinceTurn;
    clock.start();
    sinceTurn.start();
    window.startOpeningRecording(path);
    while (!shown && refused.isEmpty()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        result.longestStallMs = std::max(result.longestStallMs, msSince(sinceTurn));
        sinceTurn.restart();
        if (result.firstFrameMs == 0 && window.consoleRun()->run().eventCount() > 0) {
            paintFrame(window);
            result.firstFrameMs = msSince(clock);
        }
    }
    if (!refused.isEmpty())
        fail(refused.toStdString());
    result.shownMs = msSince(clock);
    return result;
}

}  // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (argc < 2 || argv[1][0] == '-')
        fail("usage: bench_recording_open FILE [--seeks N] [--seed N]");
    const QString path = QString::fromLocal8Bit(argv[1]);
    int seeks = 200;
    unsigned seed = 1;
    bool teardown = true;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--seeks") == 0)
            seeks = std::atoi(argv[i + 1]);
        else if (std::strcmp(argv[i], "--seed") == 0)
            seed = static_cast<unsigned>(std::atoi(argv[i + 1]));
        else if (std::strcmp(argv[i], "--no-teardown") == 0)
            teardown = std::atoi(argv[i + 1]) == 0;
        else
            fail(std::string("unknown option ") + argv[i]);
    }

    ui::MainWindowOptions options;
    options.autoConnect = false;
    options.useSettings = false;
    options.recordRuns = false;
    ui::MainWindow window(options);
    window.resize(1600, 1000);
    window.show();
    QCoreApplication::processEvents();
    const double rssBefore = residentMb();

    const Opening opening = open(window, path);
    const Run& run = window.consoleRun()->run();
    std::printf("recording: %s, %llu events, %zu messages\n", qPrintable(path),
                static_cast<unsigned long long>(run.eventCount()), run.messageCount());
    std::printf("open to first frame:  %8.1f ms\n", opening.firstFrameMs);
    std::printf("open to fully shown:  %8.1f ms (longest UI-thread stall %.1f ms)\n",
                opening.shownMs, opening.longestStallMs);
    std::printf("resident memory:      %8.1f MB open (%.1f MB before)\n", residentMb(),
                rssBefore);
    const RunMemory memory = run.memory();
    const auto mb = [](std::size_t bytes) { return static_cast<double>(bytes) / 1e6; };
    std::printf("  of which the Run:   %8.1f MB (events %.1f, changes %.1f, messages %.1f, "
                "checkpoints %.1f, time index %.1f, trail %.1f, head ledger %.1f)\n",
                mb(memory.total()), mb(memory.events), mb(memory.changes), mb(memory.messages),
                mb(memory.checkpoints), mb(memory.timeIndex), mb(memory.trail), mb(memory.ledger));

    ui::TimeCursor* cursor = window.timeCursor();
    std::mt19937_64 random(seed);
    std::uniform_int_distribution<std::int64_t> instant(cursor->startNs(), cursor->headNs());
    std::vector<double> seekMs;
    for (int i = 0; i < seeks; ++i) {
        QElapsedTimer clock;
        clock.start();
        cursor->moveTo(instant(random));
        QCoreApplication::processEvents();
        paintFrame(window);
        seekMs.push_back(msSince(clock));
    }
    if (seekMs.empty())
        fail("--seeks must be at least 1");
    std::printf("seek + first frame:   median %.1f ms, p99 %.1f ms, max %.1f ms (%d seeks)\n",
                bench::median(seekMs), percentile(seekMs, 0.99), percentile(seekMs, 1.0), seeks);
    std::printf("resident memory:      %8.1f MB after the seeks\n", residentMb());
    if (!teardown) {
        std::fflush(stdout);
        std::_Exit(0);
    }
    return 0;
}
