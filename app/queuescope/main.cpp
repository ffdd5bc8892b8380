// queuescope: the desktop console, or `queuescope run ...` for the headless
// runner, `queuescope summary RUN.qsrun` for a recorded run's summary,
// `redrive` for dead-lettered messages, `trace`, `compare`, `report` on
// recorded runs and `parity` of a server with the embedded broker (all
// dispatched before any QApplication exists: no display needed).
#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QLineEdit>
#include <QPixmap>
#include <QStandardPaths>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <string_view>

#include "analysis/compare_command.h"
#include "analysis/parity_command.h"
#include "analysis/report_command.h"
#include "analysis/trace_command.h"
#include "common/version.h"
#include "controllers/connection_controller.h"
#include "controllers/time_cursor.h"
#include "dialogs/parity_dialog.h"
#include "dialogs/redrive_dialog.h"
#include "lessons/lesson_command.h"
#include "main_window.h"
#include "models/lease_board_model.h"
#include "panels/channel_browser.h"
#include "panels/charts_panel.h"
#include "panels/comparison_view.h"
#include "panels/lessons_panel.h"
#include "runner/headless_command.h"
#include "runner/redrive_command.h"
#include "runner/summary_command.h"
#include "widgets/first_run_greeting.h"
#include "widgets/theme.h"
#include "widgets/timeline_view.h"

