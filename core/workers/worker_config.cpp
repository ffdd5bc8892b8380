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
    mark(ConfigField::Consume, a.consume != b.consume);
    mark(ConfigField::VisibilitySeconds, a.visibilitySeconds != b.visibilitySeconds);
    return out;
}

std::vector<SettingChange> settingChanges(const WorkerConfig& a, ConfigFields fields) {
    std::vector<SettingChange> out;
    auto add = [&out, fields](ConfigField field, std::string value) {
        if (fields.test(static_cast<std::size_t>(field))) {
            out.push_back({field, std::move(value)});
        }
    };
    add(ConfigField::BatchSize, std::to_string(a.batchSize));
    add(ConfigField::WaitMs, std::to_string(a.waitMs));
    add(ConfigField::AutoAck, a.autoAck ? "true" : "false");
    add(ConfigField::Work, a.work.describe());
    add(ConfigField::FailureRate, formatConfigNumber(a.failureRate));
    add(ConfigField::OnFailure, std::string(toString(a.onFailure)));
    add(ConfigField::RequeueChannel, a.requeueChannel);
    add(ConfigField::CrashRate, formatConfigNumber(a.crashRate));
    add(ConfigField::Settle, std::string(toString(a.settle)));
    add(ConfigField::MaxPolls, std::to_string(a.maxPolls));
    add(ConfigField::RestartDelayMs, std::to_string(a.restartDelayMs));
    add(ConfigField::Consume, std::string(toString(a.consume)));
    add(ConfigField::VisibilitySeconds, std::to_string(a.visibilitySeconds));
    return out;
}

std::vector<SettingChange> changedSettings(const WorkerConfig& before, const WorkerConfig& after) {
    return settingChanges(after, differingFields(before, after));
}

std::string describeFields(const WorkerConfig& a, ConfigFields fields) {
    return formatSettingChanges(settingChanges(a, fields));
}

std::string describeChanges(const WorkerConfig& before, const WorkerConfig& after) {
    return describeFields(after, differingFields(before, after));
}

std::string describe(const WorkerConfig& config) {
    return describeFields(config, ConfigFields().set());
}

namespace {
// What the v1 stream cannot do: it has no auto-ack, and a message left
// unsettled is rejected when its stream goes, so "never" cannot hold it.
std::string v1StreamProblemOf(const WorkerConfig& c) {
    if (c.consume != ConsumeMode::V1Stream) {
        return {};
    }
    if (std::string problem = limits::kVisibilitySeconds.problem(c.visibilitySeconds);
        !problem.empty()) {
        return problem;
    }
    if (c.autoAck) {
        return "consume 'v1' has no auto-ack: the v1 stream settles every message itself";
    }
    if (c.settle == SettleMode::Never) {
        return "consume 'v1' cannot settle 'never': the v1 stream rejects a message left "
               "unsettled when its stream ends";
    }
    if (c.settle == SettleMode::Async) {
        return "consume 'v1' cannot settle 'async': a v1 settlement is answered before the "
               "worker goes on";
    }
    return {};
}
}  // namespace

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
    if (std::string problem = v1StreamProblemOf(*this); !problem.empty()) {
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
        case SettleMode::Async:
            return "async";
    }
    return "unknown";
}

std::string_view toString(ConsumeMode mode) {
    switch (mode) {
        case ConsumeMode::Downstream:
            return "downstream";
        case ConsumeMode::V1Stream:
            return "v1";
    }
    return "unknown";
}

bool parseConsumeMode(std::string_view text, ConsumeMode* out) {
    for (ConsumeMode m : {ConsumeMode::Downstream, ConsumeMode::V1Stream}) {
        if (text == toString(m)) {
            *out = m;
            return true;
        }
    }
    return false;
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
    for (SettleMode m :
         {SettleMode::Each, SettleMode::Batch, SettleMode::Never, SettleMode::Async}) {
        if (text == toString(m)) {
            *out = m;
            return true;
        }
    }
    return false;
}

}  // namespace qs::workers
