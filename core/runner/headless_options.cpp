#include "runner/headless_options.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "common/protocol_limits.h"
#include "runner/command_line_values.h"
#include "runner/scenario_json.h"
#include "runner/timeline_step.h"
#include "workers/setting_limits.h"
#include "workers/work_profile.h"

namespace qs::runner {

namespace {

namespace wl = workers::limits;

// The options given in seconds for settings kept in ms.
constexpr Limit<double> kWaitSeconds = wl::kWaitMs.scaled(0.001, "s");
constexpr Limit<double> kRestartSeconds = wl::kRestartDelayMs.scaled(0.001, "s");

// Worker options apply to every worker group.
template <typename F>
bool allGroups(HeadlessArgs& h, F&& apply) {
    for (WorkerGroup& g : h.scenario.workers) {
        apply(g.config);
    }
    return true;
}

bool fail(std::string* why, std::string text) {
    *why = std::move(text);
    return false;
}

// "SECONDS:ACTION[:WORKER][:ARG]": one timeline action; *why is the reason.
bool parseTimelineAction(const std::string& text, TimelineAction* out, std::string* why) {
    std::vector<std::string> parts = split(text, ':', 4);
    if (parts.size() < 2) {
        return fail(why, "expected SECONDS:ACTION[:WORKER][:ARG]");
    }
    TimelineAction a;
    if (!parseDouble(parts[0], &a.at) || a.at < 0.0) {
        return fail(why, "'" + parts[0] + "' is not a number of seconds >= 0");
    }
    if (!parseActionKind(parts[1], &a.kind)) {
        return fail(why, "unknown action '" + parts[1] +
                             "' (crash, restart, stop, pause, resume, slowdown, set, scale, "
                             "redrive)");
    }
    auto worker = [](const std::string& w) { return w == "all" ? std::string() : w; };
    switch (a.kind) {
        case ActionKind::Crash:
        case ActionKind::Restart:
        case ActionKind::Stop:
            if (parts.size() != 3 || parts[2].empty() || parts[2] == "all") {
                return fail(why, "needs exactly one worker, e.g. 2:" + parts[1] + ":worker-2");
            }
            a.worker = parts[2];
            break;
        case ActionKind::Pause:
        case ActionKind::Resume:
            if (parts.size() > 3) {
                return fail(why, "takes at most a worker");
            }
            a.worker = parts.size() == 3 ? worker(parts[2]) : std::string();
            break;
        case ActionKind::Slowdown:
            if (parts.size() != 4) {
                return fail(why, "expected SECONDS:slowdown:WORKER|all:FACTOR");
            }
            a.worker = worker(parts[2]);
            if (!parseDouble(parts[3], &a.factor) || a.factor <= 0.0) {
                return fail(why, "factor must be a number > 0");
            }
            break;
        case ActionKind::Scale:
            if (parts.size() != 3 || !parseInt(parts[2], wl::kWorkerCount, &a.count)) {
                return fail(why, "expected SECONDS:scale:COUNT (" + wl::kWorkerCount.range() + ")");
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
                return fail(why, "expected SECONDS:set:[WORKER:]KEY=VALUE[,KEY=VALUE...]");
            }
            if (!parseConfigAssignments(assignments, &a.patch, why)) {
                return false;
            }
            break;
        }
        case ActionKind::Redrive:
            if (parts.size() < 3 || parts[2].empty()) {
                return fail(why, "expected SECONDS:redrive:FROM[:TO]");
            }
            a.from = parts[2];
            a.to = parts.size() == 4 ? parts[3] : std::string();
            if (std::string p = checkRedriveOptions(redriveOptionsFor(a)); !p.empty()) {
                return fail(why, p);
            }
            break;
    }
    *out = std::move(a);
    return true;
}

// An option setting an int inside a limit: the common shape of many entries.
template <typename Set>
bool setInt(const std::string& v, const Limit<int>& limit, std::string* why, std::string bounds,
            Set&& set) {
    int i = 0;
    if (!parseInt(v, limit, &i)) {
        return fail(why, std::move(bounds));
    }
    set(i);
    return true;
}

std::vector<HeadlessOption> generalOptions() {
    const std::string_view general = "General";
    return {
        {"scenario", "NAME|FILE", general,
         "a bundled scenario (e.g. 04-worker-crash) or a JSON\n"
         "scenario file (schema in docs/workers.md)"},
        {"address", "HOST:PORT", general, "use this KubeMQ server instead of the embedded broker",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             if (std::string bad = checkHostPort(v); !bad.empty()) {
                 return fail(why, bad);
             }
             h.options.address = v;
             return true;
         }},
        {"auth-token", "TOKEN", general, "token for --address",
         [](HeadlessArgs& h, const std::string& v, std::string*) {
             h.options.authToken = v;
             return true;
         }},
        {"events-csv", "FILE", general, "write the full event log as CSV",
         [](HeadlessArgs& h, const std::string& v, std::string*) {
             h.options.eventsCsvPath = v;
             return true;
         }},
        {"events-jsonl", "FILE", general, "write the full event log as JSON Lines",
         [](HeadlessArgs& h, const std::string& v, std::string*) {
             h.options.eventsJsonlPath = v;
             return true;
         }},
        {"record", "FILE", general,
         "record the run into FILE (an SQLite *.qsrun file,\n"
         "docs/recording.md); `queuescope summary FILE` prints\n"
         "this run's summary from it",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             if (v.empty()) {
                 return fail(why, "needs a FILE");
             }
             h.options.recordingPath = v;
             return true;
         }},
        {"no-events", "", general, "no event stream (fastest; totals come from pool counters)",
         [](HeadlessArgs& h, const std::string&, std::string*) {
             h.options.recordEvents = false;
             return true;
         }},
        {"seed", "N", general, "seed for work durations and failure draws (default random)",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             // from_chars, not strtoull: "-1" must not wrap to 2^64 - 1.
             std::uint64_t seed = 0;
             const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), seed);
             if (v.empty() || ec != std::errc() || end != v.data() + v.size()) {
                 return fail(why, "must be a whole number 0.." +
                                      std::to_string(std::numeric_limits<std::uint64_t>::max()));
             }
             h.options.seed = seed;
             return true;
         }},
        {"quiet", "", general, "no progress lines on stderr",
         [](HeadlessArgs& h, const std::string&, std::string*) {
             h.quiet = true;
             return true;
         }},
        {"help", "", general, "this text", nullptr, "-h, --help"},
        {"version", "", general, "print the version and exit"},
    };
}

