#pragma once

#include <QObject>
#include <QString>
#include <memory>
#include <thread>

// Writes a recorded run (*.qsrun) as the report `queuescope report` writes
// (analysis/html_report.h) or the trace `queuescope trace` writes
// (analysis/trace_export.h), off the UI thread: a 100k-task run takes
// seconds to read and write. The core does all of it (RecordedRun::load, then
// the writer, through PATH.part renamed to PATH, so a failed export leaves no
// file and an earlier one at PATH alone).
//
// Threading: start() and the signals on the thread that owns the exporter
// (the UI thread); the work on a thread of its own, joined by the next
// start() and by the destructor. One export at a time.
namespace qs::ui {

enum class ExportKind { Report, Trace };

struct ExportResult {
    ExportKind kind = ExportKind::Report;
    QString recording;  // what was read
    QString out;        // what was (or was to be) written
    QString error;      // "" = written; else the core's words ("PATH: why")
    QString detail;     // what the writer says it wrote ("12 slices on 3 worker tracks")
};

class RunExporter : public QObject {
    Q_OBJECT
public:
    explicit RunExporter(QObject* parent = nullptr);
    ~RunExporter() override;

    // False (and nothing starts) while an export is under way.
    bool start(ExportKind kind, const QString& recording, const QString& out);
    bool isBusy() const { return busy_; }

    // The words for a kind: "report", "trace".
    static QString kindName(ExportKind kind);

Q_SIGNALS:
    void finished(const qs::ui::ExportResult& result);

private:
    void done(const ExportResult& result);

    bool busy_ = false;
    std::thread worker_;
};

// The whole export on the calling thread (RunExporter's worker runs this).
ExportResult exportRecording(ExportKind kind, const QString& recording, const QString& out);

}  // namespace qs::ui
