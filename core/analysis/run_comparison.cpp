#include "analysis/run_comparison.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>

#include "analysis/natural_order.h"
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
    return {std::move(name), std::move(a), std::move(b), v};
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
    auto share = [](const WorkerStats* w) {
        if (w == nullptr) {
            return std::string("-");
        }
        return n(w->received) + " received, " + n(w->acked) + " acked, " + n(w->crashes) +
               " crashes, " + n(w->emptyPolls) + " empty polls";
    };
    std::vector<ComparedValue> rows;
    for (const std::string& name : names) {
        const auto& [x, y] = byName[name];
        rows.push_back(judged(name, share(x), share(y), Verdict::Allowed));
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
            rows.push_back({k, va, vb, Verdict::Note});
        }
    }
    return rows;
}

// What identifies a task across runs (see run_comparison.h).
std::string taskKey(const RecordedRun& run, const MessageRecord& m) {
    if (const TaskLabel* l = run.label(m.messageId)) {
        return std::to_string(l->number) + '\n' + l->body;
    }
    return "id\n" + m.messageId;
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
        workers += (i == 0 ? "" : ", ") + m->deliveries[i].worker;
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
    const bool redeliveriesMayMove = redeliveryTotalsAgree(c.totals);
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
                        redeliveriesMayMove
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

}  // namespace

bool RunComparison::differs() const {
    auto bad = [](const auto& rows) {
        return std::any_of(rows.begin(), rows.end(),
                           [](const auto& r) { return r.verdict == Verdict::Differs; });
    };
    return bad(totals) || bad(latencies) || bad(workers) || bad(tasks);
}

RunComparison compareRuns(const RecordedRun& a, const RecordedRun& b) {
    RunComparison c;
    c.settings = compareSettings(a, b);
    c.totals = compareTotals(a, b);
    c.latencies = compareLatencies(a, b);
    c.workers = compareWorkers(a, b);
    compareTasks(a, b, c);
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
        runner::TextTable t(judged ? std::vector<std::string>{title, "A", "B", ""}
                                   : std::vector<std::string>{title, "A", "B"});
        for (const ComparedValue& r : rows) {
            if (judged) {
                t.add({r.name, r.a, r.b,
                       r.verdict == Verdict::Same ? "" : std::string(verdictName(r.verdict))});
            } else {
                t.add({r.name, r.a, r.b});
            }
        }
        out += t.render() + "\n";
    };
    table("settings that differ", c.settings, false);
    table("totals", c.totals, true);
    table("latency", c.latencies, true);
    table("worker (share may differ)", c.workers, true);

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
    std::size_t differing = 0;
    std::size_t allowed = 0;
    auto count = [&](const auto& rows) {
        for (const auto& r : rows) {
            differing += r.verdict == Verdict::Differs ? 1 : 0;
            allowed += r.verdict == Verdict::Allowed ? 1 : 0;
        }
    };
    count(c.totals);
    count(c.latencies);
    count(c.workers);
    count(c.tasks);
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

}  // namespace qs::analysis