namespace {

bool hasArg(int argc, char** argv, std::string_view name) {
    for (int i = 1; i < argc; ++i) {
        if (name == argv[i]) {
            return true;
        }
    }
    return false;
}

// --parity with --screenshot: Run → Parity check… of `scenario` against the
// console's embedded broker as the server; saves the comparison window.
void grabParity(qs::ui::MainWindow& window, const QString& scenario, const QString& file,
                QSize size) {
    qs::ui::ParityDialog* dialog = window.parityDialog();
    dialog->scenarioBox()->setCurrentText(scenario);
    if (dialog->scenarioBox()->currentText() != scenario) {
        std::fprintf(stderr, "queuescope: --parity: no bundled scenario %s\n", qPrintable(scenario));
        QApplication::exit(2);
        return;
    }
    dialog->addressField()->setText(window.connection()->settings().address);
    QObject::connect(dialog, &qs::ui::ParityDialog::ended, &window,
                     [](const qs::ui::ParityReport& report) {
                         if (!report.comparison) {
                             std::fprintf(stderr, "queuescope: %s\n",
                                          qPrintable(qs::ui::ParityJob::verdict(report)));
                             QApplication::exit(3);
                         }
                     });
    QObject::connect(dialog, &qs::ui::ParityDialog::comparisonShown, &window,
                     [&window, file, size](qs::ui::ComparisonView* view) {
                         view->resize(size);
                         QTimer::singleShot(300, &window, [view, file] {
                             const bool saved = view->grab().save(file, "PNG");
                             if (saved) {
                                 std::printf("%s\n", qPrintable(QFileInfo(file).absoluteFilePath()));
                             } else {
                                 std::fprintf(stderr, "queuescope: cannot write %s\n",
                                              qPrintable(file));
                             }
                             QApplication::exit(saved ? 0 : 1);
                         });
                     });
    if (!dialog->startCheck()) {
        std::fprintf(stderr, "queuescope: --parity: %s\n", qPrintable(dialog->problem()));
        QApplication::exit(2);
    }
}

// --data-dir DIR [--sync MODE]: where the embedded broker keeps its queues
// this session. nullopt = not given (the saved choice holds); false = a bad
// value, said on stderr.
bool embeddedStoreOption(const QCommandLineParser& parser, const QCommandLineOption& dataDirOpt,
                         const QCommandLineOption& syncOpt,
                         std::optional<qs::ui::EmbeddedStore>* out) {
    if (!parser.isSet(dataDirOpt)) {
        if (parser.isSet(syncOpt)) {
            std::fprintf(stderr, "queuescope: --sync needs --data-dir\n");
            return false;
        }
        return true;
    }
    qs::ui::EmbeddedStore store;
    store.dataDirectory = QFileInfo(parser.value(dataDirOpt)).absoluteFilePath();
    if (const QString problem = qs::ui::dataDirectoryProblem(store.dataDirectory);
        !problem.isEmpty()) {
        std::fprintf(stderr, "queuescope: --data-dir: %s\n", qPrintable(problem));
        return false;
    }
    if (parser.isSet(syncOpt)) {
        const auto mode = qs::broker::parseSyncMode(parser.value(syncOpt).toStdString());
        if (!mode) {
            std::fprintf(stderr, "queuescope: --sync must be always, batch or none\n");
            return false;
        }
        store.sync = *mode;
    }
    *out = store;
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::string_view(argv[1]) == "run") {
        return qs::runner::runHeadless(argc, argv);
    }
    if (argc > 1 && std::string_view(argv[1]) == "summary") {
        return qs::runner::runSummary(argc, argv);
    }
    if (argc > 1 && std::string_view(argv[1]) == "redrive") {
        return qs::runner::runRedrive(argc, argv);
    }
    if (argc > 1 && std::string_view(argv[1]) == "trace") {
        return qs::analysis::runTrace(argc, argv);
    }
    if (argc > 1 && std::string_view(argv[1]) == "compare") {
        return qs::analysis::runCompare(argc, argv);
    }
    if (argc > 1 && std::string_view(argv[1]) == "parity") {
        return qs::analysis::runParity(argc, argv);
    }
    if (argc > 1 && std::string_view(argv[1]) == "report") {
        return qs::analysis::runReport(argc, argv);
    }
    if (argc > 1 && std::string_view(argv[1]) == "lesson") {
        return qs::lessons::runLessonCommand(argc, argv);
    }
    const bool screenshot = hasArg(argc, argv, "--screenshot");
    // These show no window, so they work on a machine without a display too.
    const bool textOnly = hasArg(argc, argv, "--version") || hasArg(argc, argv, "-v") ||
                          hasArg(argc, argv, "--help") || hasArg(argc, argv, "-h") ||
                          hasArg(argc, argv, "--help-all");
    if ((screenshot || textOnly) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Queuescope"));
    QApplication::setApplicationName(QStringLiteral("queuescope"));
    QGuiApplication::setDesktopFileName(QStringLiteral("org.queuescope.Queuescope"));
    QApplication::setApplicationVersion(
        QString::fromUtf8(qs::kVersion.data(), static_cast<qsizetype>(qs::kVersion.size())));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Queuescope: watch KubeMQ work queues live.\n"
        "  queuescope run ...   runs a scenario headless (see `queuescope run --help`).\n"
        "  queuescope summary RUN.qsrun   prints a recorded run's summary.\n"
        "  queuescope redrive ...   moves dead-lettered messages back (see --help).\n"
        "  queuescope trace RUN.qsrun --out FILE   writes it as Chrome trace JSON (Perfetto).\n"
        "  queuescope compare A.qsrun B.qsrun   compares two recorded runs.\n"
        "  queuescope parity --scenario S --address HOST:PORT   runs S on the embedded broker\n"
        "      and on the server, and compares the two runs (see `queuescope parity --help`).\n"
        "  queuescope report RUN.qsrun --out FILE   writes a self-contained HTML report.\n"
        "  queuescope lesson NAME   plays a guided lesson (see `queuescope lesson --help`)."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption screenshotOpt(
        QStringLiteral("screenshot"),
        QStringLiteral("Render the window offscreen to a PNG and exit."), QStringLiteral("file"));
    const QCommandLineOption scenarioOpt(
        QStringLiteral("scenario"), QStringLiteral("Play a scenario (bundled name or JSON path)."),
        QStringLiteral("name"));
    const QCommandLineOption afterOpt(
        QStringLiteral("after"),
        QStringLiteral("Seconds to run before the screenshot (default 5)."),
        QStringLiteral("seconds"), QStringLiteral("5"));
    const QCommandLineOption embeddedOpt(
        QStringLiteral("embedded"),
        QStringLiteral("Start the embedded broker without looking for a server."));
    const QCommandLineOption portOpt(
        QStringLiteral("port"),
        QStringLiteral("Preferred port of the embedded broker (default 50000)."),
        QStringLiteral("port"), QStringLiteral("50000"));
    const QCommandLineOption dataDirOpt(
        QStringLiteral("data-dir"),
        QStringLiteral("Keep the embedded broker's queues in this folder across restarts "
                       "(File → Embedded broker storage… saves a choice)."),
        QStringLiteral("folder"));
    const QCommandLineOption syncOpt(
        QStringLiteral("sync"),
        QStringLiteral("With --data-dir: always, batch (default) or none (docs/broker.md)."),
        QStringLiteral("mode"));
    const QCommandLineOption firstRunOpt(
        QStringLiteral("first-run"),
        QStringLiteral("Show the first run's greeting, as a first start does (for screenshots)."));
    const QCommandLineOption darkOpt(QStringLiteral("dark"),
                                     QStringLiteral("Use the dark palette."));
    const QCommandLineOption viewOpt(
        QStringLiteral("view"),
        QStringLiteral("Dock to show in front for the screenshot: messages, inflight, polls, "
                       "log, channels, rates (the Channels tab's rates over time), lessons."),
        QStringLiteral("name"));
    const QCommandLineOption sizeOpt(QStringLiteral("size"),
                                     QStringLiteral("Window size WxH (default 1600x1000)."),
                                     QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    const QCommandLineOption spanOpt(
        QStringLiteral("span"),
        QStringLiteral("Seconds the timeline shows (default: as much as has run, "
                       "for screenshots; else the saved setting)."),
        QStringLiteral("seconds"));
    const QCommandLineOption openOpt(
        QStringLiteral("open"),
        QStringLiteral("Open a recorded run (*.qsrun) to scrub and play back."),
        QStringLiteral("file"));
    const QCommandLineOption atOpt(
        QStringLiteral("at"),
        QStringLiteral("With --open: put the time cursor this many seconds after the "
                       "recording's first event (default: its end)."),
        QStringLiteral("seconds"));
    const QCommandLineOption redriveOpt(
        QStringLiteral("redrive"),
        QStringLiteral("With --screenshot: redrive this dead-letter channel (as Redrive… in the "
                       "Channels tab with what its dialog offers first: each message back where "
                       "it came from, the max receive count this console sent with) and take "
                       "the screenshot when it has ended."),
        QStringLiteral("channel"));
    const QCommandLineOption redriveDialogOpt(
        QStringLiteral("redrive-dialog"),
        QStringLiteral("With --redrive: peek the channel, select its first two messages and "
                       "take the screenshot of the Redrive dialog as it opens instead."));
    const QCommandLineOption lessonOpt(
        QStringLiteral("lesson"),
        QStringLiteral("Open this lesson in the Lessons tab and run its first step (with "
                       "--answer as the prediction)."),
        QStringLiteral("name"));
    const QCommandLineOption answerOpt(
        QStringLiteral("answer"),
        QStringLiteral("With --lesson: the prediction, as `queuescope lesson --answer` takes it."),
        QStringLiteral("value"));
    const QCommandLineOption compareOpt(
        QStringLiteral("compare"),
        QStringLiteral("With --screenshot and a recording: compare it with this recording (as "
                       "File → Compare with recording…) and save the comparison window."),
        QStringLiteral("file"));
    const QCommandLineOption parityOpt(
        QStringLiteral("parity"),
        QStringLiteral("With --screenshot: run Run → Parity check… of this bundled scenario with "
                       "the console's embedded broker as the server, and save the comparison "
                       "window."),
        QStringLiteral("scenario"));
    parser.addOptions({screenshotOpt, scenarioOpt, afterOpt,   embeddedOpt,      portOpt,
                       darkOpt,       viewOpt,     sizeOpt,    spanOpt,          firstRunOpt,
                       openOpt,       atOpt,       redriveOpt, redriveDialogOpt, compareOpt,
                       lessonOpt,     answerOpt,   parityOpt,  dataDirOpt,       syncOpt});
    // `queuescope RUN.qsrun`: what a file manager runs for a recording (the
    // desktop entry's Exec=queuescope %f).
    parser.addPositionalArgument(
        QStringLiteral("recording"),
        QStringLiteral("A recorded run (*.qsrun) to open, as --open does."),
        QStringLiteral("[RUN.qsrun]"));
    parser.process(app);
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1 || (positional.size() == 1 && parser.isSet(openOpt))) {
        std::fprintf(stderr, "queuescope: give one recording to open, as RUN.qsrun or --open\n");
        return 2;
    }
    const QString recording = positional.isEmpty() ? parser.value(openOpt) : positional.first();

    bool ok = false;
    const int port = parser.value(portOpt).toInt(&ok);
    if (!ok || port < 0 || port > 65535) {
        std::fprintf(stderr, "queuescope: --port must be 0..65535\n");
        return 2;
    }
    const double after = parser.value(afterOpt).toDouble(&ok);
    if (!ok || after < 0) {
        std::fprintf(stderr, "queuescope: --after must be a number of seconds >= 0\n");
        return 2;
    }
    double at = -1;
    if (parser.isSet(atOpt)) {
        at = parser.value(atOpt).toDouble(&ok);
        if (!ok || at < 0 || recording.isEmpty()) {
            std::fprintf(stderr,
                         "queuescope: --at must be a number of seconds >= 0, with a recording\n");
            return 2;
        }
    }
    const QString view = parser.value(viewOpt);
    if (!view.isEmpty() && view != QStringLiteral("messages") && view != QStringLiteral("log") &&
        view != QStringLiteral("channels") && view != QStringLiteral("inflight") &&
        view != QStringLiteral("polls") && view != QStringLiteral("lessons") &&
        view != QStringLiteral("rates")) {
        std::fprintf(stderr,
                     "queuescope: --view must be messages, inflight, polls, log, "
                     "channels, rates or lessons\n");
        return 2;
    }
    const QString redrive = parser.value(redriveOpt);
    if (parser.isSet(redriveOpt) && (!parser.isSet(screenshotOpt) || redrive.isEmpty())) {
        std::fprintf(stderr, "queuescope: --redrive needs a channel name, with --screenshot\n");
        return 2;
    }
    const QString compareWith = parser.value(compareOpt);
    if (parser.isSet(compareOpt) && (!screenshot || recording.isEmpty() || compareWith.isEmpty())) {
        std::fprintf(stderr, "queuescope: --compare needs a file, with --screenshot and a "
                             "recording\n");
        return 2;
    }
    const bool redriveDialog = parser.isSet(redriveDialogOpt);
    if (redriveDialog && redrive.isEmpty()) {
        std::fprintf(stderr, "queuescope: --redrive-dialog needs --redrive CHANNEL\n");
        return 2;
    }
    const QString parity = parser.value(parityOpt);
    if (parser.isSet(parityOpt) && (!screenshot || !recording.isEmpty() || parity.isEmpty())) {
        std::fprintf(stderr, "queuescope: --parity needs a scenario, with --screenshot and no "
                             "recording\n");
        return 2;
    }
    const QStringList size = parser.value(sizeOpt).split(QLatin1Char('x'));
    const int width = size.size() == 2 ? size[0].toInt() : 0;
    const int height = size.size() == 2 ? size[1].toInt() : 0;
    if (width < 400 || height < 300) {
        std::fprintf(stderr, "queuescope: --size must be WxH, at least 400x300\n");
        return 2;
    }

    if (screenshot && parser.isSet(lessonOpt)) {
        // A lesson's checks read the run's recording; a screenshot records
        // into Qt's test-mode folder (~/.qttest/share), not the user's runs.
        QStandardPaths::setTestModeEnabled(true);
    }
    qs::ui::MainWindowOptions options;
    if (!embeddedStoreOption(parser, dataDirOpt, syncOpt, &options.embeddedStore)) {
        return 2;
    }
    options.useSettings = !screenshot;
    options.autoConnect = !screenshot && !parser.isSet(embeddedOpt);
    options.embeddedOnly = false;
    options.embeddedPort = port;
    qs::ui::MainWindow window(options);
    if (parser.isSet(darkOpt)) {
        window.setDarkTheme(true);
    }
    if (parser.isSet(firstRunOpt)) {
        window.showGreeting();
    }
    if (screenshot) {
        window.resize(width, height);
    }
    double span = 0;
    if (parser.isSet(spanOpt)) {
        span = parser.value(spanOpt).toDouble(&ok);
        if (!ok || span < 1) {
            std::fprintf(stderr, "queuescope: --span must be a number of seconds >= 1\n");
            return 2;
        }
        window.timelineView()->setSpanSeconds(span);
    } else if (screenshot && recording.isEmpty()) {
        window.timelineView()->setSpanSeconds(std::max(5.0, after + 1.0));
    }
    window.show();

    // A recording is read off the UI thread; the cursor and the span are set
    // once it is shown. A file that is not a recording: exit 3 for a
    // screenshot, a dialog over the (unchanged) console otherwise.
    auto* opening = new QObject(&window);  // the connections of the first open only
    if (!recording.isEmpty()) {
        QObject::connect(
            &window, &qs::ui::MainWindow::recordingShown, opening,
            [&window, at, opening, fitSpan = !parser.isSet(spanOpt)] {
                opening->deleteLater();
                const qs::ui::TimeCursor* cursor = window.timeCursor();
                if (fitSpan) {
                    const double length =
                        static_cast<double>(cursor->headNs() - cursor->startNs()) / 1e9;
                    window.timelineView()->setSpanSeconds(std::max(2.0, length * 1.1 + 0.2));
                }
                if (at >= 0) {
                    window.timeCursor()->moveTo(cursor->startNs() +
                                                static_cast<std::int64_t>(at * 1e9));
                }
            });
        QObject::connect(&window, &qs::ui::MainWindow::recordingRefused, opening,
                         [screenshot, opening](const QString&, const QString& error) {
                             opening->deleteLater();
                             std::fprintf(stderr, "queuescope: %s\n", qPrintable(error));
                             if (screenshot) {
                                 QApplication::exit(3);
                             }
                         });
        if (screenshot) {
            window.startOpeningRecording(recording);
        } else {
            window.openRecordingInteractive(recording);
        }
    }
    // A recording shown needs no broker, unless a scenario is played too.
    const bool needBroker = recording.isEmpty() || parser.isSet(scenarioOpt);
    if ((screenshot && needBroker) || parser.isSet(embeddedOpt)) {
        QString error;
        // Screenshots use any free port so they never meet a real server.
        if (!window.connection()->startEmbedded(screenshot ? 0 : port, &error)) {
            std::fprintf(stderr, "queuescope: cannot start the embedded broker: %s\n",
                         qPrintable(error));
            return 1;
        }
    }
    const QString scenario = parser.value(scenarioOpt);
    auto play = [&window, scenario]() -> bool {
        QString error;
        if (!window.playScenario(scenario, &error)) {
            std::fprintf(stderr, "queuescope: %s\n", qPrintable(error));
            return false;
        }
        return true;
    };
    if (!scenario.isEmpty()) {
        if (window.connection()->client()) {
            if (!play() && screenshot) {
                return 1;
            }
        } else {
            auto* once = new QObject(&window);
            QObject::connect(window.connection(), &qs::ui::ConnectionController::connectionChanged,
                             once, [once, play] {
                                 play();
                                 once->deleteLater();
                             });
        }
    }
    const QString lesson = parser.value(lessonOpt);
    if (!lesson.isEmpty()) {
        if (!window.lessonsPanel()->selectLesson(lesson)) {
            std::fprintf(stderr, "queuescope: no shipped lesson %s\n", qPrintable(lesson));
            return 2;
        }
        window.showLessons();
        if (parser.isSet(answerOpt) && !window.lessonsPanel()->setAnswer(parser.value(answerOpt))) {
            std::fprintf(stderr, "queuescope: --answer %s does not answer that lesson\n",
                         qPrintable(parser.value(answerOpt)));
            return 2;
        }
        auto runLesson = [&window] {
            QString error;
            if (!window.lessonsPanel()->runStep(&error)) {
                std::fprintf(stderr, "queuescope: %s\n", qPrintable(error));
            }
        };
        if (window.connection()->client()) {
            runLesson();
        } else {
            auto* once = new QObject(&window);
            QObject::connect(window.connection(), &qs::ui::ConnectionController::connectionChanged,
                             once, [once, runLesson] {
                                 runLesson();
                                 once->deleteLater();
                             });
        }
    }
    if (view == QStringLiteral("lessons")) {
        window.showLessons();
    } else if (view == QStringLiteral("channels")) {
        window.showChannels();
    } else if (view == QStringLiteral("rates")) {
        window.showChannelRates();
    } else if (view == QStringLiteral("log")) {
        window.showDock(QStringLiteral("eventLogDock"));
    } else if (view == QStringLiteral("inflight")) {
        window.showDock(QStringLiteral("leasesDock"));
    } else if (view == QStringLiteral("polls")) {
        window.showDock(QStringLiteral("pollsDock"));
    }  // "messages" is in front already

    if (screenshot) {
        const QString file = parser.value(screenshotOpt);
        // A recording is there once it is shown; a live run needs its time.
        const double wait = !recording.isEmpty() && !parser.isSet(afterOpt) ? 0.2 : after;
        // Let the last frame and the channel list arrive, then grab.
        auto grabSoon = [&window, file] {
            window.channelBrowser()->refresh();
            QTimer::singleShot(600, &window, [&window, file] {
                window.charts()->refresh();  // every chart as of now, not one by one
                if (window.leaseBoard()->isActive()) {
                    window.leaseBoard()->rebuild();  // its coalesced rebuild may be pending
                }
                const QPixmap pixmap = window.grab();
                const bool saved = pixmap.save(file, "PNG");
                if (!saved) {
                    std::fprintf(stderr, "queuescope: cannot write %s\n", qPrintable(file));
                } else {
                    std::printf("%s\n", qPrintable(QFileInfo(file).absoluteFilePath()));
                }
                QApplication::exit(saved ? 0 : 1);
            });
        };
        // The dialog alone, as Redrive… opens it after a peek with two rows selected.
        auto grabDialog = [&window, file, redrive] {
            qs::ui::ChannelBrowser* browser = window.channelBrowser();
            QObject::connect(
                browser, &qs::ui::ChannelBrowser::peeked, &window,
                [browser, file, redrive](const QString&, int) {
                    browser->selectPeekRows({0, 1});
                    auto* dialog = browser->newRedriveDialog(redrive);
                    dialog->show();
                    QTimer::singleShot(400, dialog, [dialog, file] {
                        const bool saved = dialog->grab().save(file, "PNG");
                        if (saved) {
                            std::printf("%s\n", qPrintable(QFileInfo(file).absoluteFilePath()));
                        } else {
                            std::fprintf(stderr, "queuescope: cannot write %s\n", qPrintable(file));
                        }
                        QApplication::exit(saved ? 0 : 1);
                    });
                },
                Qt::SingleShotConnection);
            browser->selectChannel(redrive);
            browser->peekSelected();
        };
        auto grabAfterWait = [&window, wait, redrive, redriveDialog, grabSoon, grabDialog] {
            QTimer::singleShot(static_cast<int>(wait * 1000), &window,
                               [&window, redrive, redriveDialog, grabSoon, grabDialog] {
                if (redrive.isEmpty()) {
                    grabSoon();
                    return;
                }
                if (redriveDialog) {
                    grabDialog();
                    return;
                }
                qs::ui::ChannelBrowser* browser = window.channelBrowser();
                QObject::connect(browser, &qs::ui::ChannelBrowser::actionFinished, &window,
                                 [grabSoon](bool, const QString&) { grabSoon(); },
                                 Qt::SingleShotConnection);
                browser->selectChannel(redrive);
                // What the dialog offers first: all, each back, the known policy.
                const std::unique_ptr<qs::ui::RedriveDialog> dialog(
                    browser->newRedriveDialog(redrive));
                browser->startRedrive(dialog->options({}));
            });
        };
        // The comparison window, once the core has compared the two runs.
        auto grabComparison = [&window, file, compareWith, width, height] {
            QObject::connect(
                window.comparer(), &qs::ui::RecordingComparer::finished, &window,
                [&window, file, width, height](const qs::ui::ComparisonResult& result) {
                    if (!result.error.isEmpty()) {
                        std::fprintf(stderr, "queuescope: %s\n", qPrintable(result.error));
                        QApplication::exit(3);
                        return;
                    }
                    QTimer::singleShot(300, &window, [&window, file, width, height] {
                        auto* view = window.findChild<qs::ui::ComparisonView*>();
                        view->resize(width, height);
                        QTimer::singleShot(300, &window, [view, file] {
                            const bool saved = view->grab().save(file, "PNG");
                            if (saved) {
                                std::printf("%s\n", qPrintable(QFileInfo(file).absoluteFilePath()));
                            } else {
                                std::fprintf(stderr, "queuescope: cannot write %s\n",
                                             qPrintable(file));
                            }
                            QApplication::exit(saved ? 0 : 1);
                        });
                    });
                },
                Qt::SingleShotConnection);
            window.compareWith(compareWith);
        };
        if (!parity.isEmpty()) {
            QTimer::singleShot(0, &window, [&window, parity, file, width, height] {
                grabParity(window, parity, file, QSize(width, height));
            });
        } else if (recording.isEmpty()) {
            grabAfterWait();
        } else if (!compareWith.isEmpty()) {
            QObject::connect(&window, &qs::ui::MainWindow::recordingShown, &window, grabComparison,
                             Qt::SingleShotConnection);
        } else {
            QObject::connect(&window, &qs::ui::MainWindow::recordingShown, &window, grabAfterWait,
                             Qt::SingleShotConnection);
        }
    }
    return QApplication::exec();
}
