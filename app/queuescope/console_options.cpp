#include "console_options.h"

#include <QFileInfo>
#include <QStringList>
#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

namespace qs::app {

namespace {

// One option of the console: name, help, and for options with a value its
// name in the help and its default ("" = none).
struct ConsoleOptionSpec {
    const char* name;
    const char* help;
    const char* valueName = nullptr;  // null: a switch
    const char* defaultValue = nullptr;
};

// In the order `queuescope --help` lists them.
constexpr std::array kConsoleOptions{
    ConsoleOptionSpec{"screenshot", "Render the window offscreen to a PNG and exit.", "file"},
    ConsoleOptionSpec{"scenario", "Play a scenario (bundled name or JSON path).", "name"},
    ConsoleOptionSpec{"after", "Seconds to run before the screenshot (default 5).", "seconds", "5"},
    ConsoleOptionSpec{"embedded", "Start the embedded broker without looking for a server."},
    ConsoleOptionSpec{"port", "Preferred port of the embedded broker (default 50000).", "port",
                      "50000"},
    ConsoleOptionSpec{"dark", "Use the dark palette."},
    ConsoleOptionSpec{"view",
                      "Dock to show in front for the screenshot: messages, inflight, polls, "
                      "log, channels, rates (the Channels tab's rates over time), lessons.",
                      "name"},
    ConsoleOptionSpec{"size", "Window size WxH (default 1600x1000).", "WxH", "1600x1000"},
    ConsoleOptionSpec{"span",
                      "Seconds the timeline shows (default: as much as has run, "
                      "for screenshots; else the saved setting).",
                      "seconds"},
    ConsoleOptionSpec{"first-run",
                      "Show the first run's greeting, as a first start does (for screenshots)."},
    ConsoleOptionSpec{"open", "Open a recorded run (*.qsrun) to scrub and play back.", "file"},
    ConsoleOptionSpec{"at",
                      "With --open: put the time cursor this many seconds after the "
                      "recording's first event (default: its end).",
                      "seconds"},
    ConsoleOptionSpec{"redrive",
                      "With --screenshot: redrive this dead-letter channel (as Redrive… in the "
                      "Channels tab with what its dialog offers first: each message back where "
                      "it came from, the max receive count this console sent with) and take "
                      "the screenshot when it has ended.",
                      "channel"},
    ConsoleOptionSpec{"redrive-dialog",
                      "With --redrive: peek the channel, select its first two messages and "
                      "take the screenshot of the Redrive dialog as it opens instead."},
    ConsoleOptionSpec{"compare",
                      "With --screenshot and a recording: compare it with this recording (as "
                      "File → Compare with recording…) and save the comparison window.",
                      "file"},
    ConsoleOptionSpec{"lesson",
                      "Open this lesson in the Lessons tab and run its first step (with "
                      "--answer as the prediction).",
                      "name"},
    ConsoleOptionSpec{"answer",
                      "With --lesson: the prediction, as `queuescope lesson --answer` takes it.",
                      "value"},
    ConsoleOptionSpec{"parity",
                      "With --screenshot: run Run → Parity check… of this bundled scenario with "
                      "the console's embedded broker as the server, and save the comparison "
                      "window.",
                      "scenario"},
    ConsoleOptionSpec{"data-dir",
                      "Keep the embedded broker's queues in this folder across restarts "
                      "(File → Embedded broker storage… saves a choice).",
                      "folder"},
    ConsoleOptionSpec{"sync", "With --data-dir: always, batch (default) or none (docs/broker.md).",
                      "mode"},
};

constexpr const char* kDescription =
    "Queuescope: watch KubeMQ work queues live.\n"
    "  queuescope run ...   runs a scenario headless (see `queuescope run --help`).\n"
    "  queuescope summary RUN.qsrun   prints a recorded run's summary.\n"
    "  queuescope redrive ...   moves dead-lettered messages back (see --help).\n"
    "  queuescope trace RUN.qsrun --out FILE   writes it as Chrome trace JSON (Perfetto).\n"
    "  queuescope compare A.qsrun B.qsrun   compares two recorded runs.\n"
    "  queuescope parity --scenario S --address HOST:PORT   runs S on the embedded broker\n"
    "      and on the server, and compares the two runs (see `queuescope parity --help`).\n"
    "  queuescope report RUN.qsrun --out FILE   writes a self-contained HTML report.\n"
    "  queuescope lesson NAME   plays a guided lesson (see `queuescope lesson --help`).";

QCommandLineOption toQtOption(const ConsoleOptionSpec& spec) {
    const QString name = QString::fromUtf8(spec.name);
    const QString help = QString::fromUtf8(spec.help);
    if (spec.valueName == nullptr) {
        return QCommandLineOption(name, help);
    }
    return QCommandLineOption(
        name, help, QString::fromUtf8(spec.valueName),
        spec.defaultValue != nullptr ? QString::fromUtf8(spec.defaultValue) : QString());
}

constexpr std::array<std::pair<const char*, FrontView>, 7> kFrontViews{{
    {"messages", FrontView::Messages},
    {"inflight", FrontView::Inflight},
    {"polls", FrontView::Polls},
    {"log", FrontView::Log},
    {"channels", FrontView::Channels},
    {"rates", FrontView::Rates},
    {"lessons", FrontView::Lessons},
}};

// Reads the options one at a time, in the order their checks have always
// run (the first bad one is the one said), into `out`.
class OptionReader {
public:
    OptionReader(const QCommandLineParser& parser, ConsoleOptions& out)
        : parser_(parser), out_(out) {}

