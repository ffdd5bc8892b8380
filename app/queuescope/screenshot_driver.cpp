#include "screenshot_driver.h"

#include <QApplication>
#include <QComboBox>
#include <QFileInfo>
#include <QLineEdit>
#include <QPixmap>
#include <QTimer>
#include <cstdio>
#include <memory>

#include "controllers/connection_controller.h"
#include "dialogs/parity_dialog.h"
#include "dialogs/redrive_dialog.h"
#include "main_window.h"
#include "models/lease_board_model.h"
#include "panels/channel_browser.h"
#include "panels/charts_panel.h"
#include "panels/comparison_view.h"

namespace qs::app {

namespace {

using ui::MainWindow;

// Writes `widget` as a PNG to `file`, says where (stdout) or why not
// (stderr), and ends the event loop with 0 or 1.
void saveGrabAndExit(QWidget* widget, const QString& file) {
    const bool saved = widget->grab().save(file, "PNG");
    if (saved) {
        std::printf("%s\n", qPrintable(QFileInfo(file).absoluteFilePath()));
    } else {
        std::fprintf(stderr, "queuescope: cannot write %s\n", qPrintable(file));
    }
    QApplication::exit(saved ? 0 : 1);
}

// The whole window, once the last frame and the channel list have arrived.
void grabWindowSoon(MainWindow& window, const QString& file) {
    window.channelBrowser()->refresh();
    QTimer::singleShot(600, &window, [&window, file] {
        window.charts()->refresh();  // every chart as of now, not one by one
        if (window.leaseBoard()->isActive()) {
            window.leaseBoard()->rebuild();  // its coalesced rebuild may be pending
        }
        saveGrabAndExit(&window, file);
    });
}

// The dialog alone, as Redrive… opens it after a peek with two rows selected.
void grabRedriveDialog(MainWindow& window, const QString& file, const QString& channel) {
    ui::ChannelBrowser* browser = window.channelBrowser();
    QObject::connect(
        browser, &ui::ChannelBrowser::peeked, &window,
        [browser, file, channel](const QString&, int) {
            browser->selectPeekRows({0, 1});
            auto* dialog = browser->newRedriveDialog(channel);
            dialog->show();
            QTimer::singleShot(400, dialog, [dialog, file] { saveGrabAndExit(dialog, file); });
        },
        Qt::SingleShotConnection);
    browser->selectChannel(channel);
    browser->peekSelected();
}

// Redrives `channel` with what its dialog offers first (all, each back, the
// known policy), then grabs the window.
void redriveThenGrab(MainWindow& window, const QString& file, const QString& channel) {
    ui::ChannelBrowser* browser = window.channelBrowser();
    QObject::connect(
        browser, &ui::ChannelBrowser::actionFinished, &window,
        [&window, file](bool, const QString&) { grabWindowSoon(window, file); },
        Qt::SingleShotConnection);
    browser->selectChannel(channel);
    const std::unique_ptr<ui::RedriveDialog> dialog(browser->newRedriveDialog(channel));
    browser->startRedrive(dialog->options({}));
}

// After `seconds`: the window, or the redrive --redrive asks for first.
void grabAfter(MainWindow& window, const ConsoleOptions& options, double seconds) {
    QTimer::singleShot(static_cast<int>(seconds * 1000), &window, [&window, options] {
        const QString& file = options.screenshotFile;
        if (options.redriveChannel.isEmpty()) {
            grabWindowSoon(window, file);
        } else if (options.redriveDialog) {
            grabRedriveDialog(window, file, options.redriveChannel);
        } else {
            redriveThenGrab(window, file, options.redriveChannel);
        }
    });
}

// Resized to `size`, then grabbed once it has painted.
void grabComparisonView(MainWindow& window, ui::ComparisonView* view, const QString& file,
                        QSize size) {
    view->resize(size);
    QTimer::singleShot(300, &window, [view, file] { saveGrabAndExit(view, file); });
}

// --compare: the comparison window, once the core has compared the two runs.
void grabComparison(MainWindow& window, const ConsoleOptions& options) {
    QObject::connect(
        window.comparer(), &ui::RecordingComparer::finished, &window,
        [&window, file = options.screenshotFile,
         size = options.size](const ui::ComparisonResult& result) {
            if (!result.error.isEmpty()) {
                std::fprintf(stderr, "queuescope: %s\n", qPrintable(result.error));
                QApplication::exit(3);
                return;
            }
            QTimer::singleShot(300, &window, [&window, file, size] {
                grabComparisonView(window, window.findChild<ui::ComparisonView*>(), file, size);
            });
        },
        Qt::SingleShotConnection);
    window.compareWith(options.compareWith);
}

// --parity: Run → Parity check… of the scenario against the console's
// embedded broker as the server; saves the comparison window.
void grabParity(MainWindow& window, const QString& scenario, const QString& file, QSize size) {
    ui::ParityDialog* dialog = window.parityDialog();
    dialog->scenarioBox()->setCurrentText(scenario);
    if (dialog->scenarioBox()->currentText() != scenario) {
        std::fprintf(stderr, "queuescope: --parity: no bundled scenario %s\n",
                     qPrintable(scenario));
        QApplication::exit(2);
        return;
    }
    dialog->addressField()->setText(window.connection()->settings().address);
    QObject::connect(dialog, &ui::ParityDialog::ended, &window, [](const ui::ParityReport& report) {
        if (!report.comparison) {
            std::fprintf(stderr, "queuescope: %s\n", qPrintable(ui::ParityJob::verdict(report)));
            QApplication::exit(3);
        }
    });
    QObject::connect(dialog, &ui::ParityDialog::comparisonShown, &window,
                     [&window, file, size](ui::ComparisonView* view) {
                         grabComparisonView(window, view, file, size);
                     });
    if (!dialog->startCheck()) {
        std::fprintf(stderr, "queuescope: --parity: %s\n", qPrintable(dialog->problem()));
        QApplication::exit(2);
    }
}

}  // namespace

void scheduleScreenshot(MainWindow& window, const ConsoleOptions& options) {
    if (!options.parityScenario.isEmpty()) {
        QTimer::singleShot(0, &window, [&window, options] {
            grabParity(window, options.parityScenario, options.screenshotFile, options.size);
        });
        return;
    }
    if (options.recording.isEmpty()) {
        grabAfter(window, options, options.afterSeconds);  // a live run needs its time
        return;
    }
    // A recording is there once it is shown.
    QObject::connect(
        &window, &MainWindow::recordingShown, &window,
        [&window, options] {
            if (!options.compareWith.isEmpty()) {
                grabComparison(window, options);
            } else {
                grabAfter(window, options, options.afterGiven ? options.afterSeconds : 0.2);
            }
        },
        Qt::SingleShotConnection);
}

}  // namespace qs::app
