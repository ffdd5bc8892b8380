#include "analysis/run_comparison.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>

#include "analysis/handout_timing.h"
#include "analysis/natural_order.h"
#include "analysis/scenario_chance.h"
#include "runner/text_table.h"

namespace qs::analysis {

std::string_view verdictName(Verdict verdict) {
    switch (verdict) {
        case Verdict::Same:
            return "same";
        case Verdict::Allowed:
            return "allowed";
        case Verdict::Differs:
            return "DIFFERS";
        case Verdict::Note:
            return "setting";
    }
    return "?";
}

namespace {

std::string n(std::uint64_t v) {
    return std::to_string(v);
}

std::string ms(std::int64_t ns) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f ms", static_cast<double>(ns) / 1e6);
    return text;
}

ComparedValue judged(std::string name, std::string a, std::string b, Verdict ifDifferent) {
    const Verdict v = a == b ? Verdict::Same : ifDifferent;
    return {std::move(name), std::move(a), std::move(b), v, {}};
}

// Sums of the per-worker counters the summary prints.
struct WorkerSums {
    std::uint64_t rejected = 0, requeued = 0, returned = 0, crashes = 0, polls = 0, emptyPolls = 0;
};

WorkerSums sums(const RecordedRun& run) {
    WorkerSums s;
    for (const WorkerStats& w : run.summary().result.workers) {
        s.rejected += w.rejected;
        s.requeued += w.requeued;
        s.returned += w.returned;
        s.crashes += w.crashes;
        s.polls += w.polls;
        s.emptyPolls += w.emptyPolls;
    }
    return s;
}

// The totals a scenario's chance drives (scenario_chance.h), allowed to
// differ with the reason.
void allowByChance(std::vector<ComparedValue>& rows, const ScenarioChance& chance) {
    const std::set<std::string> redelivery = {"deliveries", "redelivered messages",
                                              "  extra hand-outs", "  exactly once",
                                              "processed more than once"};
    auto allow = [&rows](const std::set<std::string>& names, const std::string& why) {
        if (why.empty()) {
            return;
        }
        for (ComparedValue& row : rows) {
            if (row.verdict == Verdict::Differs && names.count(row.name) > 0) {
                row.verdict = Verdict::Allowed;
                row.why = "chance: " + why;
            }
        }
    };
    std::set<std::string> failed = redelivery;
    failed.insert({"rejected", "requeued"});
    std::set<std::string> crashed = redelivery;
    crashed.insert({"worker crashes", "returned unsettled"});
    std::set<std::string> returned = redelivery;
    returned.insert("returned unsettled");
    allow(failed, chance.failures);
    allow(crashed, chance.crashes);
    allow(returned, chance.returns);
}

std::vector<ComparedValue> compareTotals(const RecordedRun& a, const RecordedRun& b) {
    const runner::RunResult& ra = a.summary().result;
    const runner::RunResult& rb = b.summary().result;
    const LedgerSummary& ta = ra.totals;
    const LedgerSummary& tb = rb.totals;
    const WorkerSums sa = sums(a);
    const WorkerSums sb = sums(b);
    std::vector<ComparedValue> rows;
    auto strict = [&](std::string name, std::uint64_t x, std::uint64_t y) {
        rows.push_back(judged(std::move(name), n(x), n(y), Verdict::Differs));
    };
    auto state = [&](std::string name, MessageState s) {
        strict(std::move(name), ta.count(s), tb.count(s));
    };
    strict("tasks sent", ra.producer.sent, rb.producer.sent);
    strict("send failed", ra.producer.failed, rb.producer.failed);
    state("acked", MessageState::Acked);
    strict("  exactly once", ta.exactlyOnce, tb.exactlyOnce);
    state("dead-lettered", MessageState::DeadLettered);
    state("dropped (max receive, no DLQ)", MessageState::Dropped);
    state("expired", MessageState::Expired);
    state("purged", MessageState::Purged);
    strict("moved to another channel", ra.tasksMoved, rb.tasksMoved);
    strict("LOST (no end state)", ra.tasksLost, rb.tasksLost);
    strict("deliveries", ta.deliveries, tb.deliveries);
    strict("redelivered messages", ta.redelivered, tb.redelivered);
    strict("  extra hand-outs", ta.redeliveries, tb.redeliveries);
    strict("rejected", sa.rejected, sb.rejected);
    strict("requeued", sa.requeued, sb.requeued);
    strict("returned unsettled", sa.returned, sb.returned);
    strict("worker crashes", sa.crashes, sb.crashes);
    strict("processed more than once", ta.processedMoreThanOnce, tb.processedMoreThanOnce);
    strict("acks lost", ta.acksLost, tb.acksLost);
    allowByChance(rows, chanceIn(a.scenario()));
    rows.push_back(judged("polls", n(sa.polls), n(sb.polls), Verdict::Allowed));
    rows.push_back(judged("empty polls", n(sa.emptyPolls), n(sb.emptyPolls), Verdict::Allowed));
    char ea[32];
    char eb[32];
    std::snprintf(ea, sizeof ea, "%.2f s", ra.elapsedSeconds);
    std::snprintf(eb, sizeof eb, "%.2f s", rb.elapsedSeconds);
    rows.push_back(judged("elapsed", ea, eb, Verdict::Allowed));
    return rows;
}

std::vector<ComparedValue> compareLatencies(const RecordedRun& a, const RecordedRun& b) {
    std::vector<ComparedValue> rows;
    auto add = [&rows](const std::string& what, const LatencyStats& x, const LatencyStats& y) {
        auto p = [](const LatencyStats& s, std::int64_t v) {
            return s.count == 0 ? std::string("-") : ms(v);
        };
        rows.push_back(judged(what + " p50", p(x, x.p50Ns), p(y, y.p50Ns), Verdict::Allowed));
        rows.push_back(judged(what + " p95", p(x, x.p95Ns), p(y, y.p95Ns), Verdict::Allowed));
    };
    add("sent to acked", a.ledger().sendToAckLatency(), b.ledger().sendToAckLatency());
    add("hand-out to settled", a.ledger().settleLatency(), b.ledger().settleLatency());
    return rows;
}

std::vector<ComparedValue> compareWorkers(const RecordedRun& a, const RecordedRun& b) {
    std::map<std::string, std::pair<const WorkerStats*, const WorkerStats*>> byName;
    for (const WorkerStats& w : a.summary().result.workers) {
        byName[w.worker].first = &w;
    }
    for (const WorkerStats& w : b.summary().result.workers) {
        byName[w.worker].second = &w;
    }
    std::vector<std::string> names;
    for (const auto& [name, unused] : byName) {
        names.push_back(name);
    }
    std::sort(names.begin(), names.end(),
              [](const std::string& x, const std::string& y) { return naturalLess(x, y); });
    auto handOuts = [](const RecordedRun& run) {
        std::uint64_t total = 0;
        for (const WorkerStats& w : run.summary().result.workers) {
            total += w.received;
        }
        return total;
    };
    // "share 40%": the worker's part of all the run's hand-outs.
    auto share = [](const WorkerStats* w, std::uint64_t total) {
        if (w == nullptr) {
            return std::string("-");
        }
        const std::uint64_t percent = total == 0 ? 0 : (w->received * 100 + total / 2) / total;
        return "share " + n(percent) + "%, " + n(w->received) + " received, " + n(w->acked) +
               " acked, " + n(w->rejected) + " rejected, " + n(w->crashes) + " crashes, " +
               n(w->emptyPolls) + " empty polls";
    };
    const std::uint64_t totalA = handOuts(a);
    const std::uint64_t totalB = handOuts(b);
    std::vector<ComparedValue> rows;
    for (const std::string& name : names) {
        const auto& [x, y] = byName[name];
        rows.push_back(judged(name, share(x, totalA), share(y, totalB), Verdict::Allowed));
    }
    return rows;
}

// Each run's hand-outs by timing class (handout_timing.h), first hand-outs
// and redeliveries apart. A class no run has is left out. How stored
// messages are shared among Gets that wait together is the competing
// consumers' order: KubeMQ v2.4.0 sometimes splits ten messages 4/3/3 among
// three Gets of five, which then all wait out their timeout, where the
// embedded broker fills two at once (docs/broker.md). So a full batch
// against a batch that waited out its timeout is allowed; a partial batch
// answered before the timeout, which no KubeMQ server sends, is not.
std::vector<ComparedValue> compareTiming(const RecordedRun& a, const RecordedRun& b) {
    using Counts = std::array<std::array<std::uint64_t, kHandOutTimingCount>, 2>;
    auto count = [](const RecordedRun& run) {
        Counts c{};
        for (const MessageRecord* m : run.messages()) {
            for (std::size_t i = 0; i < m->deliveries.size(); ++i) {
                const bool again = i > 0 || m->omittedDeliveries > 0;
                ++c[again ? 1 : 0][static_cast<std::size_t>(timingOf(run, m->deliveries[i]))];
            }
        }
        return c;
    };
    const Counts ca = count(a);
    const Counts cb = count(b);
    const ScenarioChance chance = chanceIn(a.scenario());
    std::string chanceWhy = chance.arrivals;
    for (const std::string* other : {&chance.failures, &chance.crashes, &chance.returns}) {
        if (chanceWhy.empty()) {
            chanceWhy = *other;
        }
    }
    std::vector<ComparedValue> rows;
    for (std::size_t again = 0; again < 2; ++again) {
        for (std::size_t t = 0; t < kHandOutTimingCount; ++t) {
            if (ca[again][t] == 0 && cb[again][t] == 0) {
                continue;
            }
            const auto timing = static_cast<HandOutTiming>(t);
            std::string name = again == 1 ? "redelivered " : "first hand-outs ";
            name += handOutTimingName(timing);
            std::string why;
            if (!chanceWhy.empty()) {
                why = "chance: " + chanceWhy;
            } else if (timing != HandOutTiming::EarlyPartial) {
                why = "which waiting Get a stored message goes to is the competing consumers' "
                      "order (spec 2.8.6)";
            }
            ComparedValue row = judged(std::move(name), n(ca[again][t]), n(cb[again][t]),
                                       why.empty() ? Verdict::Differs : Verdict::Allowed);
            if (row.verdict == Verdict::Allowed) {
                row.why = std::move(why);
            }
            rows.push_back(std::move(row));
        }
    }
    return rows;
}

// The scenario each run recorded, key by key (flattened JSON), and the few
// run settings that shape a run; only those that differ.
std::vector<ComparedValue> compareSettings(const RecordedRun& a, const RecordedRun& b) {
    auto flat = [](const RecordedRun& r) {
        std::map<std::string, std::string> out;
        const auto json = nlohmann::json::parse(r.setting("scenario_json"), nullptr, false);
        if (json.is_object()) {
            const nlohmann::json flattened = json.flatten();
            for (const auto& [key, value] : flattened.items()) {
                // An empty list flattens to null: the same as none.
                if (!value.is_null() && key != "/description") {
                    out["scenario" + key] =
                        value.is_string() ? value.get<std::string>() : value.dump();
                }
            }
        }
        for (const char* key : {"run_origin", "embedded_broker", "server_version", "seed",
                                "worker_config", "ledger_max_receive_count"}) {
            const std::string v = r.setting(key);
            if (!v.empty()) {
                out[key] = v;
            }
        }
        return out;
    };
    const auto fa = flat(a);
    const auto fb = flat(b);
    std::set<std::string> keys;
    for (const auto& [k, v] : fa) {
        keys.insert(k);
    }
    for (const auto& [k, v] : fb) {
        keys.insert(k);
    }
    std::vector<ComparedValue> rows;
    for (const std::string& k : keys) {
        const auto ia = fa.find(k);
        const auto ib = fb.find(k);
        const std::string va = ia == fa.end() ? "-" : ia->second;
        const std::string vb = ib == fb.end() ? "-" : ib->second;
        if (va != vb && k != "seed") {
            rows.push_back({k, va, vb, Verdict::Note, {}});
        }
    }
    return rows;
}

// What identifies a task across runs (see run_comparison.h).
std::string taskKey(const RecordedRun& run, const MessageRecord& m) {
    if (const TaskLabel* l = run.label(m.messageId)) {
        return std::to_string(l->number) + '\n' + l->body;
    }
    return "id\n" + m.messageId.str();
}

// Each task's sends in send order (RecordedRun::messages() is), and the
// tasks in the order of their first send.
struct Tasks {
    std::unordered_map<std::string, std::vector<const MessageRecord*>> sends;
    std::vector<const std::string*> order;  // keys of `sends` (nodes do not move)
};

Tasks tasksOf(const RecordedRun& run) {
    Tasks t;
    t.sends.reserve(run.messages().size());
    for (const MessageRecord* m : run.messages()) {
        auto [it, added] = t.sends.try_emplace(taskKey(run, *m));
        it->second.push_back(m);
        if (added) {
            t.order.push_back(&it->first);
        }
    }
    return t;
}

std::string endOf(const MessageRecord& m) {
    if (!isTerminal(m.state)) {
        return std::string(messageStateName(m.state)) + " (no end state)";
    }
    return std::string(messageStateName(m.state));
}

std::string describe(const MessageRecord* m) {
    if (m == nullptr) {
        return "-";
    }
    std::string text = endOf(*m) + " after " + n(m->deliveryCount) +
                       (m->deliveryCount == 1 ? " hand-out" : " hand-outs");
    std::string workers;
    for (std::size_t i = 0; i < m->deliveries.size() && i < 4; ++i) {
        workers += (i == 0 ? "" : ", ") + m->deliveries[i].worker.str();
    }
    if (m->deliveries.size() > 4) {
        workers += ", ...";
    }
    return workers.empty() ? text : text + " (" + workers + ")";
}

bool sameWorkers(const MessageRecord& x, const MessageRecord& y) {
    if (x.deliveries.size() != y.deliveries.size()) {
        return false;
    }
    for (std::size_t i = 0; i < x.deliveries.size(); ++i) {
        if (x.deliveries[i].worker != y.deliveries[i].worker) {
            return false;
        }
    }
    return true;
}

// Redeliveries land on whichever tasks the failing worker held: per task
// they may differ as long as the runs agree on how much came back and why.
bool redeliveryTotalsAgree(const std::vector<ComparedValue>& totals) {
    for (const ComparedValue& row : totals) {
        for (const char* name : {"redelivered messages", "  extra hand-outs", "rejected",
                                 "returned unsettled", "worker crashes", "requeued"}) {
            if (row.name == name && row.verdict != Verdict::Same) {
                return false;
            }
        }
    }
    return true;
}

void compareTasks(const RecordedRun& a, const RecordedRun& b, RunComparison& c) {
    const Tasks ta = tasksOf(a);
    const Tasks tb = tasksOf(b);
    const ScenarioChance chance = chanceIn(a.scenario());
    const bool byChance =
        !chance.failures.empty() || !chance.crashes.empty() || !chance.returns.empty();
    const bool redeliveriesMayMove = byChance || redeliveryTotalsAgree(c.totals);
    auto differs = [&c](const std::string& task, const MessageRecord* x, const MessageRecord* y,
                        Verdict verdict, std::string why) {
        c.tasks.push_back({task, describe(x), describe(y), verdict, std::move(why)});
    };
    // Pairs, and A's extra sends, in A's order.
    for (const std::string* key : ta.order) {
        const std::vector<const MessageRecord*>& xs = ta.sends.at(*key);
        const auto ib = tb.sends.find(*key);
        const std::size_t nb = ib == tb.sends.end() ? 0 : ib->second.size();
        const std::string task = a.taskName(*xs.front());
        for (std::size_t k = 0; k < xs.size(); ++k) {
            const MessageRecord* x = xs[k];
            const MessageRecord* y = k < nb ? ib->second[k] : nullptr;
            if (y == nullptr) {
                differs(task, x, y, Verdict::Differs, "sent in A only");
                continue;
            }
            ++c.tasksMatched;
            if (x->state != y->state) {
                differs(task, x, y, Verdict::Differs,
                        "ended " + endOf(*x) + " in A, " + endOf(*y) + " in B");
            } else if (x->deliveryCount != y->deliveryCount) {
                differs(task, x, y, redeliveriesMayMove ? Verdict::Allowed : Verdict::Differs,
                        byChance ? "chance: which tasks fail or come back is left to chance by "
                                   "the scenario"
                        : redeliveriesMayMove
                            ? "as many redeliveries in both runs: which tasks came back depends "
                              "on which worker held them"
                            : "handed out " + n(x->deliveryCount) + " times in A, " +
                                  n(y->deliveryCount) + " in B");
            } else if (!sameWorkers(*x, *y)) {
                ++c.tasksOnOtherWorkers;
            }
        }
    }
    // B's extra sends, in B's order.
    for (const std::string* key : tb.order) {
        const std::vector<const MessageRecord*>& ys = tb.sends.at(*key);
        const auto ia = ta.sends.find(*key);
        const std::size_t na = ia == ta.sends.end() ? 0 : ia->second.size();
        for (std::size_t k = na; k < ys.size(); ++k) {
            differs(b.taskName(*ys.front()), nullptr, ys[k], Verdict::Differs, "sent in B only");
        }
    }
    std::stable_partition(c.tasks.begin(), c.tasks.end(),
                          [](const TaskDifference& d) { return d.verdict == Verdict::Differs; });
}

// Messages a worker got twice in one Get's answer (the same transaction):
// KubeMQ v2.4.0 does this at times when it spreads stored messages among
// Gets that start together (docs/broker.md); the embedded broker never does.
void noteDuplicateHandOuts(const RecordedRun& run, const std::string& side,
                           std::vector<std::string>& notes) {
    std::map<std::string, std::vector<std::string>> byAnswer;  // "worker, transaction" -> tasks
    for (const MessageRecord* m : run.messages()) {
        for (std::size_t i = 1; i < m->deliveries.size(); ++i) {
            const DeliveryRecord& x = m->deliveries[i - 1];
            const DeliveryRecord& y = m->deliveries[i];
            if (!y.transaction.empty() && x.transaction == y.transaction && x.worker == y.worker) {
                byAnswer[y.worker.str() + " in transaction " + y.transaction.str()].push_back(
                    run.taskName(*m));
            }
        }
    }
    for (const auto& [answer, tasks] : byAnswer) {
        std::string list;
        for (const std::string& t : tasks) {
            list += (list.empty() ? "" : ", ") + t;
        }
        notes.push_back(side + ": the same message twice in one Get's answer (" + list + " to " +
                        answer +
                        "); KubeMQ v2.4.0 does this at times when it spreads stored messages "
                        "among Gets that start together (docs/broker.md)");
    }
}

}  // namespace

