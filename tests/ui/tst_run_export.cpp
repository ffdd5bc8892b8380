// File → Export report… and Export trace… (docs/ui.md, "Exporting a run"): a
// short scenario played on the embedded broker is exported while its run is
// live, through the menu actions (the save dialog's path supplied by the
// test); the export runs off the UI thread and ends in a dialog naming the
// file; the report holds the run's figures and the trace is valid JSON with a
// slice for each of the run's deliveries. The finished run's recording,
// opened, exports to exactly what the core's writers make of it, and compared
// with itself shows the core's comparison side by side. An
// unwritable path, no run at all and a recording gone from the disk are
// refused in a dialog, and no file is left.
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QMessageBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "analysis/html_report.h"
#include "analysis/recorded_run.h"
#include "analysis/run_comparison.h"
#include "analysis/trace_export.h"
#include "controllers/connection_controller.h"
#include "controllers/console_run.h"
#include "controllers/run_controller.h"
#include "controllers/run_recorder.h"
#include "controllers/scenario_player.h"
#include "main_window.h"
#include "models/comparison_model.h"
#include "models/task_difference_model.h"
#include "panels/comparison_view.h"
#include "run/run.h"

using namespace qs;
using namespace qs::ui;

namespace {

constexpr const char* kScenario = R"({
  "name": "export me",
  "channel": "tasks.export",
  "tasks": { "count": 12, "body": "Task #{n}",
             "policy": { "maxReceiveCount": 2, "deadLetterQueue": "tasks.export.dlq" },
             "poison": [4] },
  "workers": { "count": 3, "batch": 2, "waitSeconds": 1, "work": { "kind": "fixed", "ms": 30 } },
  "until": "drained",
  "timeoutSeconds": 30
})";

constexpr int kDeadlineMs = 60000;

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class TestRunExport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void liveRunExportsThroughTheMenu();
    void openedRecordingExportsWhatTheCoreWrites();
    void unwritablePathIsRefused();
    void noRunIsRefused();
    void vanishedRecordingIsRefused();
    void compareShowsWhatTheCoreCompares();

private:
    void startWindow();
    void playScenario();
    // Triggers the menu action for `kind` with `out` as the dialog's answer
    // and waits for the dialog that ends the export; returns its text.
    QString exportThroughMenu(ExportKind kind, const QString& out, const char* dialogName);
    QString openedRecording();  // the finished run's recording, opened in the window

    MainWindow* window_ = nullptr;
    std::unique_ptr<QTemporaryDir> dir_;
};

void TestRunExport::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // the window records without settings
}

void TestRunExport::init() {
    dir_ = std::make_unique<QTemporaryDir>();
    QVERIFY(dir_->isValid());
}

void TestRunExport::cleanup() {
    delete window_;
    window_ = nullptr;
    dir_.reset();
}

void TestRunExport::startWindow() {
    MainWindowOptions options;
    options.autoConnect = false;
    options.useSettings = false;
    window_ = new MainWindow(options);
    QDir().mkpath(dir_->filePath(QStringLiteral("runs")));
    window_->recorder()->setFolder(dir_->filePath(QStringLiteral("runs")));
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_));
}

