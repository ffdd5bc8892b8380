#include "runner/scenario_json.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <sstream>

#include "common/json_schema.h"
#include "common/prefix_lines.h"
#include "common/protocol_limits.h"
#include "runner/timeline_step.h"
#include "workers/setting_limits.h"

namespace qs::runner {

namespace {

using json = nlohmann::json;
using json_schema::fail;
using json_schema::getBool;
using json_schema::getEnum;
using json_schema::getInt;
using json_schema::getNumber;
using json_schema::getString;
using json_schema::SchemaError;
using json_schema::unknownKey;
const auto& join = json_schema::joinPath;

void checkKeys(const json& object, const std::string& where,
               std::span<const std::string_view> allowed) {
    json_schema::checkKeys(object, where, allowed, "scenario");
}

void checkKeys(const json& object, const std::string& where,
               std::initializer_list<std::string_view> allowed) {
    checkKeys(object, where, std::span(allowed.begin(), allowed.size()));
}

double getNonNegative(const json& v, const std::string& where) {
    double d = getNumber(v, where);
    if (d < 0.0) {
        fail(where, "must be >= 0");
    }
    return d;
}

// A number within `limit` (its unit is the one the key is written in).
double getNumber(const json& v, const std::string& where, const Limit<double>& limit) {
    double d = getNumber(v, where);
    if (!limit.contains(d)) {
        fail(where, "must be " + limit.bounds());
    }
    return d;
}

int getInt(const json& v, const std::string& where, const Limit<int>& limit) {
    return getInt(v, where, limit.min, limit.max);
}

// A duration written in seconds for a setting kept in ms, within `msLimit`.
int getSecondsAsMs(const json& v, const std::string& where, const Limit<int>& msLimit) {
    const double seconds = getNumber(v, where, msLimit.scaled(0.001, "s"));
    return static_cast<int>(std::llround(seconds * 1000.0));
}

workers::WorkProfile parseWork(const json& v, const std::string& where) {
    if (v.is_number()) {
        return workers::WorkProfile::fixed(getNumber(v, where, workers::limits::kWorkMs));
    }
    checkKeys(v, where, {"kind", "ms", "minMs", "maxMs", "meanMs"});
    workers::WorkProfile work;
    if (!v.contains("kind")) {
        fail(join(where, "kind"), "missing (none, fixed, uniform or exponential)");
    }
    work.kind = getEnum(v["kind"], join(where, "kind"), &workers::parseWorkKind,
                        "none, fixed, uniform, exponential");
    const std::string kind(toString(work.kind));
    auto need = [&](std::string_view key) -> double {
        if (!v.contains(key)) {
            fail(join(where, key), "missing (needed for kind " + kind + ")");
        }
        return getNumber(v[std::string(key)], join(where, key), workers::limits::kWorkMs);
    };
    auto forbid = [&](std::initializer_list<std::string_view> keys) {
        for (std::string_view key : keys) {
            if (v.contains(key)) {
                fail(join(where, key), "does not apply to kind " + kind);
            }
        }
    };
    switch (work.kind) {
        case workers::WorkKind::None:
            forbid({"ms", "minMs", "maxMs", "meanMs"});
            break;
        case workers::WorkKind::Fixed:
            forbid({"minMs", "maxMs", "meanMs"});
            work.ms = need("ms");
            break;
        case workers::WorkKind::Uniform:
            forbid({"ms", "meanMs"});
            work.minMs = need("minMs");
            work.maxMs = need("maxMs");
            if (work.minMs > work.maxMs) {
                fail(where, "minMs must be <= maxMs");
            }
            break;
        case workers::WorkKind::Exponential:
            forbid({"ms", "minMs", "maxMs"});
            work.ms = need("meanMs");
            break;
    }
    return work;
}

// Keys a worker group and a "set" action share.
constexpr std::array<std::string_view, 13> kConfigKeys = {
    "batch",          "waitSeconds", "autoAck", "work",     "failureRate",         "onFailure",
    "requeueChannel", "crashRate",   "settle",  "maxPolls", "restartAfterSeconds", "consume",
    "visibilitySeconds"};

ConfigPatch parseConfigPatch(const json& v, const std::string& where) {
    ConfigPatch patch;
    if (v.contains("batch")) {
        patch.batchSize = getInt(v["batch"], join(where, "batch"), workers::limits::kBatchSize);
    }
    if (v.contains("waitSeconds")) {
        patch.waitMs =
            getSecondsAsMs(v["waitSeconds"], join(where, "waitSeconds"), workers::limits::kWaitMs);
    }
    if (v.contains("autoAck")) {
        patch.autoAck = getBool(v["autoAck"], join(where, "autoAck"));
    }
    if (v.contains("work")) {
        patch.work = parseWork(v["work"], join(where, "work"));
    }
    if (v.contains("failureRate")) {
        patch.failureRate =
            getNumber(v["failureRate"], join(where, "failureRate"), workers::limits::kFailureRate);
    }
    if (v.contains("onFailure")) {
        patch.onFailure = getEnum(v["onFailure"], join(where, "onFailure"),
                                  &workers::parseFailureAction, "reject, requeue");
    }
    if (v.contains("requeueChannel")) {
        patch.requeueChannel = getString(v["requeueChannel"], join(where, "requeueChannel"));
    }
    if (v.contains("crashRate")) {
        patch.crashRate =
            getNumber(v["crashRate"], join(where, "crashRate"), workers::limits::kCrashRate);
    }
    if (v.contains("settle")) {
        patch.settle = getEnum(v["settle"], join(where, "settle"), &workers::parseSettleMode,
                               "each, batch, never, async");
    }
    if (v.contains("maxPolls")) {
        patch.maxPolls = getInt(v["maxPolls"], join(where, "maxPolls"), workers::limits::kMaxPolls);
    }
    if (v.contains("restartAfterSeconds")) {
        std::string w = join(where, "restartAfterSeconds");
        const json& r = v["restartAfterSeconds"];
        patch.restartDelayMs =
            r.is_null() ? -1 : getSecondsAsMs(r, w, workers::limits::kRestartDelayMs);
    }
    if (v.contains("consume")) {
        patch.consume = getEnum(v["consume"], join(where, "consume"), &workers::parseConsumeMode,
                                "downstream, v1");
    }
    if (v.contains("visibilitySeconds")) {
        patch.visibilitySeconds = getInt(v["visibilitySeconds"], join(where, "visibilitySeconds"),
                                         workers::limits::kVisibilitySeconds);
    }
    return patch;
}

TaskPlan parseTasks(const json& v) {
    const std::string where = "tasks";
    checkKeys(v, where,
              {"count", "body", "metadata", "tags", "policy", "rate", "poison", "startAt"});
    TaskPlan plan;
    if (v.contains("count")) {
        plan.count = getInt(v["count"], "tasks.count", workers::limits::kTaskCount);
    }
    if (v.contains("body")) {
        plan.body = getString(v["body"], "tasks.body");
    }
    if (v.contains("metadata")) {
        plan.metadata = getString(v["metadata"], "tasks.metadata");
    }
    if (v.contains("tags")) {
        const json& tags = v["tags"];
        if (!tags.is_object()) {
            fail("tasks.tags", "must be an object of string values");
        }
        for (const auto& item : tags.items()) {
            plan.tags[item.key()] = getString(item.value(), "tasks.tags." + item.key());
        }
    }
    if (v.contains("policy")) {
        const json& p = v["policy"];
        checkKeys(p, "tasks.policy",
                  {"delaySeconds", "expirationSeconds", "maxReceiveCount", "deadLetterQueue"});
        if (p.contains("delaySeconds")) {
            plan.policy.delaySeconds =
                getInt(p["delaySeconds"], "tasks.policy.delaySeconds", protocol::kDelaySeconds);
        }
        if (p.contains("expirationSeconds")) {
            plan.policy.expirationSeconds =
                getInt(p["expirationSeconds"], "tasks.policy.expirationSeconds",
                       protocol::kExpirationSeconds);
        }
        if (p.contains("maxReceiveCount")) {
            plan.policy.maxReceiveCount = getInt(
                p["maxReceiveCount"], "tasks.policy.maxReceiveCount", protocol::kMaxReceiveCount);
        }
        if (p.contains("deadLetterQueue")) {
            plan.policy.deadLetterQueue =
                getString(p["deadLetterQueue"], "tasks.policy.deadLetterQueue");
        }
    }
    if (v.contains("rate")) {
        plan.rate = getNumber(v["rate"], "tasks.rate", workers::limits::kProducerRate);
    }
    if (v.contains("poison")) {
        const json& p = v["poison"];
        if (!p.is_array()) {
            fail("tasks.poison", "must be an array of task numbers");
        }
        for (std::size_t i = 0; i < p.size(); ++i) {
            plan.poison.push_back(getInt(p[i], "tasks.poison[" + std::to_string(i) + "]", 1,
                                         workers::limits::kTaskCount.max));
        }
    }
    if (v.contains("startAt")) {
        plan.startAt = getNonNegative(v["startAt"], "tasks.startAt");
    }
    return plan;
}

WorkerGroup parseGroup(const json& v, const std::string& where) {
    std::vector<std::string_view> allowed(kConfigKeys.begin(), kConfigKeys.end());
    allowed.push_back("count");
    allowed.push_back("startAt");
    checkKeys(v, where, allowed);
    WorkerGroup group;
    if (v.contains("count")) {
        group.count = getInt(v["count"], join(where, "count"), workers::limits::kWorkerCount);
    }
    if (v.contains("startAt")) {
        group.startAt = getNonNegative(v["startAt"], join(where, "startAt"));
    }
    parseConfigPatch(v, where).applyTo(group.config);
    return group;
}

// A redrive's channels (checked by name) and the copies' max receive count.
void parseRedrive(const json& v, const std::string& where, TimelineAction& action) {
    if (!v.contains("from")) {
        fail(join(where, "from"), "missing (the channel to move messages out of)");
    }
    action.from = getString(v["from"], join(where, "from"));
    if (v.contains("to")) {
        action.to = getString(v["to"], join(where, "to"));
    }
    if (v.contains("maxReceiveCount")) {
        action.maxReceiveCount = getInt(v["maxReceiveCount"], join(where, "maxReceiveCount"),
                                        protocol::kMaxReceiveCount);
    }
    if (std::string p = checkRedriveOptions(redriveOptionsFor(action)); !p.empty()) {
        fail(where, p);
    }
}

TimelineAction parseAction(const json& v, const std::string& where) {
    if (!v.is_object()) {
        fail(where, "must be a JSON object");
    }
    if (!v.contains("at")) {
        fail(join(where, "at"), "missing (seconds after the start)");
    }
    if (!v.contains("action")) {
        fail(join(where, "action"),
             "missing (crash, restart, pause, resume, slowdown, set, scale, stop or redrive)");
    }
    TimelineAction action;
    action.at = getNonNegative(v["at"], join(where, "at"));
    action.kind = getEnum(v["action"], join(where, "action"), &parseActionKind,
                          "crash, restart, pause, resume, slowdown, set, scale, stop, redrive");
    const std::string kind(toString(action.kind));
    std::vector<std::string_view> allowed = {"at", "action"};
    switch (action.kind) {
        case ActionKind::Crash:
        case ActionKind::Restart:
        case ActionKind::Stop:
        case ActionKind::Pause:
        case ActionKind::Resume:
            allowed.push_back("worker");
            break;
        case ActionKind::Slowdown:
            allowed.push_back("worker");
            allowed.push_back("factor");
            break;
        case ActionKind::Scale:
            allowed.push_back("count");
            break;
        case ActionKind::Set:
            allowed.push_back("worker");
            allowed.insert(allowed.end(), kConfigKeys.begin(), kConfigKeys.end());
            break;
        case ActionKind::Redrive:
            allowed.insert(allowed.end(), {"from", "to", "maxReceiveCount"});
            break;
    }
    json_schema::checkKeys(v, where, allowed, "scenario", "not valid for action '" + kind + "'");
    if (v.contains("worker")) {
        action.worker = getString(v["worker"], join(where, "worker"));
    }
    if (action.kind == ActionKind::Slowdown) {
        if (!v.contains("factor")) {
            fail(join(where, "factor"), "missing (work duration multiplier, > 0)");
        }
        action.factor = getNumber(v["factor"], join(where, "factor"));
        if (action.factor <= 0.0) {
            fail(join(where, "factor"), "must be > 0");
        }
    }
    if (action.kind == ActionKind::Scale) {
        if (!v.contains("count")) {
            fail(join(where, "count"), "missing (the new number of workers)");
        }
        action.count = getInt(v["count"], join(where, "count"), workers::limits::kWorkerCount);
    }
    if (action.kind == ActionKind::Set) {
        action.patch = parseConfigPatch(v, where);
    }
    if (action.kind == ActionKind::Redrive) {
        parseRedrive(v, where, action);
    }
    return action;
}

Scenario parseScenario(const json& root) {
    checkKeys(root, "",
              {"name", "description", "channel", "createChannel", "deleteChannel", "tasks",
               "workers", "timeline", "until", "runForSeconds", "timeoutSeconds"});
    Scenario s;
    if (root.contains("name")) {
        s.name = getString(root["name"], "name");
    }
    if (root.contains("description")) {
        s.description = getString(root["description"], "description");
    }
    if (root.contains("channel")) {
        s.channel = getString(root["channel"], "channel");
    }
    if (root.contains("createChannel")) {
        s.createChannel = getBool(root["createChannel"], "createChannel");
    }
    if (root.contains("deleteChannel")) {
        s.deleteChannel = getBool(root["deleteChannel"], "deleteChannel");
    }
    if (root.contains("tasks")) {
        s.tasks = parseTasks(root["tasks"]);
    }
    if (!root.contains("workers")) {
        fail("workers", "missing (an object, or an array of worker groups)");
    }
    const json& w = root["workers"];
    if (w.is_array()) {
        for (std::size_t i = 0; i < w.size(); ++i) {
            s.workers.push_back(parseGroup(w[i], "workers[" + std::to_string(i) + "]"));
        }
    } else {
        s.workers.push_back(parseGroup(w, "workers"));
    }
    if (root.contains("timeline")) {
        const json& t = root["timeline"];
        if (!t.is_array()) {
            fail("timeline", "must be an array of actions");
        }
        for (std::size_t i = 0; i < t.size(); ++i) {
            s.timeline.push_back(parseAction(t[i], "timeline[" + std::to_string(i) + "]"));
        }
        std::stable_sort(
            s.timeline.begin(), s.timeline.end(),
            [](const TimelineAction& a, const TimelineAction& b) { return a.at < b.at; });
    }
    if (root.contains("until")) {
        std::string until = getString(root["until"], "until");
        if (until == "drained") {
            s.untilDrained = true;
        } else if (until == "time") {
            s.untilDrained = false;
        } else {
            fail("until", "'" + until + "' is not one of drained, time");
        }
    }
    if (root.contains("runForSeconds")) {
        s.runForSeconds = getNonNegative(root["runForSeconds"], "runForSeconds");
        if (!root.contains("until")) {
            s.untilDrained = false;
        }
    }
    if (root.contains("timeoutSeconds")) {
        s.timeoutSeconds = getNonNegative(root["timeoutSeconds"], "timeoutSeconds");
    }
    return s;
}

// nlohmann's what() starts with "[json.exception.parse_error.101] ": an id
// for programmers, not for the user reading the error.
std::string withoutExceptionTag(std::string_view what) {
    if (what.starts_with("[json.exception.")) {
        if (const std::size_t end = what.find("] "); end != std::string_view::npos) {
            what.remove_prefix(end + 2);
        }
    }
    return std::string(what);
}

double msToSeconds(int ms) {
    return static_cast<double>(ms) / 1000.0;
}

json workToJson(const workers::WorkProfile& w) {
    json j;
    j["kind"] = std::string(toString(w.kind));
    switch (w.kind) {
        case workers::WorkKind::None:
            break;
        case workers::WorkKind::Fixed:
            j["ms"] = w.ms;
            break;
        case workers::WorkKind::Uniform:
            j["minMs"] = w.minMs;
            j["maxMs"] = w.maxMs;
            break;
        case workers::WorkKind::Exponential:
            j["meanMs"] = w.ms;
            break;
    }
    return j;
}

void configToJson(const workers::WorkerConfig& c, json& j) {
    j["batch"] = c.batchSize;
    j["waitSeconds"] = msToSeconds(c.waitMs);
    j["autoAck"] = c.autoAck;
    j["work"] = workToJson(c.work);
    j["failureRate"] = c.failureRate;
    j["onFailure"] = std::string(toString(c.onFailure));
    j["requeueChannel"] = c.requeueChannel;
    j["crashRate"] = c.crashRate;
    j["settle"] = std::string(toString(c.settle));
    j["maxPolls"] = c.maxPolls;
    j["restartAfterSeconds"] = c.restartDelayMs < 0 ? json() : json(msToSeconds(c.restartDelayMs));
    j["consume"] = std::string(toString(c.consume));
    j["visibilitySeconds"] = c.visibilitySeconds;
}

void patchToJson(const ConfigPatch& p, json& j) {
    if (p.batchSize)
        j["batch"] = *p.batchSize;
    if (p.waitMs)
        j["waitSeconds"] = msToSeconds(*p.waitMs);
    if (p.autoAck)
        j["autoAck"] = *p.autoAck;
    if (p.work)
        j["work"] = workToJson(*p.work);
    if (p.failureRate)
        j["failureRate"] = *p.failureRate;
    if (p.onFailure)
        j["onFailure"] = std::string(toString(*p.onFailure));
    if (p.requeueChannel)
        j["requeueChannel"] = *p.requeueChannel;
    if (p.crashRate)
        j["crashRate"] = *p.crashRate;
    if (p.settle)
        j["settle"] = std::string(toString(*p.settle));
    if (p.maxPolls)
        j["maxPolls"] = *p.maxPolls;
    if (p.restartDelayMs) {
        j["restartAfterSeconds"] =
            *p.restartDelayMs < 0 ? json() : json(msToSeconds(*p.restartDelayMs));
    }
    if (p.consume)
        j["consume"] = std::string(toString(*p.consume));
    if (p.visibilitySeconds)
        j["visibilitySeconds"] = *p.visibilitySeconds;
}

}  // namespace

bool parseScenarioJson(std::string_view text, Scenario* out, std::string* error) {
    json root;
    try {
        root = json::parse(text, nullptr, /*allow_exceptions=*/true, /*ignore_comments=*/true);
    } catch (const json::exception& e) {
        // Syntax errors, and numbers out of range ("1e999"): both are the file's fault.
        *error = "invalid JSON: " + withoutExceptionTag(e.what());
        return false;
    }
    try {
        Scenario s = parseScenario(root);
        if (std::string problems = s.validate(); !problems.empty()) {
            *error = problems;
            return false;
        }
        *out = std::move(s);
        return true;
    } catch (const SchemaError& e) {
        *error = e.message;
        return false;
    } catch (const json::exception& e) {
        *error = withoutExceptionTag(e.what());
        return false;
    }
}

bool parseConfigAssignments(std::string_view text, ConfigPatch* out, std::string* error) {
    json object = json::object();
    std::size_t from = 0;
    while (from <= text.size()) {
        std::size_t comma = text.find(',', from);
        std::string_view item =
            text.substr(from, comma == std::string_view::npos ? text.npos : comma - from);
        from = comma == std::string_view::npos ? text.size() + 1 : comma + 1;
        std::size_t eq = item.find('=');
        if (eq == std::string_view::npos || eq == 0) {
            *error = "'" + std::string(item) + "' is not KEY=VALUE";
            return false;
        }
        std::string key(item.substr(0, eq));
        std::string value(item.substr(eq + 1));
        if (key == "work") {
            workers::WorkProfile work;
            if (!workers::parseWorkSpec(value, &work, error)) {
                return false;
            }
            object[key] = workToJson(work);
        } else if (value == "true" || value == "false") {
            object[key] = value == "true";
        } else if (value == "null") {
            object[key] = nullptr;
        } else {
            json number = json::parse(value, nullptr, false);
            object[key] = number.is_number() ? number : json(value);
        }
    }
    if (const auto key = unknownKey(object, kConfigKeys)) {
        *error = "unknown setting '" + *key + "'";
        return false;
    }
    try {
        ConfigPatch patch = parseConfigPatch(object, "set");
        if (patch.empty()) {
            *error = "no settings given";
            return false;
        }
        *out = std::move(patch);
        return true;
    } catch (const SchemaError& e) {
        *error = e.message;
        return false;
    }
}

bool loadScenarioFile(const std::string& path, Scenario* out, std::string* error) {
    // A directory opens as a stream that reads nothing: say so, not "empty input".
    if (std::error_code ec; std::filesystem::is_directory(path, ec)) {
        *error = path + ": is a directory";
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        *error = path + ": cannot open file";
        return false;
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) {
        *error = path + ": read error";
        return false;
    }
    std::string problems;
    if (!parseScenarioJson(text.str(), out, &problems)) {
        // Every problem line names the file, not just the first.
        *error = prefixLines(path + ": ", problems);
        return false;
    }
    return true;
}

std::string scenarioToJson(const Scenario& s) {
    json root;
    root["name"] = s.name;
    root["description"] = s.description;
    root["channel"] = s.channel;
    root["createChannel"] = s.createChannel;
    root["deleteChannel"] = s.deleteChannel;
    json tasks;
    tasks["count"] = s.tasks.count;
    tasks["body"] = s.tasks.body;
    tasks["metadata"] = s.tasks.metadata;
    tasks["tags"] = json::object();
    for (const auto& [k, v] : s.tasks.tags) {
        tasks["tags"][k] = v;
    }
    tasks["policy"] = {{"delaySeconds", s.tasks.policy.delaySeconds},
                       {"expirationSeconds", s.tasks.policy.expirationSeconds},
                       {"maxReceiveCount", s.tasks.policy.maxReceiveCount},
                       {"deadLetterQueue", s.tasks.policy.deadLetterQueue}};
    tasks["rate"] = s.tasks.rate;
    tasks["poison"] = s.tasks.poison;
    tasks["startAt"] = s.tasks.startAt;
    root["tasks"] = tasks;
    json groups = json::array();
    for (const WorkerGroup& g : s.workers) {
        json j;
        j["count"] = g.count;
        j["startAt"] = g.startAt;
        configToJson(g.config, j);
        groups.push_back(j);
    }
    root["workers"] = groups;
    json timeline = json::array();
    for (const TimelineAction& a : s.timeline) {
        json j;
        j["at"] = a.at;
        j["action"] = std::string(toString(a.kind));
        if (a.kind != ActionKind::Scale && !a.worker.empty()) {
            j["worker"] = a.worker;
        }
        if (a.kind == ActionKind::Slowdown) {
            j["factor"] = a.factor;
        }
        if (a.kind == ActionKind::Scale) {
            j["count"] = a.count;
        }
        if (a.kind == ActionKind::Set) {
            patchToJson(a.patch, j);
        }
        if (a.kind == ActionKind::Redrive) {
            j["from"] = a.from;
            if (!a.to.empty()) {
                j["to"] = a.to;
            }
            if (a.maxReceiveCount) {
                j["maxReceiveCount"] = *a.maxReceiveCount;
            }
        }
        timeline.push_back(j);
    }
    root["timeline"] = timeline;
    root["until"] = s.untilDrained ? "drained" : "time";
    root["runForSeconds"] = s.runForSeconds;
    root["timeoutSeconds"] = s.timeoutSeconds;
    return root.dump(2);
}

std::string workerConfigToJson(const workers::WorkerConfig& config) {
    json j = json::object();
    configToJson(config, j);
    return j.dump();
}

}  // namespace qs::runner
