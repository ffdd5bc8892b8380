#include "lessons/lesson_json.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <span>
#include <sstream>

#include "common/json_path_line.h"
#include "common/json_schema.h"
#include "common/prefix_lines.h"
#include "lessons/run_facts.h"
#include "runner/scenario_json.h"

namespace qs::lessons {

namespace {

using json = nlohmann::json;
using json_schema::fail;
using json_schema::need;
using json_schema::SchemaError;
const auto& join = json_schema::joinPath;
const auto& at = json_schema::indexPath;
const auto& text = json_schema::getNonEmptyString;
const auto& number = json_schema::getNumber;
const auto& whole = json_schema::getInt;

void checkKeys(const json& v, const std::string& where,
               std::initializer_list<std::string_view> allowed) {
    json_schema::checkKeys(v, where, std::span(allowed.begin(), allowed.size()), "lesson");
}

// What a step's run offers for checks to name: its workers and task numbers.
struct RunShape {
    int workers = 0;
    int tasks = 0;

    explicit RunShape(const runner::Scenario& s)
        : workers(runWorkerCount(s)), tasks(s.tasks.count) {}
    std::string worker(const json& v, const std::string& where) const {
        const std::string name = text(v, where);
        for (int i = 1; i <= workers; ++i) {
            if (name == "worker-" + std::to_string(i)) {
                return name;
            }
        }
        fail(where, "'" + name + "' is not a worker of this step's run (worker-1 ... worker-" +
                        std::to_string(workers) + ")");
    }
    int task(const json& v, const std::string& where) const {
        return whole(v, where, 1, std::max(1, tasks));
    }
};

std::string names(const std::vector<std::string_view>& list) {
    std::string out;
    for (std::string_view n : list) {
        out += (out.empty() ? "" : ", ") + std::string(n);
    }
    return out;
}

Bounds bounds(const json& v, const std::string& where, std::optional<double> defaultMin) {
    Bounds b;
    if (v.contains("equals")) {
        if (v.contains("min") || v.contains("max")) {
            fail(join(where, "equals"), "cannot be given with min or max");
        }
        b.min = b.max = number(v["equals"], join(where, "equals"));
        return b;
    }
    if (v.contains("min")) {
        b.min = number(v["min"], join(where, "min"));
    }
    if (v.contains("max")) {
        b.max = number(v["max"], join(where, "max"));
    }
    if (b.min && b.max && *b.min > *b.max) {
        fail(where, "min must be <= max");
    }
    if (!b.min && !b.max) {
        if (!defaultMin) {
            fail(join(where, "min"), "missing (give min, max or equals)");
        }
        b.min = defaultMin;
    }
    return b;
}

Measure measure(const json& v, const std::string& where, const RunShape& shape,
                std::string_view key) {
    Measure m;
    m.name = text(need(v, where, key, "what to count"), join(where, key));
    if (v.contains("worker")) {
        m.worker = shape.worker(v["worker"], join(where, "worker"));
        if (!isWorkerCounter(m.name)) {
            fail(join(where, key),
                 "'" + m.name + "' is not a worker counter (" + names(workerCounterNames()) + ")");
        }
    } else if (!isRunMeasure(m.name)) {
        fail(join(where, key), "'" + m.name + "' is not a measure of the run (" +
                                   names(runMeasureNames()) +
                                   "; with \"worker\": " + names(workerCounterNames()) + ")");
    }
    return m;
}

CheckKind checkKind(const json& v, const std::string& where) {
    const std::string kind = text(v, where);
    static const std::vector<std::pair<std::string_view, CheckKind>> kinds = {
        {"ackedOnce", CheckKind::AckedOnce},
        {"count", CheckKind::Count},
        {"share", CheckKind::Share},
        {"redelivered", CheckKind::Redelivered},
        {"cameBack", CheckKind::CameBack},
        {"deadLettered", CheckKind::DeadLettered},
        {"notBeforeDelay", CheckKind::NotBeforeDelay},
        {"rejectedToTail", CheckKind::RejectedToTail}};
    std::vector<std::string_view> known;
    for (const auto& [name, value] : kinds) {
        if (name == kind) {
            return value;
        }
        known.push_back(name);
    }
    fail(where, "'" + kind + "' is not one of " + names(known));
}

CheckSpec check(const json& v, const std::string& where, const RunShape& shape) {
    if (!v.is_object()) {
        fail(where, "must be a JSON object");
    }
    CheckSpec c;
    c.where = where;
    c.kind = checkKind(need(v, where, "kind", "what to check"), join(where, "kind"));
    switch (c.kind) {
        case CheckKind::AckedOnce:
        case CheckKind::NotBeforeDelay:
            checkKeys(v, where, {"kind"});
            break;
        case CheckKind::Count:
            checkKeys(v, where, {"kind", "measure", "worker", "min", "max", "equals"});
            c.measure = measure(v, where, shape, "measure");
            c.bounds = bounds(v, where, std::nullopt);
            break;
        case CheckKind::Share:
            checkKeys(v, where, {"kind", "counter", "worker", "min", "max"});
            c.measure.name =
                text(need(v, where, "counter", "a worker counter"), join(where, "counter"));
            if (!isWorkerCounter(c.measure.name)) {
                fail(join(where, "counter"), "'" + c.measure.name + "' is not a worker counter (" +
                                                 names(workerCounterNames()) + ")");
            }
            c.worker =
                text(need(v, where, "worker", "a worker, or \"each\""), join(where, "worker"));
            if (c.worker != "each") {
                c.worker = shape.worker(v["worker"], join(where, "worker"));
            }
            c.bounds = bounds(v, where, std::nullopt);
            if ((c.bounds.min && (*c.bounds.min < 0 || *c.bounds.min > 1)) ||
                (c.bounds.max && (*c.bounds.max < 0 || *c.bounds.max > 1))) {
                fail(where, "a share's min and max are fractions between 0 and 1");
            }
            break;
        case CheckKind::Redelivered:
            checkKeys(v, where, {"kind", "tasks", "to", "from", "min", "max", "equals"});
            if (v.contains("tasks")) {
                const json& t = v["tasks"];
                if (!t.is_array() || t.empty()) {
                    fail(join(where, "tasks"), "must be a non-empty array of task numbers");
                }
                for (std::size_t i = 0; i < t.size(); ++i) {
                    c.tasks.push_back(shape.task(t[i], at(join(where, "tasks"), i)));
                }
                if (v.contains("min") || v.contains("max") || v.contains("equals")) {
                    fail(where, "give either tasks or min / max / equals, not both");
                }
            } else {
                c.bounds = bounds(v, where, 1.0);
            }
            if (v.contains("to"))
                c.worker = shape.worker(v["to"], join(where, "to"));
            if (v.contains("from"))
                c.fromWorker = shape.worker(v["from"], join(where, "from"));
            break;
        case CheckKind::CameBack:
            checkKeys(v, where, {"kind", "from", "min", "max", "equals"});
            c.worker = shape.worker(need(v, where, "from", "the worker that went away"),
                                    join(where, "from"));
            c.bounds = bounds(v, where, 1.0);
            break;
        case CheckKind::DeadLettered:
            checkKeys(v, where, {"kind", "task", "afterReceives", "channel"});
            c.tasks.push_back(
                shape.task(need(v, where, "task", "a task number"), join(where, "task")));
            if (v.contains("afterReceives")) {
                c.receives = whole(v["afterReceives"], join(where, "afterReceives"), 1, 1000000);
            }
            if (v.contains("channel"))
                c.channel = text(v["channel"], join(where, "channel"));
            break;
        case CheckKind::RejectedToTail:
            checkKeys(v, where, {"kind", "min", "max", "equals"});
            c.bounds = bounds(v, where, 1.0);
            break;
    }
    return c;
}

Prediction prediction(const json& v, const std::string& where, const RunShape& shape) {
    Prediction p;
    if (!v.is_object()) {
        fail(where, "must be a JSON object");
    }
    const std::string kind =
        text(need(v, where, "kind", "choice, number or worker"), join(where, "kind"));
    if (kind == "choice") {
        checkKeys(v, where, {"kind", "question", "choices"});
        p.kind = PredictionKind::Choice;
        const json& list = need(v, where, "choices", "an array of {text, check}");
        if (!list.is_array() || list.size() < 2 || list.size() > 26) {
            fail(join(where, "choices"), "must be an array of 2 to 26 choices");
        }
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string w = at(join(where, "choices"), i);
            checkKeys(list[i], w, {"text", "check"});
            Choice c;
            c.text = text(need(list[i], w, "text", "what the learner picks"), join(w, "text"));
            c.check = check(need(list[i], w, "check", "when this choice is right"),
                            join(w, "check"), shape);
            p.choices.push_back(std::move(c));
        }
    } else if (kind == "number") {
        checkKeys(v, where, {"kind", "question", "measure", "worker", "tolerance"});
        p.kind = PredictionKind::Number;
        p.measure = measure(v, where, shape, "measure");
        if (v.contains("tolerance")) {
            p.tolerance = number(v["tolerance"], join(where, "tolerance"));
            if (p.tolerance < 0)
                fail(join(where, "tolerance"), "must be >= 0");
        }
    } else if (kind == "worker") {
        checkKeys(v, where, {"kind", "question", "counter", "pick"});
        p.kind = PredictionKind::Worker;
        p.measure.name =
            text(need(v, where, "counter", "a worker counter"), join(where, "counter"));
        if (!isWorkerCounter(p.measure.name)) {
            fail(join(where, "counter"), "'" + p.measure.name + "' is not a worker counter (" +
                                             names(workerCounterNames()) + ")");
        }
        const std::string pick =
            text(need(v, where, "pick", "most or fewest"), join(where, "pick"));
        if (pick != "most" && pick != "fewest") {
            fail(join(where, "pick"), "'" + pick + "' is not one of most, fewest");
        }
        p.most = pick == "most";
    } else {
        fail(join(where, "kind"), "'" + kind + "' is not one of choice, number, worker");
    }
    p.question =
        text(need(v, where, "question", "what the learner predicts"), join(where, "question"));
    return p;
}

runner::Scenario scenario(const json& v, const std::string& where) {
    if (!v.is_object()) {
        fail(where, "must be a scenario (a JSON object, docs/workers.md)");
    }
    runner::Scenario s;
    std::string problems;
    if (!runner::parseScenarioJson(v.dump(), &s, &problems)) {
        throw SchemaError{prefixLines(where + ".", problems), where};
    }
    return s;
}

LessonStep step(const json& v, const std::string& where) {
    checkKeys(v, where, {"prose", "prediction", "run", "seed", "checks"});
    LessonStep s;
    s.prose = text(need(v, where, "prose", "what the step says"), join(where, "prose"));
    s.run = scenario(need(v, where, "run", "the scenario this step runs"), join(where, "run"));
    const RunShape shape(s.run);
    if (v.contains("prediction")) {
        s.prediction = prediction(v["prediction"], join(where, "prediction"), shape);
    }
    if (v.contains("seed")) {
        s.seed = static_cast<std::uint64_t>(
            whole(v["seed"], join(where, "seed"), 1, std::numeric_limits<int>::max()));
    }
    const json& list = need(v, where, "checks", "an array of checks");
    if (!list.is_array() || list.empty()) {
        fail(join(where, "checks"), "must be a non-empty array of checks");
    }
    for (std::size_t i = 0; i < list.size(); ++i) {
        s.checks.push_back(check(list[i], at(join(where, "checks"), i), shape));
    }
    return s;
}

Lesson lesson(const json& root) {
    checkKeys(root, "", {"title", "idea", "needs", "steps"});
    Lesson l;
    l.title = text(need(root, "", "title", "the lesson's title"), "title");
    l.idea = text(need(root, "", "idea", "the idea in two or three sentences"), "idea");
    if (root.contains("needs")) {
        const json& needs = root["needs"];
        if (!needs.is_array()) {
            fail("needs", "must be an array (channel-management)");
        }
        for (std::size_t i = 0; i < needs.size(); ++i) {
            Need n{};
            const std::string name = text(needs[i], at("needs", i));
            if (name == "v1-stream") {
                fail(at("needs", i),
                     "'v1-stream' is no longer a need: the workers consume through the v1 stream "
                     "(\"consume\": \"v1\") on the embedded broker and KubeMQ v2.4.0 alike; "
                     "remove it");
            }
            if (!parseNeed(name, &n)) {
                fail(at("needs", i), "'" + name + "' is not one of channel-management");
            }
            l.needs.push_back(n);
        }
    }
    const json& steps = need(root, "", "steps", "an array of steps");
    if (!steps.is_array() || steps.empty()) {
        fail("steps", "must be a non-empty array of steps");
    }
    for (std::size_t i = 0; i < steps.size(); ++i) {
        l.steps.push_back(step(steps[i], at("steps", i)));
    }
    return l;
}

// nlohmann's what() starts with "[json.exception.parse_error.101] ".
std::string withoutExceptionTag(std::string_view what) {
    if (what.starts_with("[json.exception.")) {
        if (const std::size_t end = what.find("] "); end != std::string_view::npos) {
            what.remove_prefix(end + 2);
        }
    }
    return std::string(what);
}

}  // namespace

