// queuescope: the desktop console, or `queuescope run ...` for the headless
// runner, `queuescope summary RUN.qsrun` for a recorded run's summary,
// `redrive` for dead-lettered messages, `trace`, `compare`, `report` on
// recorded runs and `parity` of a server with the embedded broker (all
// dispatched before any QApplication exists: no display needed).
#include <QApplication>
#include <QCommandLineParser>
#include <QStandardPaths>
#include <cstdio>
#include <optional>

#include "common/version.h"
#include "console_options.h"
#include "console_startup.h"
#include "main_window.h"
#include "screenshot_driver.h"
#include "subcommands.h"

namespace {

void nameApplication() {
    QApplication::setOrganizationName(QStringLiteral("Queuescope"));
    QApplication::setApplicationName(QStringLiteral("queuescope"));
    QGuiApplication::setDesktopFileName(QStringLiteral("org.queuescope.Queuescope"));
    QApplication::setApplicationVersion(
        QString::fromUtf8(qs::kVersion.data(), static_cast<qsizetype>(qs::kVersion.size())));
}

}  // namespace

int main(int argc, char** argv) {
    if (const std::optional<int> exitCode = qs::app::runSubcommand(argc, argv)) {
        return *exitCode;
    }
    if (qs::app::showsNoWindow(argc, argv) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");  // works on a machine without a display too
    }
    QApplication app(argc, argv);
    nameApplication();
    QCommandLineParser parser;
    qs::app::declareConsoleOptions(parser);
    parser.process(app);  // --help, --version and unknown options end here
    const qs::app::ConsoleOptionsRead read = qs::app::readConsoleOptions(parser);
    if (!read.error.isEmpty()) {
        std::fprintf(stderr, "queuescope: %s\n", qPrintable(read.error));
        return qs::app::kBadOptionExit;
    }
    const qs::app::ConsoleOptions& options = read.options;
    if (options.screenshot && !options.lesson.isEmpty()) {
        // A lesson's checks read the run's recording; a screenshot records
        // into Qt's test-mode folder (~/.qttest/share), not the user's runs.
        QStandardPaths::setTestModeEnabled(true);
    }
    qs::ui::MainWindow window(qs::app::mainWindowOptions(options));
    if (const std::optional<int> exitCode = qs::app::startConsole(window, options)) {
        return *exitCode;
    }
    if (options.screenshot) {
        qs::app::scheduleScreenshot(window, options);
    }
    return QApplication::exec();
}