std::vector<HeadlessOption> runOptions() {
    const std::string_view length = "Run length";
    const std::string_view channel = "Channel";
    return {
        {"until-drained", "", length, "end when every task reached an end state (default)",
         [](HeadlessArgs& h, const std::string&, std::string*) {
             h.scenario.untilDrained = true;
             return true;
         }},
        {"timeout", "S", length, "... but after at most S seconds (default 60)",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             double d = 0.0;
             if (!parseDouble(v, &d) || d <= 0.0) {
                 return fail(why, "must be seconds > 0");
             }
             h.scenario.timeoutSeconds = d;
             return true;
         }},
        {"run-for", "S", length, "run exactly S seconds instead",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             double d = 0.0;
             if (!parseDouble(v, &d) || d <= 0.0) {
                 return fail(why, "must be seconds > 0");
             }
             h.scenario.runForSeconds = d;
             h.scenario.untilDrained = false;
             return true;
         }},
        {"channel", "NAME", channel, "queue name (default \"tasks\")",
         [](HeadlessArgs& h, const std::string& v, std::string*) {
             h.scenario.channel = v;
             return true;
         }},
        {"create-channel", "", channel, "create the channel first (channel management)",
         [](HeadlessArgs& h, const std::string&, std::string*) {
             h.scenario.createChannel = true;
             return true;
         }},
        {"delete-channel", "", channel, "delete the channel at the end",
         [](HeadlessArgs& h, const std::string&, std::string*) {
             h.scenario.deleteChannel = true;
             return true;
         }},
    };
}