    // Why the last read failed.
    QString error() const { return error_; }

    bool readRecording() {
        const QStringList positional = parser_.positionalArguments();
        if (positional.size() > 1 || (positional.size() == 1 && isSet("open"))) {
            return fail("give one recording to open, as RUN.qsrun or --open");
        }
        out_.recording = positional.isEmpty() ? value("open") : positional.first();
        return true;
    }

    bool readNumbers() {
        bool ok = false;
        out_.port = value("port").toInt(&ok);
        if (!ok || out_.port < 0 || out_.port > 65535) {
            return fail("--port must be 0..65535");
        }
        out_.afterSeconds = value("after").toDouble(&ok);
        out_.afterGiven = isSet("after");
        if (!ok || out_.afterSeconds < 0) {
            return fail("--after must be a number of seconds >= 0");
        }
        if (isSet("at")) {
            const double at = value("at").toDouble(&ok);
            if (!ok || at < 0 || out_.recording.isEmpty()) {
                return fail("--at must be a number of seconds >= 0, with a recording");
            }
            out_.atSeconds = at;
        }
        return true;
    }

    bool readView() {
        const QString view = value("view");
        if (view.isEmpty()) {
            return true;
        }
        for (const auto& [name, front] : kFrontViews) {
            if (view == QLatin1String(name)) {
                out_.view = front;
                return true;
            }
        }
        return fail("--view must be messages, inflight, polls, log, channels, rates or lessons");
    }

    // The screenshot's companions: what each needs with it.
    bool readScreenshotActions() {
        out_.redriveChannel = value("redrive");
        if (isSet("redrive") && (!out_.screenshot || out_.redriveChannel.isEmpty())) {
            return fail("--redrive needs a channel name, with --screenshot");
        }
        out_.compareWith = value("compare");
        if (isSet("compare") &&
            (!out_.screenshot || out_.recording.isEmpty() || out_.compareWith.isEmpty())) {
            return fail("--compare needs a file, with --screenshot and a recording");
        }
        out_.redriveDialog = isSet("redrive-dialog");
        if (out_.redriveDialog && out_.redriveChannel.isEmpty()) {
            return fail("--redrive-dialog needs --redrive CHANNEL");
        }
        out_.parityScenario = value("parity");
        if (isSet("parity") &&
            (!out_.screenshot || !out_.recording.isEmpty() || out_.parityScenario.isEmpty())) {
            return fail("--parity needs a scenario, with --screenshot and no recording");
        }
        return true;
    }

