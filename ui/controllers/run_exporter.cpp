#include "controllers/run_exporter.h"

#include <QFileInfo>
#include <QMetaObject>
#include <exception>
#include <sstream>

#include "analysis/command_line.h"
#include "analysis/html_report.h"
#include "analysis/recorded_run.h"
#include "analysis/trace_export.h"
#include "models/core_text.h"

namespace qs::ui {

RunExporter::RunExporter(QObject* parent) : QObject(parent) {}

RunExporter::~RunExporter() {
    if (worker_.joinable()) {
        worker_.join();
    }
}

QString RunExporter::kindName(ExportKind kind) {
    return kind == ExportKind::Report ? QStringLiteral("report") : QStringLiteral("trace");
}

bool RunExporter::start(ExportKind kind, const QString& recording, const QString& out) {
    if (busy_) {
        return false;
    }
    if (worker_.joinable()) {
        worker_.join();  // the last export's thread, already done
    }
    busy_ = true;
    worker_ = std::thread([this, kind, recording, out] {
        const ExportResult result = exportRecording(kind, recording, out);
        QMetaObject::invokeMethod(
            this, [this, result] { done(result); }, Qt::QueuedConnection);
    });
    return true;
}

void RunExporter::done(const ExportResult& result) {
    busy_ = false;
    Q_EMIT finished(result);
}

namespace {

QString describe(const analysis::ReportStats& s) {
    return QStringLiteral("%1 of %2 redelivered or not-acked messages told")
        .arg(s.journeys)
        .arg(s.notableMessages);
}

QString describe(const analysis::TraceStats& s) {
    return QStringLiteral("%1 deliveries on %2 worker tracks, %3 flow arrows")
        .arg(s.slices)
        .arg(s.workerTracks)
        .arg(s.flowArrows);
}

}  // namespace

ExportResult exportRecording(ExportKind kind, const QString& recording, const QString& out) {
    ExportResult result{kind, recording, QFileInfo(out).absoluteFilePath(), {}, {}};
    std::string error;
    std::unique_ptr<analysis::RecordedRun> run;
    try {
        run = analysis::RecordedRun::load(recording.toStdString(), &error);
    } catch (const std::exception& e) {
        error = recording.toStdString() + ": cannot be read: " + e.what();
    }
    if (!run) {
        result.error = fromView(error);
        return result;
    }
    std::ostringstream unused;  // writeOutput's "-" (standard output): never, the path is absolute
    const bool written = analysis::writeOutput(
        result.out.toStdString(), unused,
        [&](std::ostream& o) {
            if (kind == ExportKind::Report) {
                result.detail = describe(analysis::writeHtmlReport(*run, o));
            } else {
                result.detail = describe(analysis::writeTrace(*run, o));
            }
        },
        &error);
    if (!written) {
        result.error = fromView(error);
        result.detail.clear();
    }
    return result;
}

}  // namespace qs::ui