bool RunComparison::differs() const {
    return count(Verdict::Differs) > 0;
}

std::size_t RunComparison::count(Verdict verdict) const {
    std::size_t found = 0;
    auto add = [&found, verdict](const auto& rows) {
        found += static_cast<std::size_t>(std::count_if(
            rows.begin(), rows.end(), [verdict](const auto& r) { return r.verdict == verdict; }));
    };
    add(totals);
    add(latencies);
    add(workers);
    add(timing);
    add(tasks);
    return found;
}

RunComparison compareRuns(const RecordedRun& a, const RecordedRun& b) {
    RunComparison c;
    c.settings = compareSettings(a, b);
    c.totals = compareTotals(a, b);
    c.latencies = compareLatencies(a, b);
    c.workers = compareWorkers(a, b);
    c.timing = compareTiming(a, b);
    compareTasks(a, b, c);
    noteDuplicateHandOuts(a, "A", c.notes);
    noteDuplicateHandOuts(b, "B", c.notes);
    return c;
}

std::string formatComparison(const RunComparison& c, const std::string& nameA,
                             const std::string& nameB, std::size_t maxTasks) {
    std::string out = "A: " + nameA + "\nB: " + nameB + "\n\n";
    auto table = [&out](const std::string& title, const std::vector<ComparedValue>& rows,
                        bool judged) {
        if (rows.empty()) {
            return;
        }
        const bool whys = std::any_of(rows.begin(), rows.end(),
                                      [](const ComparedValue& r) { return !r.why.empty(); });
        std::vector<std::string> header{title, "A", "B"};
        if (judged) {
            header.emplace_back("");
        }
        if (whys) {
            header.emplace_back("why");
        }
        runner::TextTable t(header);
        for (const ComparedValue& r : rows) {
            std::vector<std::string> cells{r.name, r.a, r.b};
            if (judged) {
                cells.push_back(r.verdict == Verdict::Same ? ""
                                                           : std::string(verdictName(r.verdict)));
            }
            if (whys) {
                cells.push_back(r.why);
            }
            t.add(cells);
        }
        out += t.render() + "\n";
    };
    table("settings that differ", c.settings, false);
    table("totals", c.totals, true);
    table("latency", c.latencies, true);
    table("worker (share may differ)", c.workers, true);
    table("timing: how hand-outs reached their workers", c.timing, true);

    out += std::to_string(c.tasksMatched) + " tasks in both runs";
    if (c.tasksOnOtherWorkers > 0) {
        out += "; " + std::to_string(c.tasksOnOtherWorkers) +
               " ended alike on other workers (allowed)";
    }
    out += ".\n";
    if (!c.tasks.empty()) {
        runner::TextTable t({"task", "A", "B", "", "why"});
        std::size_t listed = 0;
        for (const TaskDifference& d : c.tasks) {
            if (listed++ == maxTasks) {
                break;
            }
            t.add({d.task, d.a, d.b, std::string(verdictName(d.verdict)), d.why});
        }
        out += "\nTasks that ended differently or were handed out a different number of times\n" +
               t.render();
        if (c.tasks.size() > maxTasks) {
            out += "... and " + std::to_string(c.tasks.size() - maxTasks) + " more\n";
        }
    }
    for (const std::string& note : c.notes) {
        out += "\nNote: " + note + "\n";
    }
    const std::size_t differing = c.count(Verdict::Differs);
    const std::size_t allowed = c.count(Verdict::Allowed);
    out += "\nResult: ";
    if (differing == 0) {
        out += "SAME - no difference outside what the semantics allow (" + std::to_string(allowed) +
               " allowed)\n";
    } else {
        out += "DIFFERENT - " + std::to_string(differing) +
               " differences the semantics do not allow (" + std::to_string(allowed) +
               " allowed)\n";
    }
    return out;
}

