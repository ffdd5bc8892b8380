#include "controllers/recording_comparer.h"

#include <QMetaObject>
#include <exception>
#include <memory>

#include "analysis/recorded_run.h"
#include "analysis/run_comparison.h"
#include "models/core_text.h"

namespace qs::ui {

RecordingComparer::RecordingComparer(QObject* parent) : QObject(parent) {}

RecordingComparer::~RecordingComparer() {
    if (worker_.joinable()) {
        worker_.join();
    }
}

bool RecordingComparer::start(const QString& a, const QString& b) {
    if (busy_) {
        return false;
    }
    if (worker_.joinable()) {
        worker_.join();  // the last comparison's thread, already done
    }
    busy_ = true;
    worker_ = std::thread([this, a, b] {
        const ComparisonResult result = compareRecordings(a, b);
        QMetaObject::invokeMethod(
            this,
            [this, result] {
                busy_ = false;
                Q_EMIT finished(result);
            },
            Qt::QueuedConnection);
    });
    return true;
}

namespace {

std::unique_ptr<analysis::RecordedRun> load(const QString& path, QString* error) {
    std::string why;
    try {
        auto run = analysis::RecordedRun::load(path.toStdString(), &why);
        if (!run) {
            *error = fromView(why);
        }
        return run;
    } catch (const std::exception& e) {
        *error =
            QStringLiteral("%1: cannot be read: %2").arg(path, QString::fromLocal8Bit(e.what()));
        return nullptr;
    }
}

}  // namespace

ComparisonResult compareRecordings(const QString& a, const QString& b) {
    ComparisonResult result{a, b, {}, false, {}, {}};
    const auto runA = load(a, &result.error);
    if (!runA) {
        return result;
    }
    const auto runB = load(b, &result.error);
    if (!runB) {
        return result;
    }
    result.comparison = analysis::compareRuns(*runA, *runB);
    result.text =
        fromView(analysis::formatComparison(result.comparison, a.toStdString(), b.toStdString()));
    result.differs = result.comparison.differs();
    return result;
}

}  // namespace qs::ui
