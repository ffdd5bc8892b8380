#include "console_startup.h"

#include <QApplication>
#include <algorithm>
#include <cstdio>
#include <functional>

#include "controllers/connection_controller.h"
#include "controllers/time_cursor.h"
#include "panels/lessons_panel.h"
#include "widgets/timeline_view.h"

namespace qs::app {

namespace {

using ui::MainWindow;

// Runs `action` now when the console has a client, else once at its next connection.
void whenConnected(MainWindow& window, const std::function<void()>& action) {
    if (window.connection()->client()) {
        action();
        return;
    }
    auto* once = new QObject(&window);
    QObject::connect(window.connection(), &ui::ConnectionController::connectionChanged, once,
                     [once, action] {
                         action();
                         once->deleteLater();
                     });
}

void applyLook(MainWindow& window, const ConsoleOptions& options) {
    if (options.dark) {
        window.setDarkTheme(true);
    }
    if (options.firstRun) {
        window.showGreeting();
    }
    if (options.screenshot) {
        window.resize(options.size);
    }
    if (options.spanSeconds) {
        window.timelineView()->setSpanSeconds(*options.spanSeconds);
    } else if (options.screenshot && options.recording.isEmpty()) {
        // As much as the screenshot's live run has run.
        window.timelineView()->setSpanSeconds(std::max(5.0, options.afterSeconds + 1.0));
    }
}

// A recording is read off the UI thread; the cursor and the span are set
// once it is shown. A file that is not a recording: exit 3 for a
// screenshot, a dialog over the (unchanged) console otherwise.
void openRecording(MainWindow& window, const ConsoleOptions& options) {
    auto* opening = new QObject(&window);  // the connections of the first open only
    QObject::connect(
        &window, &MainWindow::recordingShown, opening,
        [&window, opening, at = options.atSeconds, fitSpan = !options.spanSeconds] {
            opening->deleteLater();
            const ui::TimeCursor* cursor = window.timeCursor();
            if (fitSpan) {
                const double length =
                    static_cast<double>(cursor->headNs() - cursor->startNs()) / 1e9;
                window.timelineView()->setSpanSeconds(std::max(2.0, length * 1.1 + 0.2));
            }
            if (at) {
                window.timeCursor()->moveTo(cursor->startNs() +
                                            static_cast<std::int64_t>(*at * 1e9));
            }
        });
    QObject::connect(
        &window, &MainWindow::recordingRefused, opening,
        [screenshot = options.screenshot, opening](const QString&, const QString& error) {
            opening->deleteLater();
            std::fprintf(stderr, "queuescope: %s\n", qPrintable(error));
            if (screenshot) {
                QApplication::exit(3);
            }
        });
    if (options.screenshot) {
        window.startOpeningRecording(options.recording);
    } else {
        window.openRecordingInteractive(options.recording);
    }
}

// --embedded, or a screenshot of a live run (a recording shown needs no
// broker, unless a scenario is played too). False: said on stderr.
bool startEmbeddedBroker(MainWindow& window, const ConsoleOptions& options) {
    const bool needBroker = options.recording.isEmpty() || !options.scenario.isEmpty();
    if (!(options.screenshot && needBroker) && !options.embedded) {
        return true;
    }
    QString error;
    // Screenshots use any free port so they never meet a real server.
    if (!window.connection()->startEmbedded(options.screenshot ? 0 : options.port, &error)) {
        std::fprintf(stderr, "queuescope: cannot start the embedded broker: %s\n",
                     qPrintable(error));
        return false;
    }
    return true;
}

bool playScenario(MainWindow& window, const QString& scenario) {
    QString error;
    if (!window.playScenario(scenario, &error)) {
        std::fprintf(stderr, "queuescope: %s\n", qPrintable(error));
        return false;
    }
    return true;
}

// False only when a screenshot's scenario could not start (said on stderr).
bool startScenario(MainWindow& window, const ConsoleOptions& options) {
    const QString& scenario = options.scenario;
    if (scenario.isEmpty()) {
        return true;
    }
    if (window.connection()->client()) {
        return playScenario(window, scenario) || !options.screenshot;
    }
    whenConnected(window, [&window, scenario] { playScenario(window, scenario); });
    return true;
}

// --lesson [--answer]: its first step once connected. False: no such lesson
// or answer (said on stderr).
bool startLesson(MainWindow& window, const ConsoleOptions& options) {
    if (options.lesson.isEmpty()) {
        return true;
    }
    ui::LessonsPanel* lessons = window.lessonsPanel();
    if (!lessons->selectLesson(options.lesson)) {
        std::fprintf(stderr, "queuescope: no shipped lesson %s\n", qPrintable(options.lesson));
        return false;
    }
    window.showLessons();
    if (options.answer && !lessons->setAnswer(*options.answer)) {
        std::fprintf(stderr, "queuescope: --answer %s does not answer that lesson\n",
                     qPrintable(*options.answer));
        return false;
    }
    whenConnected(window, [lessons] {
        QString error;
        if (!lessons->runStep(&error)) {
            std::fprintf(stderr, "queuescope: %s\n", qPrintable(error));
        }
    });
    return true;
}

void bringToFront(MainWindow& window, FrontView view) {
    switch (view) {
        case FrontView::Messages:
            break;  // in front already
        case FrontView::Lessons:
            window.showLessons();
            break;
        case FrontView::Channels:
            window.showChannels();
            break;
        case FrontView::Rates:
            window.showChannelRates();
            break;
        case FrontView::Log:
            window.showDock(QStringLiteral("eventLogDock"));
            break;
        case FrontView::Inflight:
            window.showDock(QStringLiteral("leasesDock"));
            break;
        case FrontView::Polls:
            window.showDock(QStringLiteral("pollsDock"));
            break;
    }
}

}  // namespace

ui::MainWindowOptions mainWindowOptions(const ConsoleOptions& options) {
    ui::MainWindowOptions window;
    window.embeddedStore = options.embeddedStore;
    window.useSettings = !options.screenshot;
    window.autoConnect = !options.screenshot && !options.embedded;
    window.embeddedOnly = false;
    window.embeddedPort = options.port;
    return window;
}

std::optional<int> startConsole(MainWindow& window, const ConsoleOptions& options) {
    applyLook(window, options);
    window.show();
    if (!options.recording.isEmpty()) {
        openRecording(window, options);
    }
    if (!startEmbeddedBroker(window, options) || !startScenario(window, options)) {
        return 1;
    }
    if (!startLesson(window, options)) {
        return kBadOptionExit;
    }
    bringToFront(window, options.view);
    return std::nullopt;
}

}  // namespace qs::app