void TestRunExport::playScenario() {
    QString error;
    QVERIFY2(window_->connection()->startEmbedded(0, &error), qPrintable(error));
    const QString path = dir_->filePath(QStringLiteral("export.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(kScenario);
    f.close();
    QVERIFY2(window_->playScenario(path, &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(!window_->scenarioPlayer()->isRunning(), kDeadlineMs);
    const LedgerSummary s = window_->consoleRun()->run().summaryNow();
    QCOMPARE(s.count(MessageState::Acked), 11u);
    QCOMPARE(s.count(MessageState::DeadLettered), 1u);
}

QString TestRunExport::exportThroughMenu(ExportKind kind, const QString& out,
                                         const char* dialogName) {
    window_->setSavePathAsker([out](const QString&, const QString& name, const QString&) {
        return name.isEmpty() ? QString() : out;
    });
    auto* action = window_->findChild<QAction*>(kind == ExportKind::Report
                                                    ? QStringLiteral("exportReportAction")
                                                    : QStringLiteral("exportTraceAction"));
    if (action == nullptr) {
        return QStringLiteral("no action");
    }
    action->trigger();
    QMessageBox* box = nullptr;
    const auto found = [&] {
        box = window_->findChild<QMessageBox*>(QString::fromLatin1(dialogName));
        return box != nullptr;
    };
    if (!QTest::qWaitFor(found, kDeadlineMs)) {
        return QStringLiteral("no %1 dialog").arg(QString::fromLatin1(dialogName));
    }
    const QString text = box->text();
    delete box;
    return text;
}

QString TestRunExport::openedRecording() {
    const QString path = window_->recorder()->currentPath();
    window_->run()->resetRun();  // ends the run: its recording is closed
    if (!QTest::qWaitFor([this] { return window_->recorder()->closing() == 0; }, kDeadlineMs)) {
        return QString();
    }
    QString error;
    return window_->openRecording(path, &error) ? window_->recordingPath() : QString();
}

void TestRunExport::liveRunExportsThroughTheMenu() {
    startWindow();
    playScenario();
    const QString recording = window_->recorder()->currentPath();
    QVERIFY(!recording.isEmpty());  // still live: the workers go on polling

    // The report: off the UI thread (the action returns while it is written).
    const QString report = dir_->filePath(QStringLiteral("live.html"));
    QString suggested;
    window_->setSavePathAsker([&](const QString&, const QString& name, const QString&) {
        suggested = name;
        return report;
    });
    window_->findChild<QAction*>(QStringLiteral("exportReportAction"))->trigger();
    QVERIFY(window_->isExporting());
    QCOMPARE(suggested, QFileInfo(recording).completeBaseName() + QStringLiteral(".html"));
    QTRY_VERIFY_WITH_TIMEOUT(window_->findChild<QMessageBox*>(QStringLiteral("exportDone")),
                             kDeadlineMs);
    auto* done = window_->findChild<QMessageBox*>(QStringLiteral("exportDone"));
    QVERIFY2(done->text().contains(QFileInfo(report).absoluteFilePath()), qPrintable(done->text()));
    QVERIFY2(done->text().contains(QStringLiteral("the run so far")), qPrintable(done->text()));
    delete done;
    QVERIFY(!window_->isExporting());
    QVERIFY(window_->statusTextWhole().contains(QFileInfo(report).absoluteFilePath()));
    const QString html = QString::fromUtf8(readAll(report));
    QVERIFY(html.startsWith(QStringLiteral("<!DOCTYPE html>")));
    QVERIFY(html.contains(QStringLiteral("export me")));
    QVERIFY(html.contains(recording.toHtmlEscaped()));
    QVERIFY(html.contains(QStringLiteral("Task #4")));  // the dead-lettered one's journey
    QVERIFY(html.trimmed().endsWith(QStringLiteral("</html>")));

    // The trace: valid JSON, a slice for every delivery the console saw.
    const QString trace = dir_->filePath(QStringLiteral("live.trace.json"));
    const QString text = exportThroughMenu(ExportKind::Trace, trace, "exportDone");
    QVERIFY2(text.contains(QFileInfo(trace).absoluteFilePath()), qPrintable(text));
    const nlohmann::json doc = nlohmann::json::parse(readAll(trace).toStdString(), nullptr, false);
    QVERIFY(!doc.is_discarded());
    const auto& events = doc.is_array() ? doc : doc.at("traceEvents");
    std::size_t slices = 0;
    std::set<std::string> messages;
    for (const auto& e : events) {
        if (e.value("ph", "") == "X") {
            ++slices;
            messages.insert(e.at("args").value("message id", ""));
        }
    }
    const Run& run = window_->consoleRun()->run();
    std::size_t deliveries = 0;
    std::size_t missing = 0;
    run.ledger().forEachMessage([&](const MessageRecord& m) {
        deliveries += m.deliveries.size();
        missing += messages.count(m.messageId.str()) == 1 ? 0 : 1;
    });
    QCOMPARE(missing, 0u);
    QCOMPARE(slices, deliveries);
    QVERIFY(deliveries >= 13);  // 12 tasks, the poison one handed out twice
}

void TestRunExport::openedRecordingExportsWhatTheCoreWrites() {
    startWindow();
    playScenario();
    const QString path = openedRecording();
    QVERIFY(!path.isEmpty());
    std::string error;
    const auto recorded = analysis::RecordedRun::load(path.toStdString(), &error);
    QVERIFY2(recorded, error.c_str());

    const QString report = dir_->filePath(QStringLiteral("opened.html"));
    QString text = exportThroughMenu(ExportKind::Report, report, "exportDone");
    QVERIFY2(text.contains(QStringLiteral("the recording shown")), qPrintable(text));
    std::ostringstream html;
    analysis::writeHtmlReport(*recorded, html);
    QCOMPARE(readAll(report).toStdString(), html.str());

    const QString trace = dir_->filePath(QStringLiteral("opened.trace.json"));
    text = exportThroughMenu(ExportKind::Trace, trace, "exportDone");
    QVERIFY2(text.contains(trace), qPrintable(text));
    std::ostringstream json;
    analysis::writeTrace(*recorded, json);
    QCOMPARE(readAll(trace).toStdString(), json.str());
}

void TestRunExport::unwritablePathIsRefused() {
    startWindow();
    playScenario();
    const QString out = dir_->filePath(QStringLiteral("no-such-folder/report.html"));
    const QString text = exportThroughMenu(ExportKind::Report, out, "exportError");
    QVERIFY2(text.contains(out) && text.contains(QStringLiteral("Nothing was written")),
             qPrintable(text));
    QVERIFY(!QFileInfo::exists(out));
    QVERIFY(!QFileInfo::exists(out + QStringLiteral(".part")));
    QVERIFY(!window_->isExporting());
    QVERIFY(window_->findChild<QAction*>(QStringLiteral("exportReportAction"))->isEnabled());
}

void TestRunExport::noRunIsRefused() {
    startWindow();
    const QString out = dir_->filePath(QStringLiteral("none.trace.json"));
    const QString text = exportThroughMenu(ExportKind::Trace, out, "exportError");
    QVERIFY2(text.contains(QStringLiteral("no run to export yet")), qPrintable(text));
    QVERIFY(!QFileInfo::exists(out));
}

void TestRunExport::vanishedRecordingIsRefused() {
    startWindow();
    playScenario();
    const QString path = openedRecording();
    QVERIFY(!path.isEmpty());
    QVERIFY(QFile::remove(path));  // deleted behind the console's back
    const QString out = dir_->filePath(QStringLiteral("gone.html"));
    const QString text = exportThroughMenu(ExportKind::Report, out, "exportError");
    QVERIFY2(text.startsWith(path), qPrintable(text));
    QVERIFY(!QFileInfo::exists(out));
    QCOMPARE(window_->recordingPath(), path);  // still shown
}

void TestRunExport::compareShowsWhatTheCoreCompares() {
    startWindow();
    playScenario();
    const QString path = openedRecording();
    QVERIFY(!path.isEmpty());
    std::string error;
    const auto recorded = analysis::RecordedRun::load(path.toStdString(), &error);
    QVERIFY2(recorded, error.c_str());

    // The run shown against its own recording, through the menu.
    window_->setOpenPathAsker(
        [path](const QString&, const QString&, const QString&) { return path; });
    window_->findChild<QAction*>(QStringLiteral("compareAction"))->trigger();
    QVERIFY(window_->isExporting());
    QTRY_VERIFY_WITH_TIMEOUT(window_->findChild<QDialog*>(QStringLiteral("comparisonDialog")),
                             kDeadlineMs);
    auto* view = window_->findChild<ComparisonView*>(QStringLiteral("comparisonDialog"));
    QVERIFY(view != nullptr);
    const analysis::RunComparison want = analysis::compareRuns(*recorded, *recorded);
    // "Copy as text" copies what `queuescope compare` prints.
    QCOMPARE(view->textCopy().toStdString(),
             analysis::formatComparison(want, path.toStdString(), path.toStdString()));
    // Side by side: every total of the core, this run's value and the other's.
    const ComparisonModel* model = view->comparisonModel();
    const QModelIndex totals = model->sectionIndex(QStringLiteral("Totals"));
    QVERIFY(totals.isValid());
    QCOMPARE(model->rowCount(totals), static_cast<int>(want.totals.size()));
    for (int r = 0; r < model->rowCount(totals); ++r) {
        const analysis::ComparedValue& row = want.totals[static_cast<std::size_t>(r)];
        QCOMPARE(model->index(r, ComparisonModel::ThisRun, totals).data().toString(),
                 QString::fromStdString(row.a));
        QCOMPARE(model->index(r, ComparisonModel::OtherRun, totals).data().toString(),
                 QString::fromStdString(row.b));
        QCOMPARE(model->index(r, ComparisonModel::Verdict, totals).data().toString(),
                 QStringLiteral("same"));
    }
    QCOMPARE(view->taskModel()->rowCount(), 0);
    QVERIFY2(view->verdictLine().startsWith(QStringLiteral("The same work")),
             qPrintable(view->verdictLine()));
    QVERIFY(!view->isModal());
    delete view;

    // A file that is not a recording: refused with the core's words.
    const QString junk = dir_->filePath(QStringLiteral("junk.qsrun"));
    QFile f(junk);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("not a recording");
    f.close();
    window_->compareWith(junk);
    QTRY_VERIFY_WITH_TIMEOUT(window_->findChild<QMessageBox*>(QStringLiteral("exportError")),
                             kDeadlineMs);
    auto* box = window_->findChild<QMessageBox*>(QStringLiteral("exportError"));
    QVERIFY2(box->text().startsWith(junk) &&
                 box->text().contains(QStringLiteral("Nothing was compared")),
             qPrintable(box->text()));
    delete box;
    QVERIFY(window_->findChild<QDialog*>(QStringLiteral("comparisonDialog")) == nullptr);
}

QTEST_MAIN(TestRunExport)
#include "tst_run_export.moc"
