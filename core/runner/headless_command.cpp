#include "runner/headless_command.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <limits>
#include <optional>
#include <string_view>

#include "common/prefix_lines.h"
#include "common/protocol_limits.h"
#include "common/version.h"
#include "runner/scenario_json.h"
#include "runner/scenario_library.h"
#include "runner/summary_table.h"
#include "workers/setting_limits.h"
#include "workers/work_profile.h"

namespace qs::runner {

namespace {

std::atomic<bool> gInterrupted{false};

extern "C" void onInterrupt(int) {
    gInterrupted.store(true);
}

// Each flag, as parsed: name without the leading dashes and its value.
struct Flag {
    std::string name;
    std::optional<std::string> value;
};

// The options headlessUsage() documents: switches, and options taking a value.
constexpr std::string_view kSwitches[] = {"help",          "version",        "quiet",
                                          "auto-ack",      "no-auto-ack",    "no-events",
                                          "until-drained", "create-channel", "delete-channel"};
constexpr std::string_view kValued[] = {
    // General, run length, channel
    "scenario", "address", "auth-token", "events-csv", "events-jsonl", "record", "seed", "timeout",
    "run-for", "channel",
    // Tasks
    "tasks", "body", "metadata", "tag", "rate", "tasks-at", "delay", "expiration", "max-receive",
    "dead-letter", "poison",
    // Workers, timeline
    "workers", "batch", "wait", "work", "work-ms", "failure-rate", "on-failure", "requeue-channel",
    "crash-rate", "restart-after", "settle", "max-polls", "at"};

enum class OptionKind { Unknown, Switch, Valued };

OptionKind optionKind(std::string_view name) {
    if (std::find(std::begin(kSwitches), std::end(kSwitches), name) != std::end(kSwitches)) {
        return OptionKind::Switch;
    }
    if (std::find(std::begin(kValued), std::end(kValued), name) != std::end(kValued)) {
        return OptionKind::Valued;
    }
    return OptionKind::Unknown;
}

// Both event logs in one file would interleave CSV rows and JSON lines.
bool sameFile(const std::string& a, const std::string& b) {
    std::error_code ea;
    std::error_code eb;
    const auto ca = std::filesystem::weakly_canonical(a, ea);
    const auto cb = std::filesystem::weakly_canonical(b, eb);
    return a == b || (!ea && !eb && ca == cb);
}

bool parseDouble(const std::string& text, double* out) {
    if (text.empty()) {
        return false;
    }
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(v)) {
        return false;
    }
    *out = v;
    return true;
}

bool parseInt(const std::string& text, long long min, long long max, int* out) {
    if (text.empty()) {
        return false;
    }
    char* end = nullptr;
    errno = 0;
    long long v = std::strtoll(text.c_str(), &end, 10);
    if (errno != 0 || end != text.c_str() + text.size() || v < min || v > max) {
        return false;
    }
    *out = static_cast<int>(v);
    return true;
}

bool parseInt(const std::string& text, const Limit<int>& limit, int* out) {
    return parseInt(text, limit.min, limit.max, out);
}

bool parseNumber(const std::string& text, const Limit<double>& limit, double* out) {
    return parseDouble(text, out) && limit.contains(*out);
}

// The options given in seconds for settings kept in ms.
constexpr Limit<double> kWaitSeconds = workers::limits::kWaitMs.scaled(0.001, "s");
constexpr Limit<double> kRestartSeconds = workers::limits::kRestartDelayMs.scaled(0.001, "s");

std::vector<std::string> split(const std::string& text, char sep, std::size_t maxParts = 0) {
    std::vector<std::string> parts;
    std::size_t from = 0;
    for (;;) {
        if (maxParts != 0 && parts.size() + 1 == maxParts) {
            parts.push_back(text.substr(from));
            break;
        }
        std::size_t at = text.find(sep, from);
        parts.push_back(text.substr(from, at == std::string::npos ? std::string::npos : at - from));
        if (at == std::string::npos) {
            break;
        }
        from = at + 1;
    }
    return parts;
}

// "--at SECONDS:ACTION[:...]".
bool parseAt(const std::string& text, TimelineAction* out, std::string* error) {
    auto bad = [&](const std::string& why) {
        *error = "--at " + text + ": " + why;
        return false;
    };
    std::vector<std::string> parts = split(text, ':', 4);
    if (parts.size() < 2) {
        return bad("expected SECONDS:ACTION[:WORKER][:ARG]");
    }
    TimelineAction a;
    if (!parseDouble(parts[0], &a.at) || a.at < 0.0) {
        return bad("'" + parts[0] + "' is not a number of seconds >= 0");
    }
    if (!parseActionKind(parts[1], &a.kind)) {
        return bad("unknown action '" + parts[1] +
                   "' (crash, restart, stop, pause, resume, slowdown, set, scale)");
    }
    auto worker = [](const std::string& w) { return w == "all" ? std::string() : w; };
    switch (a.kind) {
        case ActionKind::Crash:
        case ActionKind::Restart:
        case ActionKind::Stop:
            if (parts.size() != 3 || parts[2].empty() || parts[2] == "all") {
                return bad("needs exactly one worker, e.g. 2:" + parts[1] + ":worker-2");
            }
            a.worker = parts[2];
            break;
        case ActionKind::Pause:
        case ActionKind::Resume:
            if (parts.size() > 3) {
                return bad("takes at most a worker");
            }
            a.worker = parts.size() == 3 ? worker(parts[2]) : std::string();
            break;
        case ActionKind::Slowdown:
            if (parts.size() != 4) {
                return bad("expected SECONDS:slowdown:WORKER|all:FACTOR");
            }
            a.worker = worker(parts[2]);
            if (!parseDouble(parts[3], &a.factor) || a.factor <= 0.0) {
                return bad("factor must be a number > 0");
            }
            break;
        case ActionKind::Scale:
            if (parts.size() != 3 || !parseInt(parts[2], workers::limits::kWorkerCount, &a.count)) {
                return bad("expected SECONDS:scale:COUNT (" +
                           workers::limits::kWorkerCount.range() + ")");
            }
            break;
        case ActionKind::Set: {
            std::string assignments;
            if (parts.size() == 3) {
                assignments = parts[2];
            } else if (parts.size() == 4 && parts[2].find('=') == std::string::npos) {
                a.worker = worker(parts[2]);
                assignments = parts[3];
            } else if (parts.size() == 4) {
                // "work=uniform:5:20" split at its colons: put it back together.
                assignments = parts[2] + ":" + parts[3];
            } else {
                return bad("expected SECONDS:set:[WORKER:]KEY=VALUE[,KEY=VALUE...]");
            }
            std::string why;
            if (!parseConfigAssignments(assignments, &a.patch, &why)) {
                return bad(why);
            }
            break;
        }
    }
    *out = std::move(a);
    return true;
}

}  // namespace

