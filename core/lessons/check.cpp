#include "lessons/check.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "lessons/wording.h"

namespace qs::lessons {

namespace {

std::string taskName(int n) {
    return "#" + std::to_string(n);
}

std::string handOut(const RunFacts& f, const DeliveryRecord& d) {
    return d.worker.str() + " at " + f.at(d.assignedNs);
}

CheckResult result(Verdict verdict, std::string sentence,
                   std::vector<std::uint32_t> evidence = {}) {
    CheckResult r;
    r.verdict = verdict;
    r.sentence = std::move(sentence);
    r.evidence = std::move(evidence);
    return r;
}

// Task numbers joined to "a; b; c", at most `limit` of them said in full.
std::string joinSome(const std::vector<std::string>& parts, std::size_t limit = 4) {
    std::string text;
    for (std::size_t i = 0; i < parts.size() && i < limit; ++i) {
        text += (i == 0 ? "" : "; ") + parts[i];
    }
    if (parts.size() > limit) {
        text += "; and " + std::to_string(parts.size() - limit) + " more";
    }
    return text;
}

std::string expected(const Bounds& b) {
    return "expected " + b.describe();
}

int ackCount(const MessageRecord& m) {
    return static_cast<int>(
        std::count_if(m.deliveries.begin(), m.deliveries.end(),
                      [](const DeliveryRecord& d) { return d.outcome == DeliveryOutcome::Acked; }));
}

CheckResult ackedOnce(const RunFacts& f) {
    const auto tasks = f.tasks();
    const int planned = f.scenario().tasks.count;
    std::vector<std::string> wrong;
    std::vector<int> wrongTasks;
    std::map<std::string, std::vector<int>, std::less<>> ackedBy;
    for (const MessageRecord* m : tasks) {
        const int n = f.taskNumber(m->messageId);
        const int acks = ackCount(*m);
        for (const DeliveryRecord& d : m->deliveries) {
            if (d.outcome == DeliveryOutcome::Acked) {
                ackedBy[d.worker.str()].push_back(n);
            }
        }
        if (acks == 1 && m->state == MessageState::Acked) {
            continue;
        }
        wrongTasks.push_back(n);
        if (acks == 0) {
            wrong.push_back(taskName(n) + " was never acked: it ended " +
                            std::string(messageStateName(m->state)) + " after " +
                            plural(m->deliveryCount, "hand-out", "hand-outs"));
        } else {
            std::string who;
            for (const DeliveryRecord& d : m->deliveries) {
                if (d.outcome == DeliveryOutcome::Acked) {
                    who += (who.empty() ? "" : ", ") + handOut(f, d);
                }
            }
            wrong.push_back(taskName(n) + " was acked " + std::to_string(acks) + " times (" + who +
                            ")");
        }
    }
    if (static_cast<int>(tasks.size()) < planned) {
        wrong.insert(wrong.begin(), "only " + std::to_string(tasks.size()) + " of the " +
                                        std::to_string(planned) + " tasks were sent");
    }
    if (!wrong.empty()) {
        return result(Verdict::Fail, joinSome(wrong) + ".", f.trailOf(wrongTasks));
    }
    std::string by;
    for (const auto& [worker, list] : ackedBy) {
        by += (by.empty() ? "" : ", ") + worker + " acked " + taskList(list);
    }
    const std::string all =
        tasks.size() == 1 ? "The task was" : "All " + std::to_string(tasks.size()) + " tasks were";
    std::vector<int> numbers;
    for (const MessageRecord* m : tasks) {
        numbers.push_back(f.taskNumber(m->messageId));
    }
    return result(Verdict::Pass, all + " acked exactly once: " + by + ".", f.trailOf(numbers));
}

CheckResult count(const CheckSpec& c, const RunFacts& f) {
    const MeasureValue v = f.measure(c.measure);
    if (!v.value) {
        return result(Verdict::Undecided, "Cannot be decided: " + v.why + ".");
    }
    const bool ok = c.bounds.contains(*v.value);
    const std::string sentence = f.describe(c.measure);
    return result(ok ? Verdict::Pass : Verdict::Fail,
                  sentence + (ok ? "" : " (" + expected(c.bounds) + ")") + ".",
                  f.evidenceOf(c.measure));
}

CheckResult share(const CheckSpec& c, const RunFacts& f) {
    const auto workers = f.workers();
    double total = 0;
    for (const WorkerStats& w : workers) {
        total += *f.measure({c.measure.name, w.worker}).value;
    }
    if (total == 0) {
        return result(Verdict::Undecided,
                      "Cannot be decided: no worker has any " + c.measure.name + " to share.");
    }
    std::vector<std::string> parts;
    std::vector<std::string> outside;
    bool seen = false;
    for (const WorkerStats& w : workers) {
        if (c.worker != "each" && w.worker != c.worker) {
            continue;
        }
        seen = true;
        const double n = *f.measure({c.measure.name, w.worker}).value;
        const double fraction = n / total;
        const std::string part = w.worker + " " + formatNumber(n) + " of " + formatNumber(total) +
                                 " (" + formatNumber(std::round(fraction * 1000) / 10) + "%)";
        parts.push_back(part);
        if (!c.bounds.contains(fraction)) {
            outside.push_back(part);
        }
    }
    if (!seen) {
        return result(Verdict::Fail, c.worker + " never took part in the run.");
    }
    const std::string text = c.measure.name + ": " + joinSome(parts, 12);
    if (!outside.empty()) {
        return result(Verdict::Fail, "Outside the share " + c.bounds.describe() + ": " +
                                         joinSome(outside, 12) + " (" + text + ").");
    }
    return result(Verdict::Pass, "Shares of " + text + ".");
}

// The index of the first hand-out of `m` that is not its first, goes to `to`
// ("" = anyone) and comes after a hand-out to `before` ("" = anyone).
std::optional<std::size_t> redelivery(const MessageRecord& m, const std::string& to,
                                      const std::string& before) {
    std::optional<std::size_t> firstFrom;
    for (std::size_t i = 0; i < m.deliveries.size(); ++i) {
        const DeliveryRecord& d = m.deliveries[i];
        const bool again = i > 0 || m.omittedDeliveries > 0;
        if (again && firstFrom && (to.empty() || d.worker == to)) {
            return i;
        }
        if (before.empty() || d.worker == before) {
            firstFrom = firstFrom.value_or(i);
        }
    }
    return std::nullopt;
}

std::string journey(const RunFacts& f, const MessageRecord& m) {
    std::string text;
    for (const DeliveryRecord& d : m.deliveries) {
        text += (text.empty() ? "" : ", then ") + handOut(f, d);
    }
    return text.empty() ? "never handed out" : "handed to " + text;
}

CheckResult redelivered(const CheckSpec& c, const RunFacts& f) {
    std::vector<std::string> parts;
    std::vector<int> matched;
    std::vector<int> missing;
    if (!c.tasks.empty()) {
        for (int n : c.tasks) {
            const MessageRecord* m = f.task(n);
            if (m == nullptr) {
                missing.push_back(n);
                parts.push_back(taskName(n) + " was never sent");
                continue;
            }
            const auto i = redelivery(*m, c.worker, c.fromWorker);
            (i ? matched : missing).push_back(n);
            parts.push_back(taskName(n) + " was " + journey(f, *m));
        }
        const bool ok = missing.empty();
        return result(ok ? Verdict::Pass : Verdict::Fail,
                      (ok ? "" : taskList(missing) + " did not come back as checked. ") +
                          joinSome(parts, 8) + ".",
                      f.trailOf(c.tasks));
    }
    for (const MessageRecord* m : f.tasks()) {
        if (const auto i = redelivery(*m, c.worker, c.fromWorker)) {
            const int n = f.taskNumber(m->messageId);
            matched.push_back(n);
            parts.push_back(taskName(n) + " was " + journey(f, *m));
        }
    }
    const auto n = static_cast<double>(matched.size());
    const bool ok = c.bounds.contains(n);
    std::string what = plural(matched.size(), "task was", "tasks were") + " handed out again";
    if (!c.fromWorker.empty())
        what += " after " + c.fromWorker + " had it";
    if (!c.worker.empty())
        what += " to " + c.worker;
    return result(ok ? Verdict::Pass : Verdict::Fail,
                  what + (ok ? "" : " (" + expected(c.bounds) + ")") +
                      (parts.empty() ? "." : ": " + joinSome(parts) + "."),
                  f.trailOf(matched));
}

// When `worker` crashed or stopped first ("" = never): the event that took it away.
std::optional<std::uint32_t> departure(const RunFacts& f, const std::string& worker) {
    const qs::Run& run = f.run();
    for (std::uint64_t i = 0; i < run.eventCount(); ++i) {
        const Event& e = run.event(i);
        if ((e.kind == EventKind::WorkerCrashed || e.kind == EventKind::WorkerStopped) &&
            e.actor.view() == worker) {
            return static_cast<std::uint32_t>(i);
        }
    }
    return std::nullopt;
}

CheckResult cameBack(const CheckSpec& c, const RunFacts& f) {
    std::vector<int> held;
    std::vector<int> back;
    std::vector<std::string> parts;
    std::vector<std::string> notBack;
    for (const MessageRecord* m : f.tasks()) {
        for (std::size_t i = 0; i < m->deliveries.size(); ++i) {
            const DeliveryRecord& d = m->deliveries[i];
            const bool unsettled = d.outcome == DeliveryOutcome::Returned ||
                                   d.outcome == DeliveryOutcome::Superseded ||
                                   d.outcome == DeliveryOutcome::Open || d.ackLost;
            if (d.worker != c.worker || !unsettled) {
                continue;
            }
            const int n = f.taskNumber(m->messageId);
            held.push_back(n);
            const DeliveryRecord* next = nullptr;
            for (std::size_t j = i + 1; j < m->deliveries.size(); ++j) {
                if (m->deliveries[j].worker != c.worker) {
                    next = &m->deliveries[j];
                    break;
                }
            }
            if (next != nullptr) {
                back.push_back(n);
                parts.push_back(taskName(n) + " to " + handOut(f, *next));
            } else {
                notBack.push_back(taskName(n) + " (" + std::string(messageStateName(m->state)) +
                                  ")");
            }
            break;
        }
    }
    std::string gone = c.worker + " went away";
    if (const auto e = departure(f, c.worker)) {
        const Event& ev = f.run().event(*e);
        gone = c.worker + (ev.kind == EventKind::WorkerCrashed ? " crashed" : " stopped") + " at " +
               f.at(ev.timeNs);
    }
    if (held.empty()) {
        const bool ok = c.bounds.contains(0);
        return result(ok ? Verdict::Pass : Verdict::Fail,
                      gone + " holding no unsettled task" +
                          (ok ? "" : " (" + expected(c.bounds) + " held)") + ".");
    }
    gone += " holding " + plural(held.size(), "unsettled task", "unsettled tasks") + " (" +
            taskList(held) + ")";
    if (!notBack.empty()) {
        return result(
            Verdict::Fail,
            gone + "; not handed to another worker afterwards: " + joinSome(notBack, 8) + ".",
            f.trailOf(held));
    }
    const bool ok = c.bounds.contains(static_cast<double>(held.size()));
    return result(ok ? Verdict::Pass : Verdict::Fail,
                  gone + (ok ? "" : " (" + expected(c.bounds) + ")") +
                      "; each came back to another worker: " + joinSome(parts, 5) + ".",
                  f.trailOf(held));
}

CheckResult deadLettered(const CheckSpec& c, const RunFacts& f) {
    const int n = c.tasks.front();
    const MessageRecord* m = f.task(n);
    if (m == nullptr) {
        return result(Verdict::Fail, taskName(n) + " was never sent.");
    }
    std::string rejects;
    for (const DeliveryRecord& d : m->deliveries) {
        rejects += (rejects.empty() ? "" : ", ") + handOut(f, d) + " (receive count " +
                   std::to_string(d.receiveCount) + ", " +
                   std::string(deliveryOutcomeName(d.outcome)) + ")";
    }
    const std::string history = taskName(n) + " was handed out " +
                                plural(m->deliveryCount, "time", "times") +
                                (rejects.empty() ? "" : ": " + rejects);
    if (m->state != MessageState::DeadLettered) {
        return result(Verdict::Fail,
                      history + "; it ended " + std::string(messageStateName(m->state)) +
                          ", not dead-lettered.",
                      f.trailOf({n}));
    }
    std::string channel = m->endDetail;
    if (channel.empty() && m->deadLetterInferred) {
        channel = f.scenario().tasks.policy.deadLetterQueue;
    }
    const std::string end = history + "; then it was moved to " +
                            (channel.empty() ? std::string("a dead-letter queue") : channel) +
                            " at " + f.at(m->endedNs) +
                            (m->deadLetterInferred ? " (by the max receive count rule)" : "");
    if (c.receives > 0 && static_cast<int>(m->deliveryCount) != c.receives) {
        return result(Verdict::Fail,
                      end + " (expected after " + std::to_string(c.receives) + " receives).",
                      f.trailOf({n}));
    }
    if (!c.channel.empty() && channel != c.channel) {
        return result(Verdict::Fail, end + " (expected " + c.channel + ").", f.trailOf({n}));
    }
    return result(Verdict::Pass, end + ".", f.trailOf({n}));
}

CheckResult notBeforeDelay(const RunFacts& f) {
    const int delay = f.scenario().tasks.policy.delaySeconds;
    const std::int64_t delayNs = static_cast<std::int64_t>(delay) * 1'000'000'000;
    std::optional<std::int64_t> earliest;
    std::string earliestText;
    std::vector<std::string> early;
    std::vector<int> earlyTasks;
    for (const MessageRecord* m : f.tasks()) {
        const int n = f.taskNumber(m->messageId);
        for (const DeliveryRecord& d : m->deliveries) {
            if (d.assignedNs == 0 || m->sentNs == 0) {
                continue;
            }
            const std::int64_t after = d.assignedNs - m->sentNs;
            if (!earliest || after < *earliest) {
                earliest = after;
                earliestText = taskName(n) + " to " + handOut(f, d);
            }
            if (after < delayNs) {
                early.push_back(taskName(n) + " to " + handOut(f, d) + ", " +
                                formatNumber(static_cast<double>(after) / 1e9) +
                                " s after its send");
                earlyTasks.push_back(n);
            }
        }
    }
    if (!earliest) {
        return result(Verdict::Undecided,
                      "Cannot be decided: no task was handed out, so no hand-out shows the delay.");
    }
    const std::string first = "the earliest hand-out came " +
                              formatNumber(std::round(static_cast<double>(*earliest) / 1e7) / 100) +
                              " s after its send (" + earliestText + ")";
    if (!early.empty()) {
        return result(
            Verdict::Fail,
            "Handed out before the " + std::to_string(delay) + " s delay: " + joinSome(early) + ".",
            f.trailOf(earlyTasks));
    }
    return result(Verdict::Pass, "No task was handed out before its " + std::to_string(delay) +
                                     " s delay: " + first + ".");
}

CheckResult rejectedToTail(const CheckSpec& c, const RunFacts& f) {
    std::vector<std::string> good;
    std::vector<std::string> bad;
    std::vector<int> tasks;
    std::size_t rejects = 0;
    for (const MessageRecord* m : f.tasks()) {
        const int n = f.taskNumber(m->messageId);
        for (std::size_t i = 0; i < m->deliveries.size(); ++i) {
            const DeliveryRecord& d = m->deliveries[i];
            if (d.outcome != DeliveryOutcome::Rejected) {
                continue;
            }
            ++rejects;
            tasks.push_back(n);
            const std::string what = taskName(n) + " was rejected by " + d.worker.str() + " at " +
                                     f.at(d.settledNs != 0 ? d.settledNs : d.assignedNs) +
                                     " (sequence " + std::to_string(d.sequence) +
                                     ", receive count " + std::to_string(d.receiveCount) + ")";
            if (i + 1 >= m->deliveries.size()) {
                if (isTerminal(m->state)) {
                    good.push_back(what + " and then " + std::string(messageStateName(m->state)));
                } else {
                    bad.push_back(what + " and never handed out again");
                }
                continue;
            }
            const DeliveryRecord& next = m->deliveries[i + 1];
            const std::string again = "handed out again to " + handOut(f, next) + " as sequence " +
                                      std::to_string(next.sequence) + " with receive count " +
                                      std::to_string(next.receiveCount);
            if (next.receiveCount == d.receiveCount + 1 && next.sequence > d.sequence) {
                good.push_back(what + ", " + again);
            } else {
                bad.push_back(what + ", " + again);
            }
        }
    }
    if (!bad.empty()) {
        return result(Verdict::Fail,
                      "Not a new copy at the tail with receive count + 1: " + joinSome(bad) + ".",
                      f.trailOf(tasks));
    }
    const bool ok = c.bounds.contains(static_cast<double>(rejects));
    return result(ok ? Verdict::Pass : Verdict::Fail,
                  plural(rejects, "reject", "rejects") +
                      (ok ? "" : " (" + expected(c.bounds) + ")") +
                      (good.empty() ? "." : ": " + joinSome(good, 3) + "."),
                  f.trailOf(tasks));
}

CheckResult decide(const CheckSpec& c, const RunFacts& f) {
    switch (c.kind) {
        case CheckKind::AckedOnce:
            return ackedOnce(f);
        case CheckKind::Count:
            return count(c, f);
        case CheckKind::Share:
            return share(c, f);
        case CheckKind::Redelivered:
            return redelivered(c, f);
        case CheckKind::CameBack:
            return cameBack(c, f);
        case CheckKind::DeadLettered:
            return deadLettered(c, f);
        case CheckKind::NotBeforeDelay:
            return notBeforeDelay(f);
        case CheckKind::RejectedToTail:
            return rejectedToTail(c, f);
    }
    return result(Verdict::Undecided, "Cannot be decided: unknown check.");
}

}  // namespace

std::string_view verdictName(Verdict verdict) {
    switch (verdict) {
        case Verdict::Pass:
            return "pass";
        case Verdict::Fail:
            return "FAIL";
        case Verdict::Undecided:
            return "undecided";
    }
    return "undecided";
}

namespace {

// A measure's name in a check's title, in words a learner reads ("empty
// polls", not "emptyPolls"); the names that are words already stay.
std::string measureWords(std::string_view name) {
    static const std::pair<std::string_view, std::string_view> kWords[] = {
        {"workersWithoutTasks", "workers that got no task"},
        {"workersWithTasks", "workers that got a task"},
        {"redelivered", "tasks handed out more than once"},
        {"redeliveries", "hand-outs beyond each task's first"},
        {"deliveries", "hand-outs"},
        {"emptyPolls", "empty polls"},
        {"exactlyOnce", "tasks acked after exactly one hand-out"},
        {"expiredUnread", "tasks that expired unread"},
        {"processedMoreThanOnce", "tasks processed more than once"},
        {"ackedUnprocessed", "tasks acked yet never processed"},
        {"acksLost", "acks lost"},
        {"redriven", "tasks moved back by a redrive"},
        {"visibilityExpired", "tasks taken back when their visibility ran out"},
        {"movedElsewhere", "tasks moved to another channel"},
        {"slowestHandOutSeconds", "slowest hand-out (seconds)"},
        {"deadLettered", "dead-lettered"},
    };
    for (const auto& [key, words] : kWords) {
        if (key == name) {
            return std::string(words);
        }
    }
    return std::string(name);
}

}  // namespace

std::string describeCheck(const CheckSpec& c) {
    switch (c.kind) {
        case CheckKind::AckedOnce:
            return "every task acked exactly once";
        case CheckKind::Count:
            return (c.measure.worker.empty() ? "" : c.measure.worker + " ") +
                   measureWords(c.measure.name) + ": " + c.bounds.describe();
        case CheckKind::Share:
            return (c.worker == "each" ? std::string("each worker's") : c.worker + "'s") +
                   " share of " + measureWords(c.measure.name) + ": " + c.bounds.describe();
        case CheckKind::Redelivered: {
            std::string text = c.tasks.empty() ? "tasks handed out again"
                                               : "task " + taskList(c.tasks) + " handed out again";
            if (!c.fromWorker.empty())
                text += " after " + c.fromWorker;
            if (!c.worker.empty())
                text += " to " + c.worker;
            return c.tasks.empty() ? text + ": " + c.bounds.describe() : text;
        }
        case CheckKind::CameBack:
            return "every task " + c.worker + " held unsettled came back to another worker";
        case CheckKind::DeadLettered:
            return "task #" + std::to_string(c.tasks.front()) + " dead-lettered" +
                   (c.receives > 0 ? " after " + std::to_string(c.receives) + " receives" : "") +
                   (c.channel.empty() ? "" : " to " + c.channel);
        case CheckKind::NotBeforeDelay:
            return "no task handed out before its delay";
        case CheckKind::RejectedToTail:
            return "every rejected task came back at the tail with receive count + 1";
    }
    return "check";
}

CheckResult evaluateCheck(const CheckSpec& check, const RunFacts& facts) {
    CheckResult r;
    if (!facts.undecidedReason().empty()) {
        r = result(Verdict::Undecided, "Cannot be decided: " + facts.undecidedReason() + ".");
    } else {
        r = decide(check, facts);
    }
    r.title = describeCheck(check);
    return r;
}

}  // namespace qs::lessons
