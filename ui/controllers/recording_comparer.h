#pragma once

#include <QObject>
#include <QString>
#include <thread>

#include "analysis/run_comparison.h"

// Compares two recorded runs (*.qsrun) as `queuescope compare A B` does
// (analysis/run_comparison.h: compareRuns, formatComparison), off the UI
// thread: each run is read whole first.
//
// Threading: start() and the signal on the thread that owns the comparer (the
// UI thread); the work on a thread of its own, joined by the next start() and
// by the destructor. One comparison at a time.
namespace qs::ui {

struct ComparisonResult {
    QString a;             // the run shown
    QString b;             // the one chosen
    QString text;          // the comparison's tables, as `queuescope compare` prints them
    bool differs = false;  // a difference the work-queue semantics do not allow
    QString error;         // "" = compared; else the core's "PATH: why"
    analysis::RunComparison comparison;  // every row, judged (what `text` prints)
};

class RecordingComparer : public QObject {
    Q_OBJECT
public:
    explicit RecordingComparer(QObject* parent = nullptr);
    ~RecordingComparer() override;

    // False (and nothing starts) while a comparison is under way.
    bool start(const QString& a, const QString& b);
    bool isBusy() const { return busy_; }

Q_SIGNALS:
    void finished(const qs::ui::ComparisonResult& result);

private:
    bool busy_ = false;
    std::thread worker_;
};

// The whole comparison on the calling thread (the comparer's worker runs this).
ComparisonResult compareRecordings(const QString& a, const QString& b);

}  // namespace qs::ui