Scenario defaultScenario() {
    Scenario s;
    s.name = "";
    s.channel = "tasks";
    s.tasks.count = 10;
    WorkerGroup g;
    g.count = 3;
    g.config.batchSize = 5;
    g.config.waitMs = 10000;
    g.config.work = workers::WorkProfile::fixed(100.0);
    s.workers.push_back(g);
    s.untilDrained = true;
    s.timeoutSeconds = 60.0;
    return s;
}

std::string headlessUsage() {
    // Every range below comes from the record the parser checks against.
    namespace wl = workers::limits;
    const std::string text = R"(Usage: queuescope run [--scenario NAME|FILE] [options]

Runs a work-queue scenario headless: sends tasks, runs a pool of workers (one
client and one connection each) against the embedded broker (started in this
process on a free port) or a KubeMQ server, then prints a per-worker summary and
totals computed from the event ledger. Without --scenario the classic demo runs:
10 tasks, 3 workers, batch 5, wait 10 s, 100 ms of work per task.
Options override the scenario file; worker options apply to every worker group.

General
  --scenario NAME|FILE   a bundled scenario (e.g. 04-worker-crash) or a JSON
                         scenario file (schema in docs/workers.md)
  --address HOST:PORT    use this KubeMQ server instead of the embedded broker
  --auth-token TOKEN     token for --address
  --events-csv FILE      write the full event log as CSV
  --events-jsonl FILE    write the full event log as JSON Lines
  --record FILE          record the run into FILE (an SQLite *.qsrun file,
                         docs/recording.md); `queuescope summary FILE` prints
                         this run's summary from it
  --no-events            no event stream (fastest; totals come from pool counters)
  --seed N               seed for work durations and failure draws (default random)
  --quiet                no progress lines on stderr
  -h, --help             this text
  --version              print the version and exit

Run length
  --until-drained        end when every task reached an end state (default)
  --timeout S            ... but after at most S seconds (default 60)
  --run-for S            run exactly S seconds instead

Channel
  --channel NAME         queue name (default "tasks")
  --create-channel       create the channel first (channel management)
  --delete-channel       delete the channel at the end

Tasks (the producer)
  --tasks N              number of tasks, )" +
                             wl::kTaskCount.range() + R"( (default 10)
  --body TEMPLATE        body template, {n} = task number, {total} = N
                         (default "Task #{n}")
  --metadata TEMPLATE    metadata template (same placeholders)
  --tag KEY=VALUE        tag on every task (repeatable)
  --rate R               sending rate, )" +
                             wl::kProducerRate.range() + R"(
                         (default 0 = all at once)
  --tasks-at S           start sending S seconds into the run
  --delay S              policy: delay seconds ()" +
                             protocol::kDelaySeconds.range() + R"()
  --expiration S         policy: expiration seconds ()" +
                             protocol::kExpirationSeconds.range() + R"()
  --max-receive N        policy: max receive count ()" +
                             protocol::kMaxReceiveCount.range() + R"(,
                         0 = server default)
  --dead-letter QUEUE    policy: dead-letter queue
  --poison LIST          task numbers sent as poison tasks (always fail), e.g. 3,7

