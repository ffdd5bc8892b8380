#include "runner/scenario.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "client/argument_checks.h"
#include "common/enum_names.h"
#include "runner/redrive.h"
#include "runner/timeline_step.h"

namespace qs::runner {

namespace {

// Whether JSON can hold the text as it is (nlohmann checks UTF-8 as it dumps).
bool isUtf8(const std::string& text) {
    try {
        static_cast<void>(nlohmann::json(text).dump());
        return true;
    } catch (const nlohmann::json::type_error&) {
        return false;
    }
}

bool finiteNonNegative(double v) {
    return std::isfinite(v) && v >= 0.0;
}

constexpr auto kActionNames = enumNames<ActionKind>({
    {ActionKind::Crash, "crash"},
    {ActionKind::Restart, "restart"},
    {ActionKind::Pause, "pause"},
    {ActionKind::Resume, "resume"},
    {ActionKind::Slowdown, "slowdown"},
    {ActionKind::Set, "set"},
    {ActionKind::Scale, "scale"},
    {ActionKind::Stop, "stop"},
    {ActionKind::Redrive, "redrive"},
});

}  // namespace

bool ConfigPatch::empty() const {
    return fields().none();
}

workers::ConfigFields ConfigPatch::fields() const {
    using workers::ConfigField;
    workers::ConfigFields out;
    auto mark = [&out](ConfigField field, bool set) {
        out.set(static_cast<std::size_t>(field), set);
    };
    mark(ConfigField::BatchSize, batchSize.has_value());
    mark(ConfigField::WaitMs, waitMs.has_value());
    mark(ConfigField::AutoAck, autoAck.has_value());
    mark(ConfigField::Work, work.has_value());
    mark(ConfigField::FailureRate, failureRate.has_value());
    mark(ConfigField::OnFailure, onFailure.has_value());
    mark(ConfigField::RequeueChannel, requeueChannel.has_value());
    mark(ConfigField::CrashRate, crashRate.has_value());
    mark(ConfigField::Settle, settle.has_value());
    mark(ConfigField::MaxPolls, maxPolls.has_value());
    mark(ConfigField::RestartDelayMs, restartDelayMs.has_value());
    mark(ConfigField::Consume, consume.has_value());
    mark(ConfigField::VisibilitySeconds, visibilitySeconds.has_value());
    return out;
}

void ConfigPatch::applyTo(workers::WorkerConfig& config) const {
    if (batchSize)
        config.batchSize = *batchSize;
    if (waitMs)
        config.waitMs = *waitMs;
    if (autoAck)
        config.autoAck = *autoAck;
    if (work)
        config.work = *work;
    if (failureRate)
        config.failureRate = *failureRate;
    if (onFailure)
        config.onFailure = *onFailure;
    if (requeueChannel)
        config.requeueChannel = *requeueChannel;
    if (crashRate)
        config.crashRate = *crashRate;
    if (settle)
        config.settle = *settle;
    if (maxPolls)
        config.maxPolls = *maxPolls;
    if (restartDelayMs)
        config.restartDelayMs = *restartDelayMs;
    if (consume)
        config.consume = *consume;
    if (visibilitySeconds)
        config.visibilitySeconds = *visibilitySeconds;
}

std::string ConfigPatch::describe() const {
    // The set fields carry the patch's values once applied to any configuration.
    workers::WorkerConfig patched;
    applyTo(patched);
    return workers::describeFields(patched, fields());
}

std::string_view toString(ActionKind kind) {
    return kActionNames.name(kind);
}

bool parseActionKind(std::string_view text, ActionKind* out) {
    return kActionNames.parse(text, out);
}

std::string TimelineAction::describe() const {
    std::string out =
        "at " + workers::formatConfigNumber(at) + " s: " + std::string(toString(kind));
    if (kind == ActionKind::Scale) {
        return out + " to " + std::to_string(count);
    }
    if (kind == ActionKind::Redrive) {
        out += ' ' + from + " to " + (to.empty() ? std::string("where each came from") : to);
        if (maxReceiveCount) {
            out += " (max receive count " + std::to_string(*maxReceiveCount) + ")";
        }
        return out;
    }
    out += ' ';
    out += worker.empty() ? std::string("all workers") : worker;
    if (kind == ActionKind::Slowdown) {
        out += " x" + workers::formatConfigNumber(factor);
    } else if (kind == ActionKind::Set) {
        out += ": " + patch.describe();
    }
    return out;
}

workers::TaskSpec Scenario::taskSpec() const {
    workers::TaskSpec spec;
    spec.channel = channel;
    spec.count = tasks.count;
    spec.bodyTemplate = tasks.body;
    spec.metadataTemplate = tasks.metadata;
    spec.tags = tasks.tags;
    spec.policy = tasks.policy;
    spec.ratePerSecond = tasks.rate;
    spec.poison = tasks.poison;
    return spec;
}

int Scenario::totalWorkers() const {
    int total = 0;
    for (const WorkerGroup& g : workers) {
        total += g.count;
    }
    return total;
}

std::optional<workers::WorkerConfig> Scenario::groupOverride(std::size_t group) const {
    if (group == 0 || group >= workers.size() || workers[group].config == workers.front().config) {
        return std::nullopt;
    }
    return workers[group].config;
}

std::string Scenario::validate() const {
    std::string problems;
    auto problem = [&problems](const std::string& text) {
        problems += text;
        problems += '\n';
    };
    // The names the broker would refuse mid-run are refused here, before anything starts.
    if (channel.empty()) {
        problem("channel: must not be empty");
    } else if (auto bad = client::checkChannelName(channel, "name")) {
        problem("channel: " + bad->message);
    }
    if (const std::string& dlq = tasks.policy.deadLetterQueue; !dlq.empty()) {
        if (auto bad = client::checkChannelName(dlq, "name")) {
            problem("tasks.policy.deadLetterQueue: " + bad->message);
        }
    }
    if (std::string p = workers::limits::kTaskCount.problem(tasks.count); !p.empty()) {
        problem("tasks.count: " + p);
    }
    // A scenario is kept as JSON in every recording of its run, and JSON holds
    // UTF-8 text only: a template that is not would make the recording unreadable.
    for (const auto& [field, text] :
         {std::pair<const char*, const std::string*>{"tasks.body", &tasks.body},
          {"tasks.metadata", &tasks.metadata}}) {
        if (!isUtf8(*text)) {
            problem(std::string(field) + ": must be UTF-8 text");
        }
    }
    for (const auto& [key, value] : tasks.tags) {
        if (!isUtf8(key) || !isUtf8(value)) {
            problem("tasks.tags: keys and values must be UTF-8 text");
            break;
        }
    }
    if (std::string p = workers::limits::kProducerRate.problem(tasks.rate); !p.empty()) {
        problem("tasks.rate: " + p + "; 0 = all at once");
    }
    if (!finiteNonNegative(tasks.startAt)) {
        problem("tasks.startAt: must be a number of seconds >= 0");
    }
    if (tasks.body.empty() && tasks.metadata.empty()) {
        problem("tasks.body: a task needs a body or metadata (the broker rejects empty messages)");
    }
    std::set<int> poison;
    for (int n : tasks.poison) {
        if (n < 1 || n > tasks.count) {
            problem("tasks.poison: task number " + std::to_string(n) + " is outside 1.." +
                    std::to_string(tasks.count));
        } else if (!poison.insert(n).second) {
            problem("tasks.poison: task number " + std::to_string(n) + " listed twice");
        }
    }
    if (workers.empty()) {
        problem("workers: at least one worker group is needed");
    }
    for (std::size_t i = 0; i < workers.size(); ++i) {
        const WorkerGroup& g = workers[i];
        std::string where = workers.size() == 1 ? "workers" : "workers[" + std::to_string(i) + "]";
        if (std::string p = workers::limits::kWorkerCount.problem(g.count); !p.empty()) {
            problem(where + ".count: " + p);
        }
        if (!finiteNonNegative(g.startAt)) {
            problem(where + ".startAt: must be a number of seconds >= 0");
        }
        if (std::string p = g.config.validate(); !p.empty()) {
            problem(where + ": " + p);
        }
    }
    for (std::size_t i = 0; i < timeline.size(); ++i) {
        const TimelineAction& a = timeline[i];
        std::string where = "timeline[" + std::to_string(i) + "]";
        if (!finiteNonNegative(a.at)) {
            problem(where + ".at: must be a number of seconds >= 0");
        }
        if ((a.kind == ActionKind::Crash || a.kind == ActionKind::Restart ||
             a.kind == ActionKind::Stop) &&
            a.worker.empty()) {
            problem(where + ": '" + std::string(toString(a.kind)) + "' needs a worker");
        }
        if (a.kind == ActionKind::Redrive) {
            if (std::string p = checkRedriveOptions(redriveOptionsFor(a)); !p.empty()) {
                problem(where + ": " + p);
            }
        }
        if (a.kind == ActionKind::Slowdown && !(std::isfinite(a.factor) && a.factor > 0.0)) {
            problem(where + ".factor: must be a number > 0");
        }
        if (a.kind == ActionKind::Scale) {
            if (std::string p = workers::limits::kWorkerCount.problem(a.count); !p.empty()) {
                problem(where + ".count: " + p);
            }
        }
        if (a.kind == ActionKind::Set) {
            if (a.patch.empty()) {
                problem(where + ": 'set' changes nothing");
            }
            workers::WorkerConfig probe;
            if (!workers.empty()) {
                probe = workers.front().config;
            }
            a.patch.applyTo(probe);
            if (std::string p = probe.validate(); !p.empty()) {
                problem(where + ": " + p);
            }
        }
    }
    if (untilDrained) {
        if (!(std::isfinite(timeoutSeconds) && timeoutSeconds > 0.0)) {
            problem("timeoutSeconds: must be a number > 0");
        }
    } else if (!(std::isfinite(runForSeconds) && runForSeconds > 0.0)) {
        problem("runForSeconds: must be a number > 0");
    }
    if (!problems.empty()) {
        problems.pop_back();
    }
    return problems;
}

}  // namespace qs::runner
