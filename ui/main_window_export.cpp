// File → Export report… and Export trace… (docs/ui.md, "Exporting a run"); the
// run shown as a recording, which Compare with recording… reads too
// (main_window_compare.cpp).
#include <QAction>
#include <QDesktopServices>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QUrl>

#include "controllers/run_recorder.h"
#include "controllers/save_location.h"
#include "main_window.h"

namespace qs::ui {

namespace {

// How long a live run's recording may take to commit what the views show
// (the writer commits every 250 ms; a slow disk gets far more).
constexpr int kCommitWaitMs = 30000;
constexpr int kCommitPollMs = 50;

QString capitalised(QString s) {
    s[0] = s[0].toUpper();
    return s;
}

}  // namespace

void MainWindow::buildExportActions(QMenu* file) {
    exporter_ = new RunExporter(this);
    connect(exporter_, &RunExporter::finished, this, &MainWindow::exportFinished);
    exportWait_.setInterval(kCommitPollMs);

    QAction* report =
        file->addAction(QStringLiteral("Export re&port…"), this, &MainWindow::exportReportDialog);
    report->setObjectName(QStringLiteral("exportReportAction"));
    report->setToolTip(QStringLiteral(
        "Write the run shown as one self-contained HTML page (what `queuescope report` "
        "writes): result, settings, per-worker summary, charts, what happened."));
    QAction* trace =
        file->addAction(QStringLiteral("Export tr&ace…"), this, &MainWindow::exportTraceDialog);
    trace->setObjectName(QStringLiteral("exportTraceAction"));
    trace->setToolTip(QStringLiteral(
        "Write the run shown as Chrome trace JSON (what `queuescope trace` writes), to open in "
        "ui.perfetto.dev or chrome://tracing."));
    comparer_ = new RecordingComparer(this);
    connect(comparer_, &RecordingComparer::finished, this, &MainWindow::comparisonFinished);
    QAction* compare = file->addAction(QStringLiteral("Co&mpare with recording…"), this,
                                       &MainWindow::compareDialog);
    compare->setObjectName(QStringLiteral("compareAction"));
    compare->setToolTip(QStringLiteral(
        "Compare the run shown with a recorded run, as `queuescope compare` does: each "
        "difference judged against what the work-queue semantics allow."));
    exportActions_ = {report, trace, compare};

    exportBusy_ = new QProgressBar(this);
    exportBusy_->setRange(0, 0);  // busy: the core says nothing of its progress
    exportBusy_->setMaximumWidth(120);
    exportBusy_->setTextVisible(false);
    exportBusy_->setToolTip(QStringLiteral("An export is being written."));
    exportBusy_->hide();
    statusBar()->addPermanentWidget(exportBusy_);
}

bool MainWindow::isExporting() const {
    return exporter_->isBusy() || comparer_->isBusy() || exportWait_.isActive();
}

void MainWindow::exportReportDialog() {
    exportDialog(ExportKind::Report);
}

void MainWindow::exportTraceDialog() {
    exportDialog(ExportKind::Trace);
}

void MainWindow::exportDialog(ExportKind kind) {
    const bool report = kind == ExportKind::Report;
    const QString title = report ? QStringLiteral("Export report") : QStringLiteral("Export trace");
    const QString source = recordingPath_.isEmpty() ? recorder_->currentPath() : recordingPath_;
    const QString base =
        source.isEmpty() ? QStringLiteral("run") : QFileInfo(source).completeBaseName();
    const QString name = base + (report ? QStringLiteral(".html") : QStringLiteral(".trace.json"));
    const QString filter = report ? QStringLiteral("HTML page (*.html)")
                                  : QStringLiteral("Chrome trace JSON (*.json)");
    const QString path = savePathAsker_ ? savePathAsker_(title, name, filter)
                                        : askSavePath(this, title, name, filter);
    if (!path.isEmpty()) {
        exportRun(kind, path);
    }
}

void MainWindow::exportRun(ExportKind kind, const QString& out) {
    withShownRecording(QStringLiteral("Cannot export the %1").arg(RunExporter::kindName(kind)),
                       [this, kind, out](const QString& recording, const QString& covers) {
                           startExport(kind, recording, out, covers);
                       });
}

void MainWindow::withShownRecording(const QString& title, const ShownRecordingUse& use) {
    if (isExporting()) {
        showExportError(title, QStringLiteral("An export or comparison is still under way; try "
                                              "again when it is done."));
        return;
    }
    if (!recordingPath_.isEmpty()) {
        use(recordingPath_, QStringLiteral("the recording shown"));
        return;
    }
    const RunRecorder::ExportMark mark = recorder_->markForExport();
    if (mark.path.isEmpty()) {
        const QString why = !recorder_->problem().isEmpty() ? recorder_->problem()
                            : !recorder_->isEnabled()
                                ? QStringLiteral("Recording runs is off (File → Recordings).")
                                : QStringLiteral("There is no run to export yet.");
        showExportError(title,
                        why + QStringLiteral("\n\nExports and comparisons are made from the run's "
                                             "recording: play a scenario or send tasks, or open a "
                                             "recording (File → Open recording…)."));
        return;
    }
    // The live run as far as the views show it: wait until the recording has
    // committed that far (at most kCommitWaitMs), then read the file.
    const QString covers = QStringLiteral("the run so far (%1 events)").arg(mark.events);
    setExportBusy(QStringLiteral("Committing the recording…"));
    const QDeadlineTimer deadline(kCommitWaitMs);
    exportWait_.disconnect();
    connect(&exportWait_, &QTimer::timeout, this, [this, use, mark, covers, deadline, title] {
        if (recorder_->committedThrough(mark)) {
            exportWait_.stop();
            use(mark.path, covers);
        } else if (deadline.hasExpired()) {
            exportWait_.stop();
            setExportBusy(QString());
            showExportError(title, QStringLiteral("The recording %1 did not commit the run's "
                                                  "events within %2 s (a slow disk?): nothing "
                                                  "was read or written.")
                                       .arg(mark.path)
                                       .arg(kCommitWaitMs / 1000));
        }
    });
    exportWait_.start();
}

void MainWindow::startExport(ExportKind kind, const QString& recording, const QString& out,
                             const QString& covers) {
    exportCovers_ = covers;
    setExportBusy(QStringLiteral("Writing the %1 of %2…")
                      .arg(RunExporter::kindName(kind), QFileInfo(recording).fileName()));
    exporter_->start(kind, recording, out);
}

void MainWindow::setExportBusy(const QString& message) {
    const bool busy = !message.isEmpty();
    exportBusy_->setVisible(busy);
    for (QAction* a : exportActions_) {
        a->setEnabled(!busy);
    }
    if (busy) {
        showStatus(message);
    } else {
        statusBar()->clearMessage();
    }
}

void MainWindow::exportFinished(const ExportResult& result) {
    setExportBusy(QString());
    const QString what = RunExporter::kindName(result.kind);
    if (!result.error.isEmpty()) {
        showExportError(QStringLiteral("Cannot export the %1").arg(what),
                        result.error + QStringLiteral("\n\nNothing was written."));
        return;
    }
    noteSavedTo(result.out);
    showStatus(
        QStringLiteral("%1 of %2 written to %3").arg(capitalised(what), exportCovers_, result.out),
        15000);
    auto* box = new QMessageBox(QMessageBox::Information,
                                QStringLiteral("%1 written").arg(capitalised(what)),
                                QStringLiteral("The %1 of %2 is in\n%3\n\n%4.")
                                    .arg(what, exportCovers_, result.out, result.detail),
                                QMessageBox::Close, this);
    box->setObjectName(QStringLiteral("exportDone"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton* open = box->addButton(QStringLiteral("&Open"), QMessageBox::ActionRole);
    QPushButton* folder = box->addButton(QStringLiteral("Open &folder"), QMessageBox::ActionRole);
    const QString file = result.out;
    connect(open, &QPushButton::clicked, box,
            [file] { QDesktopServices::openUrl(QUrl::fromLocalFile(file)); });
    connect(folder, &QPushButton::clicked, box, [file] {
        QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(file).absolutePath()));
    });
    box->open();  // not modal to the application: the console goes on
}

void MainWindow::showExportError(const QString& title, const QString& text) {
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("exportError"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

}  // namespace qs::ui