std::vector<HeadlessOption> taskOptions() {
    const std::string_view tasks = "Tasks (the producer)";
    return {
        {"tasks", "N", tasks, "number of tasks, " + wl::kTaskCount.range() + " (default 10)",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             return setInt(v, wl::kTaskCount, why,
                           "must be a whole number " + wl::kTaskCount.bounds(),
                           [&h](int i) { h.scenario.tasks.count = i; });
         }},
        {"body", "TEMPLATE", tasks,
         "body template, {n} = task number, {total} = N\n(default \"Task #{n}\")",
         [](HeadlessArgs& h, const std::string& v, std::string*) {
             h.scenario.tasks.body = v;
             return true;
         }},
        {"metadata", "TEMPLATE", tasks, "metadata template (same placeholders)",
         [](HeadlessArgs& h, const std::string& v, std::string*) {
             h.scenario.tasks.metadata = v;
             return true;
         }},
        {"tag", "KEY=VALUE", tasks, "tag on every task (repeatable)",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             const std::size_t eq = v.find('=');
             if (eq == std::string::npos || eq == 0) {
                 return fail(why, "expected KEY=VALUE");
             }
             h.scenario.tasks.tags[v.substr(0, eq)] = v.substr(eq + 1);
             return true;
         }},
        {"rate", "R", tasks,
         "sending rate, " + wl::kProducerRate.range() + "\n(default 0 = all at once)",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             double d = 0.0;
             if (!parseNumber(v, wl::kProducerRate, &d)) {
                 return fail(why, "must be " + wl::kProducerRate.bounds());
             }
             h.scenario.tasks.rate = d;
             return true;
         }},
        {"tasks-at", "S", tasks, "start sending S seconds into the run",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             double d = 0.0;
             if (!parseDouble(v, &d) || d < 0.0) {
                 return fail(why, "must be seconds >= 0");
             }
             h.scenario.tasks.startAt = d;
             return true;
         }},
        {"delay", "S", tasks, "policy: delay seconds (" + protocol::kDelaySeconds.range() + ")",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             return setInt(v, protocol::kDelaySeconds, why,
                           "must be " + protocol::kDelaySeconds.bounds() + " seconds",
                           [&h](int i) { h.scenario.tasks.policy.delaySeconds = i; });
         }},
        {"expiration", "S", tasks,
         "policy: expiration seconds (" + protocol::kExpirationSeconds.range() + ")",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             return setInt(v, protocol::kExpirationSeconds, why,
                           "must be " + protocol::kExpirationSeconds.bounds() + " seconds",
                           [&h](int i) { h.scenario.tasks.policy.expirationSeconds = i; });
         }},
        {"max-receive", "N", tasks,
         "policy: max receive count (" + protocol::kMaxReceiveCount.range() +
             ",\n0 = server default)",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             return setInt(v, protocol::kMaxReceiveCount, why,
                           "must be " + protocol::kMaxReceiveCount.bounds(),
                           [&h](int i) { h.scenario.tasks.policy.maxReceiveCount = i; });
         }},
        {"dead-letter", "QUEUE", tasks, "policy: dead-letter queue",
         [](HeadlessArgs& h, const std::string& v, std::string*) {
             h.scenario.tasks.policy.deadLetterQueue = v;
             return true;
         }},
        {"poison", "LIST", tasks, "task numbers sent as poison tasks (always fail), e.g. 3,7",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             h.scenario.tasks.poison.clear();
             for (const std::string& part : split(v, ',')) {
                 int i = 0;
                 if (!parseInt(part, 1, wl::kTaskCount.max, &i)) {
                     return fail(why, "expected task numbers like 3,7");
                 }
                 h.scenario.tasks.poison.push_back(i);
             }
             return true;
         }},
    };
}

bool setAutoAck(HeadlessArgs& h, bool on) {
    return allGroups(h, [on](workers::WorkerConfig& c) { c.autoAck = on; });
}

bool setWork(HeadlessArgs& h, const std::string& spec, std::string* why) {
    workers::WorkProfile w;
    if (!workers::parseWorkSpec(spec, &w, why)) {
        return false;
    }
    return allGroups(h, [&w](workers::WorkerConfig& c) { c.work = w; });
}

bool setRate(HeadlessArgs& h, const std::string& v, const Limit<double>& rate,
             double workers::WorkerConfig::*field, std::string* why) {
    double d = 0.0;
    if (!parseNumber(v, rate, &d)) {
        return fail(why, "must be " + rate.bounds());
    }
    return allGroups(h, [d, field](workers::WorkerConfig& c) { c.*field = d; });
}

bool setMs(HeadlessArgs& h, const std::string& v, const Limit<double>& seconds,
           int workers::WorkerConfig::*field, std::string* why) {
    double d = 0.0;
    if (!parseNumber(v, seconds, &d)) {
        return fail(why, "must be " + seconds.bounds());
    }
    const int ms = static_cast<int>(std::llround(d * 1000.0));
    return allGroups(h, [ms, field](workers::WorkerConfig& c) { c.*field = ms; });
}