    bool readSize() {
        const QStringList size = value("size").split(QLatin1Char('x'));
        const int width = size.size() == 2 ? size[0].toInt() : 0;
        const int height = size.size() == 2 ? size[1].toInt() : 0;
        if (width < 400 || height < 300) {
            return fail("--size must be WxH, at least 400x300");
        }
        out_.size = QSize(width, height);
        return true;
    }

    // --data-dir DIR [--sync MODE]: where the embedded broker keeps its
    // queues this session.
    bool readEmbeddedStore() {
        if (!isSet("data-dir")) {
            return !isSet("sync") || fail("--sync needs --data-dir");
        }
        ui::EmbeddedStore store;
        store.dataDirectory = QFileInfo(value("data-dir")).absoluteFilePath();
        if (const QString problem = ui::dataDirectoryProblem(store.dataDirectory);
            !problem.isEmpty()) {
            error_ = QStringLiteral("--data-dir: ") + problem;
            return false;
        }
        if (isSet("sync")) {
            const auto mode = broker::parseSyncMode(value("sync").toStdString());
            if (!mode) {
                return fail("--sync must be always, batch or none");
            }
            store.sync = *mode;
        }
        out_.embeddedStore = store;
        return true;
    }

    bool readSpan() {
        if (!isSet("span")) {
            return true;
        }
        bool ok = false;
        const double span = value("span").toDouble(&ok);
        if (!ok || span < 1) {
            return fail("--span must be a number of seconds >= 1");
        }
        out_.spanSeconds = span;
        return true;
    }

    void readPlainValues() {
        out_.screenshot = isSet("screenshot");
        out_.screenshotFile = value("screenshot");
        out_.scenario = value("scenario");
        out_.embedded = isSet("embedded");
        out_.firstRun = isSet("first-run");
        out_.dark = isSet("dark");
        out_.lesson = value("lesson");
        if (isSet("answer")) {
            out_.answer = value("answer");
        }
    }

private:
    bool isSet(const char* name) const { return parser_.isSet(QString::fromUtf8(name)); }
    QString value(const char* name) const { return parser_.value(QString::fromUtf8(name)); }
    bool fail(const char* message) {
        error_ = QString::fromUtf8(message);
        return false;
    }

    const QCommandLineParser& parser_;
    ConsoleOptions& out_;
    QString error_;
};

}  // namespace

bool showsNoWindow(int argc, char** argv) {
    constexpr std::array<std::string_view, 6> kNoWindow{"--screenshot", "--version", "-v",
                                                        "--help",       "-h",        "--help-all"};
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (std::find(kNoWindow.begin(), kNoWindow.end(), arg) != kNoWindow.end() ||
            arg.starts_with("--screenshot=")) {
            return true;
        }
    }
    return false;
}

void declareConsoleOptions(QCommandLineParser& parser) {
    parser.setApplicationDescription(QString::fromUtf8(kDescription));
    parser.addHelpOption();
    parser.addVersionOption();
    for (const ConsoleOptionSpec& spec : kConsoleOptions) {
        parser.addOption(toQtOption(spec));
    }
    // `queuescope RUN.qsrun`: what a file manager runs for a recording (the
    // desktop entry's Exec=queuescope %f).
    parser.addPositionalArgument(
        QStringLiteral("recording"),
        QStringLiteral("A recorded run (*.qsrun) to open, as --open does."),
        QStringLiteral("[RUN.qsrun]"));
}

ConsoleOptionsRead readConsoleOptions(const QCommandLineParser& parser) {
    ConsoleOptionsRead read;
    OptionReader reader(parser, read.options);
    reader.readPlainValues();
    const bool fine = reader.readRecording() && reader.readNumbers() && reader.readView() &&
                      reader.readScreenshotActions() && reader.readSize() &&
                      reader.readEmbeddedStore() && reader.readSpan();
    if (!fine) {
        read.error = reader.error();
    }
    return read;
}

}  // namespace qs::app
