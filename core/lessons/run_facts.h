#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lessons/lesson.h"
#include "run/run.h"
#include "runner/scenario.h"
#include "runner/scenario_runner.h"

// What one step's run left behind, for its checks and its prediction: the
// qs::Run rebuilt from the run's recording (its events in stream order and
// the head Ledger, the one truth about messages and workers), the runner's
// result (how the run ended), and the lookups every check needs: a task's
// number by MessageID, times from the run's start, worker names.
//
// Threading: not thread-safe; built and read on one thread.
namespace qs::lessons {

// A number the run decided, or why it cannot say.
struct MeasureValue {
    std::optional<double> value;  // empty = undecided
    std::string why;              // when undecided
};

class RunFacts {
public:
    // Replays the recording at `path` (written by the run that gave `result`)
    // into a Run. False with *error when the recording cannot be read.
    // `maxEvents` > 0 reads only the recording's first maxEvents events: the
    // console's recording goes on after a lesson's run has ended (its workers
    // keep polling), and the run is what it held at that end.
    static std::unique_ptr<RunFacts> fromRecording(const std::string& path,
                                                   const runner::Scenario& scenario,
                                                   runner::RunResult result, std::string* error,
                                                   std::uint64_t maxEvents = 0);

    const qs::Run& run() const { return *run_; }
    const Ledger& ledger() const { return run_->ledger(); }
    const runner::RunResult& result() const { return result_; }
    const runner::Scenario& scenario() const { return scenario_; }

    // Why no check of this run can be decided ("" = they can): it was stopped
    // early, did not drain before its time bound, or lost events.
    const std::string& undecidedReason() const { return undecided_; }
    // The broker's own events (expiry, dead-letter channel, delay release)
    // reached the run: true on the embedded broker only.
    bool brokerReported() const { return result_.embeddedBroker; }

    // Task number (1-based, as the producer numbered it) of a MessageID; 0 = not a task.
    int taskNumber(std::string_view messageId) const;
    const MessageRecord* task(int number) const;  // nullptr = never sent / unknown
    // Every task's record, by task number.
    std::vector<const MessageRecord*> tasks() const;
    // The workers the ledger kept statistics for, by name.
    std::vector<WorkerStats> workers() const { return ledger().workers(); }

    // Seconds from the run's start, "1.25 s".
    std::string at(std::int64_t timeNs) const;
    // Every event that touched these tasks (indices into run()), oldest first.
    std::vector<std::uint32_t> trailOf(const std::vector<int>& taskNumbers) const;
    // The polls of these workers (PollStarted / PollReturned events, indices
    // into run()), oldest first: the evidence of a count of polls or of tasks
    // a worker did (not) get.
    std::vector<std::uint32_t> pollsOf(const std::vector<std::string>& workerNames) const;
    // The evidence behind a measure: the trail of its tasks, else the polls of
    // the workers it counts.
    std::vector<std::uint32_t> evidenceOf(const Measure& m) const;

    MeasureValue measure(const Measure& m) const;
    // The tasks a measure counts (task numbers; empty for measures of polls,
    // crashes or workers): the evidence behind it.
    std::vector<int> tasksBehind(const Measure& m) const;
    // "worker-2 received 5 tasks (#1-#5)": a measure in a sentence, with the
    // tasks or times behind it where the run has them.
    std::string describe(const Measure& m) const;

private:
    RunFacts() = default;
    void indexTasks();
    void decideUndecided();
    MeasureValue runMeasure(const std::string& name) const;
    MeasureValue workerMeasure(const std::string& worker, const std::string& counter) const;
    std::vector<int> tasksWhere(const std::function<bool(const MessageRecord&)>& keep) const;
    // (task, ns) of the task that waited longest from its send to its first hand-out.
    std::optional<std::pair<int, std::int64_t>> slowestHandOut() const;
    std::uint64_t pollsStarted(const std::string& worker) const;
    std::vector<int> tasksHandedTo(const std::string& worker, bool ackedOnly) const;

    runner::Scenario scenario_;
    runner::RunResult result_;
    std::unique_ptr<qs::Run> run_;
    std::int64_t originNs_ = 0;
    std::map<std::string, int, std::less<>> taskByMessage_;
    std::map<int, std::string> messageByTask_;
    std::string undecided_;
};

// The names a Measure may use: run-wide and per worker (docs/lessons.md).
const std::vector<std::string_view>& runMeasureNames();
const std::vector<std::string_view>& workerCounterNames();
bool isRunMeasure(std::string_view name);
bool isWorkerCounter(std::string_view name);
// Run-wide measures only the broker's own events can give (embedded broker).
bool needsBrokerEvents(std::string_view name);

// "#1-#5, #8": task numbers, sorted, runs joined.
std::string taskList(std::vector<int> numbers);

}  // namespace qs::lessons
