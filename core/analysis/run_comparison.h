#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/recorded_run.h"

// Two recorded runs side by side, each difference judged against what the
// work-queue semantics allow between two runs of the same work:
// - allowed: which worker got a task, so each worker's share, polls and empty
//   polls; timing (elapsed time, latencies); which tasks a crashed worker
//   happened to hold, as long as as many were redelivered;
// - allowed too, where the recorded scenario leaves it to chance
//   (scenario_chance.h): the counts random failure or crash draws, a pause
//   ending a poll in progress, or tasks arriving over time drive; the row
//   says why;
// - not allowed: a different number of tasks, or of tasks acked,
//   dead-lettered, dropped, expired, lost; different amounts of rejection,
//   redelivery, return, crash; a task that ended differently (acked in one,
//   dead-lettered or lost in the other) or is in one run only; hand-outs
//   reaching their workers in another timing class (handout_timing.h: a
//   redelivery that came at once in one run and only after the wait timeout
//   in the other).
//
// "The same task" in two runs: message ids are new in every run and the
// producer's order is not kept by the queue, so a task is known by what the
// producer sent: its task number and its body (TaskSent), and for a task sent
// several times with both equal, which of those sends it was (first, second...
// by send time). Messages the producer did not send are known by message id.
namespace qs::analysis {

enum class Verdict : std::uint8_t {
    Same,
    Allowed,  // differs as the semantics allow
    Differs,  // differs where the semantics do not allow it
    Note,     // a setting: shown, never judged
};
std::string_view verdictName(Verdict verdict);

struct ComparedValue {
    std::string name;
    std::string a;
    std::string b;
    Verdict verdict = Verdict::Same;
    std::string why;  // for an allowed difference the scenario's chance explains
};

// A task found in both runs (or one) that ended differently or was handed
// out a different number of times.
struct TaskDifference {
    std::string task;  // its body (or "task N", or "message ID")
    std::string a;     // "acked after 2 hand-outs (worker-1, worker-3)"; "-" = not in the run
    std::string b;
    Verdict verdict = Verdict::Differs;
    std::string why;
};

struct RunComparison {
    std::vector<ComparedValue> settings;   // those that differ only (Note)
    std::vector<ComparedValue> totals;     // each run-level count, judged
    std::vector<ComparedValue> latencies;  // Allowed or Same
    std::vector<ComparedValue> workers;    // per worker: share of hand-outs, received, acked...
    std::vector<ComparedValue> timing;     // hand-outs per timing class (handout_timing.h)
    std::vector<TaskDifference> tasks;     // sorted: not allowed first, then by task
    // Plain sentences about what a run shows that no rule judges, e.g. a
    // server that put the same message twice into one Get's answer.
    std::vector<std::string> notes;
    std::size_t tasksMatched = 0;          // in both runs
    std::size_t tasksOnOtherWorkers = 0;   // ended alike, on another worker (allowed)

    // True when a difference is one the semantics do not allow.
    bool differs() const;
    // Judged rows and task differences with this verdict (settings are not judged).
    std::size_t count(Verdict verdict) const;
};

RunComparison compareRuns(const RecordedRun& a, const RecordedRun& b);

// The comparison as plain text tables, headed by the two files' names.
// At most `maxTasks` task differences are listed (the rest are counted).
std::string formatComparison(const RunComparison& comparison, const std::string& nameA,
                             const std::string& nameB, std::size_t maxTasks = 50);

// The comparison as a JSON object (text): every row with its verdict, the
// task differences, the counts, and "differs".
std::string comparisonJson(const RunComparison& comparison);

}  // namespace qs::analysis
