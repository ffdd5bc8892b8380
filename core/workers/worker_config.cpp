#include "workers/worker_config.h"

#include <cmath>
#include <cstdio>

namespace qs::workers {

namespace {
bool isRate(double v) {
    return std::isfinite(v) && v >= 0.0 && v <= 1.0;
}

std::string num(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", v);
    return buffer;
}

std::string changes(const WorkerConfig* before, const WorkerConfig& a) {
    std::string out;
    auto add = [&out](std::string_view name, const std::string& value) {
        if (!out.empty()) {
            out += ' ';
        }
        out += name;
        out += '=';
        out += value;
    };
    const WorkerConfig* b = before;
    if (!b || b->batchSize != a.batchSize)
        add("batch", std::to_string(a.batchSize));
    if (!b || b->waitMs != a.waitMs)
        add("waitMs", std::to_string(a.waitMs));
    if (!b || b->autoAck != a.autoAck)
        add("autoAck", a.autoAck ? "true" : "false");
    if (!b || b->work != a.work)
        add("work", a.work.describe());
    if (!b || b->failureRate != a.failureRate)
        add("failureRate", num(a.failureRate));
    if (!b || b->onFailure != a.onFailure)
        add("onFailure", std::string(toString(a.onFailure)));
    if (!b || b->requeueChannel != a.requeueChannel)
        add("requeueChannel", a.requeueChannel);
    if (!b || b->crashRate != a.crashRate)
        add("crashRate", num(a.crashRate));
    if (!b || b->settle != a.settle)
        add("settle", std::string(toString(a.settle)));
    if (!b || b->maxPolls != a.maxPolls)
        add("maxPolls", std::to_string(a.maxPolls));
    if (!b || b->restartDelayMs != a.restartDelayMs) {
        add("restartDelayMs", std::to_string(a.restartDelayMs));
    }
    return out;
}

}  // namespace

std::string describeChanges(const WorkerConfig& before, const WorkerConfig& after) {
    return changes(&before, after);
}

std::string describe(const WorkerConfig& config) {
    return changes(nullptr, config);
}

std::string WorkerConfig::validate() const {
    if (batchSize < 1) {
        return "batch size must be >= 1";
    }
    if (waitMs < 0) {
        return "wait timeout must be >= 0";
    }
    if (std::string problem = work.validate(); !problem.empty()) {
        return problem;
    }
    if (!isRate(failureRate)) {
        return "failure rate must be between 0 and 1";
    }
    if (!isRate(crashRate)) {
        return "crash rate must be between 0 and 1";
    }
    if (onFailure == FailureAction::Requeue && requeueChannel.empty()) {
        return "failure action 'requeue' needs a requeue channel";
    }
    if (maxPolls < 0) {
        return "max polls must be >= 0";
    }
    return {};
}

std::string_view toString(FailureAction action) {
    switch (action) {
        case FailureAction::Reject:
            return "reject";
        case FailureAction::Requeue:
            return "requeue";
    }
    return "unknown";
}

std::string_view toString(SettleMode mode) {
    switch (mode) {
        case SettleMode::Each:
            return "each";
        case SettleMode::Batch:
            return "batch";
        case SettleMode::Never:
            return "never";
    }
    return "unknown";
}

bool parseFailureAction(std::string_view text, FailureAction* out) {
    for (FailureAction a : {FailureAction::Reject, FailureAction::Requeue}) {
        if (text == toString(a)) {
            *out = a;
            return true;
        }
    }
    return false;
}

bool parseSettleMode(std::string_view text, SettleMode* out) {
    for (SettleMode m : {SettleMode::Each, SettleMode::Batch, SettleMode::Never}) {
        if (text == toString(m)) {
            *out = m;
            return true;
        }
    }
    return false;
}

}  // namespace qs::workers