Workers
  --workers N            workers in the first group, )" +
                             wl::kWorkerCount.range() + R"( (default 3)
  --batch N              messages per poll, )" +
                             wl::kBatchSize.range() + R"(
  --wait S               poll wait timeout, )" +
                             kWaitSeconds.range() + R"( (the broker waits >= 1 s)
  --auto-ack | --no-auto-ack
  --work SPEC            none | MS | fixed:MS | uniform:MIN:MAX | exponential:MEAN
                         (each )" +
                             wl::kWorkMs.range() + R"()
  --work-ms MS           same as --work fixed:MS
  --failure-rate P       probability )" +
                             wl::kFailureRate.range() + R"( that processing a task fails
  --on-failure ACTION    reject (default) | requeue
  --requeue-channel Q    destination for --on-failure requeue
  --crash-rate P         probability )" +
                             wl::kCrashRate.range() + R"( per task that the worker crashes mid-work
  --restart-after S      restart a crashed worker after S seconds, )" +
                             kRestartSeconds.range() + R"(
                         (default: never)
  --settle MODE          each (default) | batch | never ("forgot to ack")
  --max-polls N          a worker stops (closing its connection) after N polls,
                         )" + wl::kMaxPolls.range() +
                             R"( (default 0 = never)

Timeline (repeatable)
  --at S:crash:WORKER           drop WORKER's connection mid-batch, no settling
  --at S:restart:WORKER         reconnect a crashed (or stopped) worker
  --at S:stop:WORKER            stop a worker (its unsettled tasks go back)
  --at S:pause[:WORKER|all]     pause (a poll in flight is cancelled)
  --at S:resume[:WORKER|all]
  --at S:slowdown:WORKER|all:F  multiply work durations by F
  --at S:scale:N                grow or shrink the pool to N workers ()" +
                             wl::kWorkerCount.range() + R"()
  --at S:set:[WORKER:]K=V,...   change settings (batch, waitSeconds, autoAck, work,
                                failureRate, onFailure, requeueChannel, crashRate,
                                settle, maxPolls, restartAfterSeconds)

Exit status
  0  every task was acked, dead-lettered, dropped or expired
  1  a task was lost (sent, never settled for good) or could not be sent
  2  bad command line or scenario
  3  the run failed (broker, connection, event log or recording file)
)";
    return text;
}