std::string comparisonJson(const RunComparison& c) {
    auto rows = [](const std::vector<ComparedValue>& values) {
        nlohmann::json list = nlohmann::json::array();
        for (const ComparedValue& v : values) {
            nlohmann::json row = {{"name", v.name},
                                  {"a", v.a},
                                  {"b", v.b},
                                  {"verdict", std::string(verdictName(v.verdict))}};
            if (!v.why.empty()) {
                row["why"] = v.why;
            }
            list.push_back(std::move(row));
        }
        return list;
    };
    nlohmann::json tasks = nlohmann::json::array();
    for (const TaskDifference& d : c.tasks) {
        tasks.push_back({{"task", d.task},
                         {"a", d.a},
                         {"b", d.b},
                         {"verdict", std::string(verdictName(d.verdict))},
                         {"why", d.why}});
    }
    const nlohmann::json out = {{"differs", c.differs()},
                                {"settings", rows(c.settings)},
                                {"totals", rows(c.totals)},
                                {"latencies", rows(c.latencies)},
                                {"workers", rows(c.workers)},
                                {"timing", rows(c.timing)},
                                {"tasks", std::move(tasks)},
                                {"notes", c.notes},
                                {"tasksMatched", c.tasksMatched},
                                {"tasksOnOtherWorkers", c.tasksOnOtherWorkers}};
    // Bodies and names are user text: bytes that are not UTF-8 become U+FFFD.
    return out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace qs::analysis
