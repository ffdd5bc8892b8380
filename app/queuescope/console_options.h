#pragma once

#include <QCommandLineParser>
#include <QSize>
#include <QString>
#include <optional>

#include "controllers/embedded_store.h"

// The desktop console's command line (`queuescope [options] [RUN.qsrun]`,
// docs/ui.md and the man page): the options, declared once from a table in the
// order `queuescope --help` lists them, and read into a plain struct that says
// what the user asked for. Qt's parser keeps --help, --version and unknown
// options; every value and combination is checked here, each bad one with its
// own line (exit 2). Pure reading: no window, no broker, any thread.
namespace qs::app {

// The exit code of a bad option value or combination.
constexpr int kBadOptionExit = 2;

// The dock --view brings to the front for the screenshot.
enum class FrontView { Messages, Inflight, Polls, Log, Channels, Rates, Lessons };

struct ConsoleOptions {
    bool screenshot = false;  // --screenshot FILE: grab the window offscreen and exit
    QString screenshotFile;
    QString scenario;         // --scenario: bundled name or JSON path; "" = none
    double afterSeconds = 5;  // --after: the live run's time before the grab
    bool afterGiven = false;  // a recording is grabbed at once unless --after is given
    bool embedded = false;    // --embedded: start the embedded broker, look for no server
    int port = 50000;         // --port: the embedded broker's preferred port
    // --data-dir / --sync: the embedded broker's store this session (none: the saved one).
    std::optional<ui::EmbeddedStore> embeddedStore;
    bool firstRun = false;                 // --first-run: show the greeting
    bool dark = false;                     // --dark
    FrontView view = FrontView::Messages;  // --view
    QSize size{1600, 1000};                // --size: the screenshot's window size
    std::optional<double> spanSeconds;     // --span: the timeline's width
    QString recording;                     // --open FILE or the RUN.qsrun argument
    std::optional<double> atSeconds;       // --at: the cursor in the recording
    QString redriveChannel;                // --redrive
    bool redriveDialog = false;            // --redrive-dialog
    QString compareWith;                   // --compare
    QString lesson;                        // --lesson
    std::optional<QString> answer;         // --answer (given: even when empty)
    QString parityScenario;                // --parity
};

// True when the arguments ask for no window on screen (--screenshot, --help,
// --version): Qt may then use its offscreen platform. Read before Qt parses.
bool showsNoWindow(int argc, char** argv);

// Adds the console's options, the RUN.qsrun argument and the description of
// the subcommands to `parser` (with --help and --version).
void declareConsoleOptions(QCommandLineParser& parser);

// What a parser that has parsed the arguments (declareConsoleOptions) asks
// for, or why it cannot be done: `error` is one line without the
// "queuescope: " prefix, to be said with exit kBadOptionExit.
struct ConsoleOptionsRead {
    ConsoleOptions options;
    QString error;  // "" = fine
};
ConsoleOptionsRead readConsoleOptions(const QCommandLineParser& parser);

}  // namespace qs::app