std::string_view needName(Need need) {
    switch (need) {
        case Need::ChannelManagement:
            return "channel-management";
    }
    return "channel-management";
}

bool parseNeed(std::string_view text, Need* out) {
    for (Need n : {Need::ChannelManagement}) {
        if (needName(n) == text) {
            *out = n;
            return true;
        }
    }
    return false;
}

bool parseLessonJson(std::string_view text, Lesson* out, std::string* error) {
    json root;
    try {
        root = json::parse(text, nullptr, /*allow_exceptions=*/true, /*ignore_comments=*/true);
    } catch (const json::exception& e) {
        *error = "invalid JSON: " + withoutExceptionTag(e.what());
        return false;
    }
    try {
        Lesson l = lesson(root);
        l.name = out->name;
        *out = std::move(l);
        return true;
    } catch (const SchemaError& e) {
        *error = withLine(e, lineOfJsonPath(text, e.where));
        return false;
    } catch (const json::exception& e) {
        *error = withoutExceptionTag(e.what());
        return false;
    }
}

bool loadLessonFile(const std::string& path, Lesson* out, std::string* error) {
    if (std::error_code ec; std::filesystem::is_directory(path, ec)) {
        *error = path + ": is a directory";
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        *error = path + ": cannot open file";
        return false;
    }
    std::ostringstream content;
    content << in.rdbuf();
    Lesson parsed;
    parsed.name = std::filesystem::path(path).stem().string();
    std::string problems;
    if (!parseLessonJson(content.str(), &parsed, &problems)) {
        *error = prefixLines(path + ": ", problems);
        return false;
    }
    *out = std::move(parsed);
    return true;
}

}  // namespace qs::lessons
