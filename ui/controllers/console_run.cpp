#include "controllers/console_run.h"

#include <algorithm>

namespace qs::ui {

ConsoleRun::ConsoleRun(QObject* parent) : QObject(parent) {
    reset();
}

ConsoleRun::~ConsoleRun() = default;

LedgerOptions ConsoleRun::defaultLedgerOptions() {
    return LedgerOptions{};
}

void ConsoleRun::append(const std::vector<Event>& batch) {
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
    Q_EMIT appended();
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
    run_ = std::make_unique<Run>(runOptions);
    touched_.clear();
    Q_EMIT wasReset();
}

}  // namespace qs::ui