bool parseHeadlessArgs(const std::vector<std::string>& args, HeadlessArgs* out,
                       std::string* error) {
    std::vector<Flag> flags;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "-h") {
            flags.push_back({"help", std::nullopt});
            continue;
        }
        if (a.size() < 3 || a[0] != '-' || a[1] != '-') {
            *error = "unexpected argument '" + a + "' (options start with --)";
            return false;
        }
        Flag f;
        std::size_t eq = a.find('=');
        f.name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
        const OptionKind kind = optionKind(f.name);
        if (kind == OptionKind::Unknown) {
            *error = "unknown option '" + a + "'";
            return false;
        }
        if (eq != std::string::npos) {
            f.value = a.substr(eq + 1);
            if (kind == OptionKind::Switch) {
                *error = "--" + f.name + " takes no value";
                return false;
            }
        } else if (kind == OptionKind::Valued) {
            if (i + 1 >= args.size()) {
                *error = "--" + f.name + " needs a value";
                return false;
            }
            f.value = args[++i];
        }
        flags.push_back(std::move(f));
    }

    HeadlessArgs h;
    h.scenario = defaultScenario();
    for (const Flag& f : flags) {
        if (f.name == "help" || f.name == "version") {
            (f.name == "help" ? h.help : h.version) = true;
            *out = std::move(h);
            return true;
        }
        if (f.name == "scenario") {
            if (f.value->empty()) {
                *error = "--scenario needs a NAME or FILE";
                return false;
            }
            h.scenarioPath = *f.value;
        }
    }
    if (!h.scenarioPath.empty() && !loadScenario(h.scenarioPath, &h.scenario, error)) {
        return false;
    }

    Scenario& s = h.scenario;
    auto allGroups = [&s](auto&& apply) {
        for (WorkerGroup& g : s.workers) {
            apply(g.config);
        }
    };
    for (const Flag& f : flags) {
        const std::string& n = f.name;
        const std::string v = f.value.value_or("");
        auto bad = [&](const std::string& why) {
            *error = "--" + n + " " + v + ": " + why;
            return false;
        };
        double d = 0.0;
        int i = 0;
        if (n == "scenario") {
            continue;
        } else if (n == "address") {
            // gRPC would wrap a port over 65535 round to another port.
            const std::size_t colon = v.rfind(':');
            int port = 0;
            if (colon == std::string::npos || colon == 0 ||
                !parseInt(v.substr(colon + 1), 1, 65535, &port))
                return bad("expected HOST:PORT with a port 1..65535");
            h.options.address = v;
        } else if (n == "auth-token") {
            h.options.authToken = v;
        } else if (n == "events-csv") {
            h.options.eventsCsvPath = v;
        } else if (n == "events-jsonl") {
            h.options.eventsJsonlPath = v;
        } else if (n == "record") {
            if (v.empty())
                return bad("needs a FILE");
            h.options.recordingPath = v;
        } else if (n == "no-events") {
            h.options.recordEvents = false;
        } else if (n == "seed") {
            // from_chars, not strtoull: "-1" must not wrap to 2^64 - 1.
            std::uint64_t seed = 0;
            const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), seed);
            if (v.empty() || ec != std::errc() || end != v.data() + v.size())
                return bad("must be a whole number 0.." +
                           std::to_string(std::numeric_limits<std::uint64_t>::max()));
            h.options.seed = seed;
        } else if (n == "quiet") {
            h.quiet = true;
        } else if (n == "until-drained") {
            s.untilDrained = true;
        } else if (n == "timeout") {
            if (!parseDouble(v, &d) || d <= 0.0)
                return bad("must be seconds > 0");
            s.timeoutSeconds = d;
        } else if (n == "run-for") {
            if (!parseDouble(v, &d) || d <= 0.0)
                return bad("must be seconds > 0");
            s.runForSeconds = d;
            s.untilDrained = false;
        } else if (n == "channel") {
            s.channel = v;
        } else if (n == "create-channel") {
            s.createChannel = true;
        } else if (n == "delete-channel") {
            s.deleteChannel = true;
        } else if (n == "tasks") {
            if (!parseInt(v, workers::limits::kTaskCount, &i))
                return bad("must be a whole number " + workers::limits::kTaskCount.bounds());
            s.tasks.count = i;
        } else if (n == "body") {
            s.tasks.body = v;
        } else if (n == "metadata") {
            s.tasks.metadata = v;
        } else if (n == "tag") {
            std::size_t eq = v.find('=');
            if (eq == std::string::npos || eq == 0)
                return bad("expected KEY=VALUE");
            s.tasks.tags[v.substr(0, eq)] = v.substr(eq + 1);
        } else if (n == "rate") {
            if (!parseNumber(v, workers::limits::kProducerRate, &d))
                return bad("must be " + workers::limits::kProducerRate.bounds());
            s.tasks.rate = d;
        } else if (n == "tasks-at") {
            if (!parseDouble(v, &d) || d < 0.0)
                return bad("must be seconds >= 0");
            s.tasks.startAt = d;
        } else if (n == "delay") {
            if (!parseInt(v, protocol::kDelaySeconds, &i))
                return bad("must be " + protocol::kDelaySeconds.bounds() + " seconds");
            s.tasks.policy.delaySeconds = i;
        } else if (n == "expiration") {
            if (!parseInt(v, protocol::kExpirationSeconds, &i))
                return bad("must be " + protocol::kExpirationSeconds.bounds() + " seconds");
            s.tasks.policy.expirationSeconds = i;
        } else if (n == "max-receive") {
            if (!parseInt(v, protocol::kMaxReceiveCount, &i))
                return bad("must be " + protocol::kMaxReceiveCount.bounds());
            s.tasks.policy.maxReceiveCount = i;
        } else if (n == "dead-letter") {
            s.tasks.policy.deadLetterQueue = v;
        } else if (n == "poison") {
            s.tasks.poison.clear();
            for (const std::string& part : split(v, ',')) {
                if (!parseInt(part, 1, workers::limits::kTaskCount.max, &i))
                    return bad("expected task numbers like 3,7");
                s.tasks.poison.push_back(i);
            }
        } else if (n == "workers") {
            if (!parseInt(v, workers::limits::kWorkerCount, &i))
                return bad("must be " + workers::limits::kWorkerCount.bounds());
            s.workers.front().count = i;
        } else if (n == "batch") {
            if (!parseInt(v, workers::limits::kBatchSize, &i))
                return bad("must be " + workers::limits::kBatchSize.bounds());
            allGroups([i](workers::WorkerConfig& c) { c.batchSize = i; });
        } else if (n == "wait") {
            if (!parseNumber(v, kWaitSeconds, &d))
                return bad("must be " + kWaitSeconds.bounds());
            const int ms = static_cast<int>(std::llround(d * 1000.0));
            allGroups([ms](workers::WorkerConfig& c) { c.waitMs = ms; });
        } else if (n == "auto-ack" || n == "no-auto-ack") {
            const bool on = n == "auto-ack";
            allGroups([on](workers::WorkerConfig& c) { c.autoAck = on; });
        } else if (n == "work" || n == "work-ms") {
            workers::WorkProfile w;
            std::string why;
            if (!workers::parseWorkSpec(n == "work-ms" ? "fixed:" + v : v, &w, &why))
                return bad(why);
            allGroups([&w](workers::WorkerConfig& c) { c.work = w; });
        } else if (n == "failure-rate" || n == "crash-rate") {
            const bool failure = n == "failure-rate";
            const Limit<double>& rate =
                failure ? workers::limits::kFailureRate : workers::limits::kCrashRate;
            if (!parseNumber(v, rate, &d))
                return bad("must be " + rate.bounds());
            allGroups([d, failure](workers::WorkerConfig& c) {
                (failure ? c.failureRate : c.crashRate) = d;
            });
        } else if (n == "on-failure") {
            workers::FailureAction a{};
            if (!workers::parseFailureAction(v, &a))
                return bad("must be reject or requeue");
            allGroups([a](workers::WorkerConfig& c) { c.onFailure = a; });
        } else if (n == "requeue-channel") {
            allGroups([&v](workers::WorkerConfig& c) { c.requeueChannel = v; });
        } else if (n == "restart-after") {
            if (!parseNumber(v, kRestartSeconds, &d))
                return bad("must be " + kRestartSeconds.bounds());
            const int ms = static_cast<int>(std::llround(d * 1000.0));
            allGroups([ms](workers::WorkerConfig& c) { c.restartDelayMs = ms; });
        } else if (n == "settle") {
            workers::SettleMode m{};
            if (!workers::parseSettleMode(v, &m))
                return bad("must be each, batch or never");
            allGroups([m](workers::WorkerConfig& c) { c.settle = m; });
        } else if (n == "max-polls") {
            if (!parseInt(v, workers::limits::kMaxPolls, &i))
                return bad("must be a whole number " + workers::limits::kMaxPolls.bounds());
            allGroups([i](workers::WorkerConfig& c) { c.maxPolls = i; });
        } else if (n == "at") {
            TimelineAction a;
            if (!parseAt(v, &a, error))
                return false;
            s.timeline.push_back(std::move(a));
        } else {
            *error = "unknown option '--" + n + "'";
            return false;
        }
    }
    if (!h.options.eventsCsvPath.empty() && !h.options.eventsJsonlPath.empty() &&
        sameFile(h.options.eventsCsvPath, h.options.eventsJsonlPath)) {
        *error = "--events-csv and --events-jsonl name the same file";
        return false;
    }
    for (const std::string* log : {&h.options.eventsCsvPath, &h.options.eventsJsonlPath}) {
        if (!h.options.recordingPath.empty() && !log->empty() &&
            sameFile(*log, h.options.recordingPath)) {
            *error = "--record and an event log name the same file";
            return false;
        }
    }
    if (!h.options.recordingPath.empty() && !h.options.recordEvents) {
        *error = "--record needs the event stream: drop --no-events";
        return false;
    }
    std::stable_sort(s.timeline.begin(), s.timeline.end(),
                     [](const TimelineAction& a, const TimelineAction& b) { return a.at < b.at; });
    if (std::string problems = s.validate(); !problems.empty()) {
        *error = problems;
        return false;
    }
    *out = std::move(h);
    return true;
}

