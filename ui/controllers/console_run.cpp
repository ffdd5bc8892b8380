#include "controllers/console_run.h"

#include <QDir>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <algorithm>

namespace qs::ui {

ConsoleRun::ConsoleRun(QObject* parent) : ConsoleRun(defaultSpillFolder(), parent) {}

ConsoleRun::ConsoleRun(const QString& spillFolder, QObject* parent)
    : QObject(parent), spillFolder_(spillFolder) {
    reset();
}

ConsoleRun::~ConsoleRun() = default;

LedgerOptions ConsoleRun::defaultLedgerOptions() {
    return LedgerOptions{};
}

QString ConsoleRun::defaultSpillFolder() {
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
}

void ConsoleRun::append(const std::vector<Event>& batch) {
    QElapsedTimer clock;
    clock.start();
    returnedBy_.clear();
    for (const Event& e : batch) {
        run_->append(e);
        if (e.kind == EventKind::WorkerCrashed || e.kind == EventKind::WorkerStopped) {
            std::vector<std::uint32_t> returned = run_->messagesTouchedByLastEvent();
            std::sort(returned.begin(), returned.end());
            returned.erase(std::unique(returned.begin(), returned.end()), returned.end());
            returnedBy_.emplace_back(run_->eventCount() - 1, std::move(returned));
        }
    }
    touched_.clear();
    run_->takeTouchedMessages(touched_);
    checkSpill();
    lastCoreAppendNs_ = clock.nsecsElapsed();
    Q_EMIT appended();
}

// A spill that could not start, or a write that failed, costs the run memory,
// not events: it is told once, in plain words.
void ConsoleRun::checkSpill() {
    if (spillChecked_ || spillFolder_.isEmpty()) {
        return;
    }
    const std::string why = run_->spillProblem();
    if (!why.empty()) {
        spillChecked_ = true;
        Q_EMIT spillProblemFound(QString::fromStdString(why));
    }
}

std::vector<std::uint32_t> ConsoleRun::messagesReturnedBy(std::uint64_t event) const {
    for (const auto& [index, messages] : returnedBy_) {
        if (index == event) {
            return messages;
        }
    }
    return {};
}

void ConsoleRun::reset(const LedgerOptions& options) {
    returnedBy_.clear();
    RunModelOptions runOptions;
    runOptions.ledger = options;
    if (!spillFolder_.isEmpty()) {
        QDir().mkpath(spillFolder_);  // if it cannot be made, the Run says why
        runOptions.spill.directory = QDir::toNativeSeparators(spillFolder_).toStdString();
    }
    run_ = std::make_unique<Run>(runOptions);
    spillChecked_ = false;
    touched_.clear();
    Q_EMIT wasReset();
}

}  // namespace qs::ui
