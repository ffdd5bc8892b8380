#include "lessons/run_facts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <set>

#include "lessons/wording.h"
#include "recording/recording_reader.h"

namespace qs::lessons {

namespace {

// Redelivered events the ledger derived during the run: recorded for the
// timeline, never fed to a ledger again (the Run's ledger derives its own).
bool isDerived(const Event& e) {
    return e.kind == EventKind::Redelivered && e.source == EventSource::Pool;
}

const std::vector<std::string_view> kRunMeasures = {"sent",
                                                    "acked",
                                                    "deadLettered",
                                                    "dropped",
                                                    "expired",
                                                    "expiredUnread",
                                                    "purged",
                                                    "unfinished",
                                                    "lost",
                                                    "exactlyOnce",
                                                    "redelivered",
                                                    "redeliveries",
                                                    "deliveries",
                                                    "acksLost",
                                                    "redriven",
                                                    "processedMoreThanOnce",
                                                    "ackedUnprocessed",
                                                    "polls",
                                                    "emptyPolls",
                                                    "crashes",
                                                    "workersWithTasks",
                                                    "workersWithoutTasks",
                                                    "movedElsewhere",
                                                    "slowestHandOutSeconds"};

const std::vector<std::string_view> kWorkerCounters = {
    "received",  "redelivered", "acked", "rejected",   "requeued",   "returned", "acksLost",
    "processed", "crashes",     "polls", "emptyPolls", "reconnects", "errors", "visibilityExpired"};

std::uint64_t counter(const WorkerStats& w, std::string_view name) {
    if (name == "received")
        return w.received;
    if (name == "redelivered")
        return w.redelivered;
    if (name == "acked")
        return w.acked;
    if (name == "rejected")
        return w.rejected;
    if (name == "requeued")
        return w.requeued;
    if (name == "returned")
        return w.returned;
    if (name == "acksLost")
        return w.acksLost;
    if (name == "processed")
        return w.processed;
    if (name == "crashes")
        return w.crashes;
    if (name == "polls")
        return w.polls;
    if (name == "emptyPolls")
        return w.emptyPolls;
    if (name == "reconnects")
        return w.reconnects;
    if (name == "visibilityExpired")
        return w.visibilityExpired;
    return w.errors;
}

// Run-wide measures that count tasks: which tasks, and how a sentence says it.
struct TaskMeasure {
    std::string_view name;
    std::string_view what;
    bool (*holds)(const MessageRecord& task, const std::string& homeChannel);
};

bool movedElsewhere(const MessageRecord& r, const std::string& home) {
    return r.state == MessageState::Waiting && r.channel != home;
}

const TaskMeasure kTaskMeasures[] = {
    {"acked", "were acked",
     [](const MessageRecord& r, const std::string&) { return r.state == MessageState::Acked; }},
    {"deadLettered", "went to a dead-letter queue",
     [](const MessageRecord& r, const std::string&) {
         return r.state == MessageState::DeadLettered;
     }},
    {"dropped", "were dropped after their last allowed receive",
     [](const MessageRecord& r, const std::string&) { return r.state == MessageState::Dropped; }},
    {"expired", "expired",
     [](const MessageRecord& r, const std::string&) { return r.state == MessageState::Expired; }},
    {"expiredUnread", "expired without ever being handed out",
     [](const MessageRecord& r, const std::string&) {
         return r.state == MessageState::Expired && r.deliveryCount == 0;
     }},
    {"redelivered", "were handed out more than once",
     [](const MessageRecord& r, const std::string&) { return r.deliveryCount > 1; }},
    {"processedMoreThanOnce", "were processed more than once",
     [](const MessageRecord& r, const std::string&) { return r.processedCount > 1; }},
    {"ackedUnprocessed", "were acked as they were handed out (auto-ack) and never processed",
     [](const MessageRecord& r, const std::string&) {
         return r.state == MessageState::Acked && r.processedCount == 0;
     }},
    {"unfinished", "were not settled at the end",
     [](const MessageRecord& r, const std::string&) { return !isTerminal(r.state); }},
    // Not settled and not moved to another channel (computeLedgerTotals' rule).
    {"lost", "were lost",
     [](const MessageRecord& r, const std::string& home) {
         return !isTerminal(r.state) && !movedElsewhere(r, home);
     }},
    {"movedElsewhere", "were moved to another channel and wait there", &movedElsewhere},
};

const TaskMeasure* taskMeasure(std::string_view name) {
    for (const TaskMeasure& t : kTaskMeasures) {
        if (t.name == name) {
            return &t;
        }
    }
    return nullptr;
}

}  // namespace

const std::vector<std::string_view>& runMeasureNames() {
    return kRunMeasures;
}
const std::vector<std::string_view>& workerCounterNames() {
    return kWorkerCounters;
}
bool isRunMeasure(std::string_view name) {
    return std::find(kRunMeasures.begin(), kRunMeasures.end(), name) != kRunMeasures.end();
}
bool isWorkerCounter(std::string_view name) {
    return std::find(kWorkerCounters.begin(), kWorkerCounters.end(), name) != kWorkerCounters.end();
}
bool needsBrokerEvents(std::string_view name) {
    return name == "expired" || name == "expiredUnread";
}

std::string taskList(std::vector<int> numbers) {
    std::sort(numbers.begin(), numbers.end());
    numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
    std::string text;
    for (std::size_t i = 0; i < numbers.size();) {
        std::size_t j = i;
        while (j + 1 < numbers.size() && numbers[j + 1] == numbers[j] + 1) {
            ++j;
        }
        text += (text.empty() ? "#" : ", #") + std::to_string(numbers[i]);
        if (j > i) {
            text += (j == i + 1 ? ", #" : "-#") + std::to_string(numbers[j]);
        }
        i = j + 1;
    }
    return text;
}

std::unique_ptr<RunFacts> RunFacts::fromRecording(const std::string& path,
                                                  const runner::Scenario& scenario,
                                                  runner::RunResult result, std::string* error,
                                                  std::uint64_t maxEvents) {
    auto reader = recording::RecordingReader::open(path, error);
    if (!reader) {
        return nullptr;
    }
    std::unique_ptr<RunFacts> facts(new RunFacts);
    facts->scenario_ = scenario;
    facts->result_ = std::move(result);
    facts->originNs_ = reader->originNs();
    qs::RunModelOptions options;
    options.ledger = runner::ledgerOptionsFor(scenario);
    options.ledger.maxPendingDerivedEvents = 0;
    facts->run_ = std::make_unique<qs::Run>(options);
    qs::Run& run = *facts->run_;
    const std::uint64_t last =
        maxEvents > 0 ? std::min(reader->lastIndex(), maxEvents) : reader->lastIndex();
    if (!reader->forEachEvent(
            1, last + 1,
            [&run](std::uint64_t, const Event& e) {
                if (!isDerived(e)) {
                    run.append(e);
                }
            },
            error)) {
        return nullptr;
    }
    facts->indexTasks();
    facts->decideUndecided();
    if (reader->lostEvents() > 0 && facts->undecided_.empty()) {
        facts->undecided_ = "its recording lost " + std::to_string(reader->lostEvents()) +
                            " events, so what the run did is not fully known";
    }
    return facts;
}

void RunFacts::indexTasks() {
    for (std::uint64_t i = 0; i < run_->eventCount(); ++i) {
        const Event& e = run_->event(i);
        if (e.kind == EventKind::TaskSent && e.count2 > 0) {
            const std::string id(e.messageId.view());
            taskByMessage_[id] = static_cast<int>(e.count2);
            messageByTask_[static_cast<int>(e.count2)] = id;
        }
    }
}

void RunFacts::decideUndecided() {
    const auto& warnings = result_.warnings;
    if (std::find(warnings.begin(), warnings.end(), "stopped early on request") != warnings.end()) {
        undecided_ = "the run was stopped early, after " +
                     formatNumber(std::round(result_.elapsedSeconds * 100) / 100) + " s";
    } else if (result_.timedOut) {
        undecided_ = "the run hit its time bound (" + formatNumber(scenario_.timeoutSeconds) +
                     " s) before every task was settled";
    } else if (result_.eventsDropped > 0) {
        undecided_ = "the run dropped " + std::to_string(result_.eventsDropped) +
                     " events, so what it did is not fully known";
    }
}

int RunFacts::taskNumber(std::string_view messageId) const {
    const auto it = taskByMessage_.find(messageId);
    return it == taskByMessage_.end() ? 0 : it->second;
}

const MessageRecord* RunFacts::task(int number) const {
    const auto it = messageByTask_.find(number);
    return it == messageByTask_.end() ? nullptr : ledger().message(it->second);
}

std::vector<const MessageRecord*> RunFacts::tasks() const {
    std::vector<const MessageRecord*> out;
    for (const auto& [number, id] : messageByTask_) {
        if (const MessageRecord* m = ledger().message(id)) {
            out.push_back(m);
        }
    }
    return out;
}

std::string RunFacts::at(std::int64_t timeNs) const {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f s", static_cast<double>(timeNs - originNs_) / 1e9);
    return text;
}

std::vector<std::uint32_t> RunFacts::trailOf(const std::vector<int>& taskNumbers) const {
    std::set<std::uint32_t> events;
    for (int n : taskNumbers) {
        const auto it = messageByTask_.find(n);
        if (it == messageByTask_.end()) {
            continue;
        }
        if (const auto index = run_->messageIndex(it->second)) {
            for (std::uint32_t e : run_->messageEvents(*index)) {
                events.insert(e);
            }
        }
    }
    return {events.begin(), events.end()};
}

std::vector<std::uint32_t> RunFacts::pollsOf(const std::vector<std::string>& workerNames) const {
    std::vector<std::uint32_t> events;
    for (std::uint64_t i = 0; i < run_->eventCount(); ++i) {
        const Event& e = run_->event(i);
        if ((e.kind == EventKind::PollStarted || e.kind == EventKind::PollReturned) &&
            std::find(workerNames.begin(), workerNames.end(), e.actor.view()) !=
                workerNames.end()) {
            events.push_back(static_cast<std::uint32_t>(i));
        }
    }
    return events;
}

std::vector<std::uint32_t> RunFacts::evidenceOf(const Measure& m) const {
    if (std::vector<int> tasks = tasksBehind(m); !tasks.empty()) {
        return trailOf(tasks);
    }
    std::vector<std::string> names;
    if (!m.worker.empty()) {
        names.push_back(m.worker);
    } else if (m.name == "workersWithTasks" || m.name == "workersWithoutTasks" ||
               m.name == "polls" || m.name == "emptyPolls") {
        const bool with = m.name == "workersWithTasks";
        const bool all = m.name == "polls" || m.name == "emptyPolls";
        for (const WorkerStats& w : workers()) {
            if (all || (w.received > 0) == with) {
                names.push_back(w.worker);
            }
        }
    }
    return names.empty() ? std::vector<std::uint32_t>{} : pollsOf(names);
}

std::vector<int> RunFacts::tasksWhere(const std::function<bool(const MessageRecord&)>& keep) const {
    std::vector<int> out;
    for (const MessageRecord* m : tasks()) {
        if (keep(*m)) {
            out.push_back(taskNumber(m->messageId));
        }
    }
    return out;
}

std::vector<int> RunFacts::tasksHandedTo(const std::string& worker, bool ackedOnly) const {
    return tasksWhere([&](const MessageRecord& m) {
        return std::any_of(m.deliveries.begin(), m.deliveries.end(), [&](const DeliveryRecord& d) {
            return d.worker == worker && (!ackedOnly || d.outcome == DeliveryOutcome::Acked);
        });
    });
}

MeasureValue RunFacts::measure(const Measure& m) const {
    return m.worker.empty() ? runMeasure(m.name) : workerMeasure(m.worker, m.name);
}

MeasureValue RunFacts::runMeasure(const std::string& name) const {
    if (needsBrokerEvents(name) && !brokerReported()) {
        return {std::nullopt, "the server at " + result_.address +
                                  " does not report expiries to its clients (only the embedded "
                                  "broker's own events show them)"};
    }
    const LedgerSummary s = ledger().summary();
    auto count = [&](MessageState state) { return static_cast<double>(s.count(state)); };
    auto tasksCount = [&](const std::function<bool(const MessageRecord&)>& keep) {
        return static_cast<double>(tasksWhere(keep).size());
    };
    auto workerSum = [&](std::string_view counterName) {
        double sum = 0;
        for (const WorkerStats& w : workers()) {
            sum += static_cast<double>(counter(w, counterName));
        }
        return sum;
    };
    auto workersWith = [&](bool some) {
        double n = 0;
        for (const WorkerStats& w : workers()) {
            n += (w.received > 0) == some ? 1 : 0;
        }
        return n;
    };
    if (name == "sent")
        return {static_cast<double>(s.sent), {}};
    if (name == "acked")
        return {count(MessageState::Acked), {}};
    if (name == "deadLettered")
        return {count(MessageState::DeadLettered), {}};
    if (name == "dropped")
        return {count(MessageState::Dropped), {}};
    if (name == "expired")
        return {count(MessageState::Expired), {}};
    if (name == "purged")
        return {count(MessageState::Purged), {}};
    if (name == "unfinished") {
        return {count(MessageState::Waiting) + count(MessageState::Delayed) +
                    count(MessageState::InFlight),
                {}};
    }
    if (name == "lost")
        return {static_cast<double>(result_.tasksLost), {}};
    if (name == "exactlyOnce")
        return {static_cast<double>(s.exactlyOnce), {}};
    if (name == "redelivered")
        return {static_cast<double>(s.redelivered), {}};
    if (name == "redeliveries")
        return {static_cast<double>(s.redeliveries), {}};
    if (name == "deliveries")
        return {static_cast<double>(s.deliveries), {}};
    if (name == "acksLost")
        return {static_cast<double>(s.acksLost), {}};
    if (name == "redriven")
        return {static_cast<double>(s.redriven), {}};
    if (name == "processedMoreThanOnce")
        return {static_cast<double>(s.processedMoreThanOnce), {}};
    if (name == "ackedUnprocessed") {
        return {tasksCount([](const MessageRecord& m) {
                    return m.state == MessageState::Acked && m.processedCount == 0;
                }),
                {}};
    }
    if (name == "expiredUnread") {
        return {tasksCount([](const MessageRecord& m) {
                    return m.state == MessageState::Expired && m.deliveryCount == 0;
                }),
                {}};
    }
    if (name == "polls" || name == "emptyPolls" || name == "crashes") {
        return {workerSum(name), {}};
    }
    if (name == "movedElsewhere")
        return {static_cast<double>(result_.tasksMoved), {}};
    if (name == "slowestHandOutSeconds") {
        const auto slowest = slowestHandOut();
        if (!slowest) {
            return {std::nullopt, "no task was handed out"};
        }
        return {static_cast<double>(slowest->second) / 1e9, {}};
    }
    if (name == "workersWithTasks")
        return {workersWith(true), {}};
    if (name == "workersWithoutTasks")
        return {workersWith(false), {}};
    return {std::nullopt, "'" + name + "' is not a measure"};
}

MeasureValue RunFacts::workerMeasure(const std::string& worker, const std::string& name) const {
    const auto stats = ledger().worker(worker);
    if (!stats) {
        return {std::nullopt, worker + " never took part in the run"};
    }
    return {static_cast<double>(counter(*stats, name)), {}};
}

namespace {

// When the worker had the task in hand: the broker reserves a task for a
// waiting poll as it arrives (assignedNs, from its own events) but the poll
// answers only when its batch is full or its wait is over.
std::int64_t reachedWorker(const DeliveryRecord& d) {
    return d.workStartNs != 0 ? d.workStartNs : d.assignedNs;
}

}  // namespace

std::optional<std::pair<int, std::int64_t>> RunFacts::slowestHandOut() const {
    std::optional<std::pair<int, std::int64_t>> slowest;
    for (const MessageRecord* m : tasks()) {
        if (m->deliveries.empty() || m->sentNs == 0) {
            continue;
        }
        const std::int64_t reached = reachedWorker(m->deliveries.front());
        if (reached == 0) {
            continue;
        }
        const std::int64_t wait = reached - m->sentNs;
        if (!slowest || wait > slowest->second) {
            slowest = std::make_pair(taskNumber(m->messageId), wait);
        }
    }
    return slowest;
}

std::uint64_t RunFacts::pollsStarted(const std::string& worker) const {
    std::uint64_t started = 0;
    for (std::uint64_t i = 0; i < run_->eventCount(); ++i) {
        const Event& e = run_->event(i);
        started += e.kind == EventKind::PollStarted && e.actor.view() == worker ? 1 : 0;
    }
    return started;
}

std::vector<int> RunFacts::tasksBehind(const Measure& m) const {
    if (!m.worker.empty()) {
        if (m.name == "received" || m.name == "acked") {
            return tasksHandedTo(m.worker, m.name == "acked");
        }
        return {};
    }
    if (const TaskMeasure* t = taskMeasure(m.name)) {
        return tasksWhere([&](const MessageRecord& r) { return t->holds(r, scenario_.channel); });
    }
    if (m.name == "slowestHandOutSeconds") {
        if (const auto slowest = slowestHandOut()) {
            return {slowest->first};
        }
    }
    return {};
}

std::string RunFacts::describe(const Measure& m) const {
    const MeasureValue v = measure(m);
    if (!v.value) {
        return v.why;
    }
    const auto n = static_cast<std::uint64_t>(*v.value);
    if (!m.worker.empty()) {
        const WorkerStats w = *ledger().worker(m.worker);
        if (m.name == "received" || m.name == "acked") {
            const std::vector<int> list = tasksHandedTo(m.worker, m.name == "acked");
            std::string text = m.worker + (m.name == "acked" ? " acked " : " received ");
            if (n == 0 && w.polls == 0) {
                return text + "no task: " +
                       (pollsStarted(m.worker) > 0
                            ? "its poll was still waiting when the run ended at " +
                                  at(run_->streamTimeNs(run_->eventCount() - 1))
                            : std::string("it never polled"));
            }
            if (n == 0) {
                return text + "no task in " + plural(w.polls, "poll", "polls") + " (" +
                       std::to_string(w.emptyPolls) + " empty)";
            }
            return text + plural(n, "task", "tasks") + " (" + taskList(list) + ") in " +
                   plural(w.polls, "poll", "polls");
        }
        if (m.name == "emptyPolls" || m.name == "polls") {
            return m.worker + " polled " + plural(w.polls, "time", "times") + "; " +
                   std::to_string(w.emptyPolls) + " of those polls came back empty";
        }
        static const std::map<std::string_view, std::pair<std::string_view, std::string_view>>
            phrases = {{"redelivered", {"received ", " that had been handed out before"}},
                       {"rejected", {"rejected ", ""}},
                       {"requeued", {"re-queued ", " to another channel"}},
                       {"returned", {"had ", " go back unsettled"}},
                       {"acksLost", {"sent acks for ", " that did not take effect"}},
                       {"visibilityExpired",
                        {"had ", " taken back when its visibility timeout ran out"}},
                       {"processed", {"processed ", ""}}};
        if (const auto it = phrases.find(m.name); it != phrases.end()) {
            return m.worker + " " + std::string(it->second.first) + plural(n, "task", "tasks") +
                   std::string(it->second.second);
        }
        if (m.name == "crashes") {
            return m.worker +
                   (n == 0 ? " never crashed" : " crashed " + plural(n, "time", "times"));
        }
        return m.worker + " " + m.name + ": " + std::to_string(n);
    }
    if (m.name == "emptyPolls" || m.name == "polls") {
        std::string per;
        for (const WorkerStats& w : workers()) {
            per += (per.empty() ? "" : ", ") + w.worker + " " +
                   std::to_string(m.name == "polls" ? w.polls : w.emptyPolls);
        }
        return std::string(m.name == "polls" ? "the workers polled " : "polls came back empty ") +
               plural(n, "time", "times") + (per.empty() ? "" : " (" + per + ")");
    }
    if (const TaskMeasure* t = taskMeasure(m.name)) {
        const std::vector<int> list = tasksBehind(m);
        return plural(n, "task", "tasks") + " " + std::string(t->what) +
               (list.empty() ? std::string() : " (" + taskList(list) + ")");
    }
    if (m.name == "slowestHandOutSeconds") {
        const auto slowest = slowestHandOut();
        const MessageRecord* t = task(slowest->first);
        const DeliveryRecord& d = t->deliveries.front();
        std::string text = "the slowest task took " +
                           formatNumber(std::round(*v.value * 100) / 100) +
                           " s from its send to a worker's hands: task #" +
                           std::to_string(slowest->first) + " was sent at " + at(t->sentNs);
        if (reachedWorker(d) != d.assignedNs && d.assignedNs != 0) {
            text += ", reserved for " + d.worker.str() + "'s waiting poll at " + at(d.assignedNs);
        }
        return text + " and reached " + d.worker.str() + " at " + at(reachedWorker(d));
    }
    if (m.name == "workersWithTasks" || m.name == "workersWithoutTasks") {
        std::string per;
        for (const WorkerStats& w : workers()) {
            per += (per.empty() ? "" : ", ") + w.worker + " " + std::to_string(w.received);
        }
        return plural(n, "worker", "workers") +
               (m.name == "workersWithTasks" ? " received tasks" : " received none") +
               " (tasks received: " + per + ")";
    }
    if (m.name == "acksLost") {
        std::string per;
        for (const WorkerStats& w : workers()) {
            if (w.acksLost > 0) {
                per += (per.empty() ? "" : ", ") + w.worker + " " + std::to_string(w.acksLost);
            }
        }
        return plural(n, "ack", "acks") + " did not take effect: the broker handed the task " +
               "out again or put it back" + (per.empty() ? "" : " (" + per + ")");
    }
    return m.name + " = " + formatNumber(*v.value);
}

}  // namespace qs::lessons