std::vector<HeadlessOption> workerOptions() {
    const std::string_view w = "Workers";
    return {
        {"workers", "N", w,
         "workers in the first group, " + wl::kWorkerCount.range() + " (default 3)",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             return setInt(v, wl::kWorkerCount, why, "must be " + wl::kWorkerCount.bounds(),
                           [&h](int i) { h.scenario.workers.front().count = i; });
         }},
        {"batch", "N", w, "messages per poll, " + wl::kBatchSize.range(),
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             return setInt(
                 v, wl::kBatchSize, why, "must be " + wl::kBatchSize.bounds(),
                 [&h](int i) { allGroups(h, [i](workers::WorkerConfig& c) { c.batchSize = i; }); });
         }},
        {"wait", "S", w,
         "poll wait timeout, " + kWaitSeconds.range() + " (the broker waits >= 1 s)",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             return setMs(h, v, kWaitSeconds, &workers::WorkerConfig::waitMs, why);
         }},
        {"auto-ack", "", w, "",
         [](HeadlessArgs& h, const std::string&, std::string*) { return setAutoAck(h, true); },
         "--auto-ack | --no-auto-ack"},
        {"no-auto-ack",
         "",
         w,
         "",
         [](HeadlessArgs& h, const std::string&, std::string*) { return setAutoAck(h, false); },
         {},
         false},
        {"work", "SPEC", w,
         "none | MS | fixed:MS | uniform:MIN:MAX | exponential:MEAN\n(each " + wl::kWorkMs.range() +
             ")",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             return setWork(h, v, why);
         }},
        {"work-ms", "MS", w, "same as --work fixed:MS",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             return setWork(h, "fixed:" + v, why);
         }},
        {"failure-rate", "P", w,
         "probability " + wl::kFailureRate.range() + " that processing a task fails",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             return setRate(h, v, wl::kFailureRate, &workers::WorkerConfig::failureRate, why);
         }},
        {"on-failure", "ACTION", w, "reject (default) | requeue",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             workers::FailureAction a{};
             if (!workers::parseFailureAction(v, &a)) {
                 return fail(why, "must be reject or requeue");
             }
             return allGroups(h, [a](workers::WorkerConfig& c) { c.onFailure = a; });
         }},
        {"requeue-channel", "Q", w, "destination for --on-failure requeue",
         [](HeadlessArgs& h, const std::string& v, std::string*) {
             return allGroups(h, [&v](workers::WorkerConfig& c) { c.requeueChannel = v; });
         }},
        {"crash-rate", "P", w,
         "probability " + wl::kCrashRate.range() + " per task that the worker crashes mid-work",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             return setRate(h, v, wl::kCrashRate, &workers::WorkerConfig::crashRate, why);
         }},
        {"restart-after", "S", w,
         "restart a crashed worker after S seconds, " + kRestartSeconds.range() +
             "\n(default: never)",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             return setMs(h, v, kRestartSeconds, &workers::WorkerConfig::restartDelayMs, why);
         }},
        {"settle", "MODE", w,
         "each (default) | batch | never (\"forgot to ack\") | async (acks queued,\n"
         "the last dropped when the worker leaves)",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             workers::SettleMode m{};
             if (!workers::parseSettleMode(v, &m)) {
                 return fail(why, "must be each, batch, never or async");
             }
             return allGroups(h, [m](workers::WorkerConfig& c) { c.settle = m; });
         }},
        {"max-polls", "N", w,
         "a worker stops (closing its connection) after N polls,\n" + wl::kMaxPolls.range() +
             " (default 0 = never)",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             return setInt(
                 v, wl::kMaxPolls, why, "must be a whole number " + wl::kMaxPolls.bounds(),
                 [&h](int i) { allGroups(h, [i](workers::WorkerConfig& c) { c.maxPolls = i; }); });
         }},
        {"consume", "MODE", w,
         "downstream (default) | v1 (the v1 stream: one task per poll, with --visibility)",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             workers::ConsumeMode m{};
             if (!workers::parseConsumeMode(v, &m)) {
                 return fail(why, "must be downstream or v1");
             }
             return allGroups(h, [m](workers::WorkerConfig& c) { c.consume = m; });
         }},
        {"visibility", "S", w,
         "a v1 worker's visibility timeout, " + wl::kVisibilitySeconds.range() + " (default " +
             std::to_string(wl::kVisibilitySeconds.defaultValue) + " s)",
         [](HeadlessArgs& h, const std::string& v, std::string* why) {
             return setInt(v, wl::kVisibilitySeconds, why,
                           "must be a whole number " + wl::kVisibilitySeconds.bounds(),
                           [&h](int i) {
                               allGroups(h, [i](workers::WorkerConfig& c) {
                                   c.visibilitySeconds = i;
                               });
                           });
         }},
    };
}

