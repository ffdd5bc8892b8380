// File → Compare with recording… (docs/ui.md, "Comparing two runs"): the run
// shown (as an export takes it) against a recording, compared off the UI
// thread (RecordingComparer) and shown side by side (ComparisonView).
#include <QFileDialog>
#include <QFileInfo>

#include "controllers/run_recorder.h"
#include "main_window.h"
#include "panels/comparison_view.h"

namespace qs::ui {

void MainWindow::compareDialog() {
    const QString title = QStringLiteral("Compare with recording");
    const QString folder = recentRecordings_.isEmpty()
                               ? recorder_->folder()
                               : QFileInfo(recentRecordings_.first()).path();
    const QString filter = QStringLiteral("Queuescope recordings (*.qsrun);;All files (*)");
    const QString path = openPathAsker_ ? openPathAsker_(title, folder, filter)
                                        : QFileDialog::getOpenFileName(this, title, folder, filter);
    if (!path.isEmpty()) {
        compareWith(path);
    }
}

void MainWindow::compareWith(const QString& other) {
    const QString b = QFileInfo(other).absoluteFilePath();
    withShownRecording(QStringLiteral("Cannot compare"), [this, b](const QString& recording,
                                                                   const QString& covers) {
        exportCovers_ = covers;
        setExportBusy(QStringLiteral("Comparing %1 with %2…")
                          .arg(QFileInfo(recording).fileName(), QFileInfo(b).fileName()));
        comparer_->start(recording, b);
    });
}

void MainWindow::comparisonFinished(const ComparisonResult& result) {
    setExportBusy(QString());
    if (!result.error.isEmpty()) {
        showExportError(QStringLiteral("Cannot compare"),
                        result.error + QStringLiteral("\n\nNothing was compared."));
        return;
    }
    auto* view = new ComparisonView(result, exportCovers_, this);
    view->setAttribute(Qt::WA_DeleteOnClose);
    view->show();  // not modal: the console goes on beside it
}

}  // namespace qs::ui
