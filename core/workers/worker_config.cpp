#include "workers/worker_config.h"

#include <cstdio>

namespace qs::workers {

std::string formatConfigNumber(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

ConfigFields differingFields(const WorkerConfig& a, const WorkerConfig& b) {
    ConfigFields out;
    auto mark = [&out](ConfigField field, bool differs) {
        out.set(static_cast<std::size_t>(field), differs);
    };
    mark(ConfigField::BatchSize, a.batchSize != b.batchSize);
    mark(ConfigField::WaitMs, a.waitMs != b.waitMs);
    mark(ConfigField::AutoAck, a.autoAck != b.autoAck);
    mark(ConfigField::Work, a.work != b.work);
    mark(ConfigField::FailureRate, a.failureRate != b.failureRate);
    mark(ConfigField::OnFailure, a.onFailure != b.onFailure);
    mark(ConfigField::RequeueChannel, a.requeueChannel != b.requeueChannel);
    mark(ConfigField::CrashRate, a.crashRate != b.crashRate);
    mark(ConfigField::Settle, a.settle != b.settle);
    mark(ConfigField::MaxPolls, a.maxPolls != b.maxPolls);
    mark(ConfigField::RestartDelayMs, a.restartDelayMs != b.restartDelayMs);
    return out;
}

std::string describeFields(const WorkerConfig& a, ConfigFields fields) {
    std::string out;
    auto add = [&out, fields](ConfigField field, std::string_view name, const std::string& value) {
        if (!fields.test(static_cast<std::size_t>(field))) {
            return;
        }
        if (!out.empty()) {
            out += ' ';
        }
        out += name;
        out += '=';
        out += value;
    };
    add(ConfigField::BatchSize, "batch", std::to_string(a.batchSize));
    add(ConfigField::WaitMs, "waitMs", std::to_string(a.waitMs));
    add(ConfigField::AutoAck, "autoAck", a.autoAck ? "true" : "false");
    add(ConfigField::Work, "work", a.work.describe());
    add(ConfigField::FailureRate, "failureRate", formatConfigNumber(a.failureRate));
    add(ConfigField::OnFailure, "onFailure", std::string(toString(a.onFailure)));
    add(ConfigField::RequeueChannel, "requeueChannel", a.requeueChannel);
    add(ConfigField::CrashRate, "crashRate", formatConfigNumber(a.crashRate));
    add(ConfigField::Settle, "settle", std::string(toString(a.settle)));
    add(ConfigField::MaxPolls, "maxPolls", std::to_string(a.maxPolls));
    add(ConfigField::RestartDelayMs, "restartDelayMs", std::to_string(a.restartDelayMs));
    return out;
}

std::string describeChanges(const WorkerConfig& before, const WorkerConfig& after) {
    return describeFields(after, differingFields(before, after));
}

std::string describe(const WorkerConfig& config) {
    return describeFields(config, ConfigFields().set());
}

std::string WorkerConfig::validate() const {
    for (std::string problem :
         {limits::kBatchSize.problem(batchSize), limits::kWaitMs.problem(waitMs), work.validate(),
          limits::kFailureRate.problem(failureRate), limits::kCrashRate.problem(crashRate)}) {
        if (!problem.empty()) {
            return problem;
        }
    }
    if (onFailure == FailureAction::Requeue && requeueChannel.empty()) {
        return "failure action 'requeue' needs a requeue channel";
    }
    if (std::string problem = limits::kMaxPolls.problem(maxPolls); !problem.empty()) {
        return problem;
    }
    if (restartDelayMs >= 0) {
        return limits::kRestartDelayMs.problem(restartDelayMs);
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