HeadlessOption timelineOption() {
    return {"at",
            "S:ACTION",
            "Timeline (repeatable)",
            "  --at S:crash:WORKER           drop WORKER's connection mid-batch, no settling\n"
            "  --at S:restart:WORKER         reconnect a crashed (or stopped) worker\n"
            "  --at S:stop:WORKER            stop a worker (its unsettled tasks go back)\n"
            "  --at S:pause[:WORKER|all]     pause (a poll in flight is cancelled)\n"
            "  --at S:resume[:WORKER|all]\n"
            "  --at S:slowdown:WORKER|all:F  multiply work durations by F\n"
            "  --at S:scale:N                grow or shrink the pool to N workers (" +
                wl::kWorkerCount.range() +
                ")\n"
                "  --at S:set:[WORKER:]K=V,...   change settings (batch, waitSeconds, autoAck, "
                "work,\n"
                "                                failureRate, onFailure, requeueChannel, "
                "crashRate,\n"
                "                                settle, maxPolls, restartAfterSeconds, consume,\n"
                "                                visibilitySeconds)\n"
                "  --at S:redrive:FROM[:TO]      move the run's dead letters in FROM back (to "
                "where\n"
                "                                each came from, or to TO)\n",
            [](HeadlessArgs& h, const std::string& v, std::string* why) {
                TimelineAction a;
                if (!parseTimelineAction(v, &a, why)) {
                    return false;
                }
                h.scenario.timeline.push_back(std::move(a));
                return true;
            },
            {},
            true,
            true};
}

std::vector<HeadlessOption> buildTable() {
    std::vector<HeadlessOption> table;
    for (auto part : {generalOptions(), runOptions(), taskOptions(), workerOptions()}) {
        for (HeadlessOption& o : part) {
            table.push_back(std::move(o));
        }
    }
    table.push_back(timelineOption());
    return table;
}

// "  --name PLACEHOLDER   help", continuation lines under the help column.
void appendEntry(std::string& out, const HeadlessOption& o) {
    constexpr std::size_t kHelpColumn = 25;
    if (o.preformatted) {
        out += o.help;
        return;
    }
    std::string label = o.label.empty() ? "--" + std::string(o.name) : std::string(o.label);
    if (o.label.empty() && !o.placeholder.empty()) {
        label += " " + std::string(o.placeholder);
    }
    std::string line = "  " + label;
    std::size_t from = 0;
    bool first = true;
    while (from < o.help.size()) {
        const std::size_t end = std::min(o.help.find('\n', from), o.help.size());
        line.append(line.size() < kHelpColumn ? kHelpColumn - line.size() : 1, ' ');
        line += o.help.substr(from, end - from);
        out += line + "\n";
        line.clear();
        from = end + 1;
        first = false;
    }
    if (first) {
        out += line + "\n";  // a label alone
    }
}

}  // namespace

std::span<const HeadlessOption> headlessOptions() {
    static const std::vector<HeadlessOption> table = buildTable();
    return table;
}

const HeadlessOption* findHeadlessOption(std::string_view name) {
    for (const HeadlessOption& o : headlessOptions()) {
        if (o.name == name) {
            return &o;
        }
    }
    return nullptr;
}

std::string formatHeadlessOptions() {
    std::string out;
    std::string_view section;
    for (const HeadlessOption& o : headlessOptions()) {
        if (!o.listed) {
            continue;
        }
        if (o.section != section) {
            out += (out.empty() ? "" : "\n") + std::string(o.section) + "\n";
            section = o.section;
        }
        appendEntry(out, o);
    }
    return out;
}

}  // namespace qs::runner