int runHeadless(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    HeadlessArgs h;
    std::string error;
    if (!parseHeadlessArgs(args, &h, &error)) {
        // One line a problem (a scenario can have several), each readable alone.
        err << prefixLines("queuescope run: ", error) << '\n';
        err << "(see queuescope run --help)\n";
        return 2;
    }
    if (h.help) {
        out << headlessUsage();
        return 0;
    }
    if (h.version) {
        out << "queuescope run " << kVersion << '\n';
        return 0;
    }
    h.options.cancelFlag = &gInterrupted;
    if (!h.quiet) {
        h.options.log = [&err](const std::string& line) { err << line << '\n' << std::flush; };
    }
    RunResult result;
    try {
        ScenarioRunner runner(h.scenario, h.options);
        result = runner.run();
    } catch (const std::exception& e) {
        // Last resort for what escapes the run (std::system_error when a thread
        // cannot start, bad_alloc): one line and exit 3, not std::terminate.
        err << "queuescope run: the run failed: " << e.what() << '\n';
        return 3;
    }
    out << formatSummary(h.scenario, result);
    out.flush();
    if (!result.error.empty()) {
        err << "queuescope run: " << result.error << '\n';
    }
    return result.exitCode();
}

int runHeadless(int argc, char** argv) {
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) {
        args.emplace_back(argv[i]);
    }
    if (!args.empty() && args.front() == "run") {
        args.erase(args.begin());
    }
    gInterrupted.store(false);
    auto previousInt = std::signal(SIGINT, onInterrupt);
    auto previousTerm = std::signal(SIGTERM, onInterrupt);
    const int code = runHeadless(args, std::cout, std::cerr);
    std::signal(SIGINT, previousInt);
    std::signal(SIGTERM, previousTerm);
    return code;
}

}  // namespace qs::runner
