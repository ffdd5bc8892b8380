#include "console_run.h"

namespace qs::ui {

ConsoleRun::ConsoleRun(QObject* parent) : QObject(parent) {
    reset();
}

ConsoleRun::~ConsoleRun() = default;

LedgerOptions ConsoleRun::defaultLedgerOptions() {
    return LedgerOptions{};
}

void ConsoleRun::append(const std::vector<Event>& batch) {
    run_->append(batch);
    touched_.clear();
    run_->takeTouchedMessages(touched_);
    Q_EMIT appended();
}

void ConsoleRun::reset(const LedgerOptions& options) {
    RunOptions runOptions;
    runOptions.ledger = options;
    run_ = std::make_unique<Run>(runOptions);
    touched_.clear();
    Q_EMIT wasReset();
}

}  // namespace qs::ui
