#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/queue_message.h"
#include "workers/task_producer.h"
#include "workers/worker_config.h"

// A scenario: what the headless runner (and the GUI's scenario loader) does
// against a broker — which tasks are sent, which workers consume them, what
// happens to the pool along a timeline, and when the run ends. Plain values;
// the JSON form is described in docs/workers.md.
namespace qs::runner {

struct TaskPlan {
    int count = 10;
    std::string body = "Task #{n}";  // {n} = task number, {total} = count
    std::string metadata;            // same placeholders
    std::map<std::string, std::string> tags;
    client::MessagePolicy policy;
    double rate = 0.0;        // tasks per second; 0 = all at once
    std::vector<int> poison;  // task numbers (1-based) sent as poison tasks
    double startAt = 0.0;     // seconds after the run starts
};

// Workers sharing one configuration. Workers are named worker-1, worker-2, ...
// across all groups, in group order.
struct WorkerGroup {
    int count = 1;
    double startAt = 0.0;  // seconds after the run starts
    workers::WorkerConfig config;
};

// Fields a "set" action changes; unset fields are left alone.
struct ConfigPatch {
    std::optional<int> batchSize;
    std::optional<int> waitMs;
    std::optional<bool> autoAck;
    std::optional<workers::WorkProfile> work;
    std::optional<double> failureRate;
    std::optional<workers::FailureAction> onFailure;
    std::optional<std::string> requeueChannel;
    std::optional<double> crashRate;
    std::optional<workers::SettleMode> settle;
    std::optional<int> maxPolls;
    std::optional<int> restartDelayMs;
    std::optional<workers::ConsumeMode> consume;
    std::optional<int> visibilitySeconds;

    bool empty() const;
    workers::ConfigFields fields() const;  // the fields this patch sets
    void applyTo(workers::WorkerConfig& config) const;
    // "batch=1 failureRate=0.2", in the format of workers::describeChanges().
    std::string describe() const;
};

enum class ActionKind {
    Crash,     // worker: drop its connection mid-batch without settling
    Restart,   // worker: reconnect a crashed / stopped worker
    Pause,     // worker or all
    Resume,    // worker or all
    Slowdown,  // worker or all: multiply work durations by factor
    Set,       // worker or all: apply a ConfigPatch
    Scale,     // pool: grow or shrink to `count` workers
    Stop,      // worker: stop it (closes its connection; unsettled messages go back)
    Redrive,   // channel: move its messages back (runner/redrive.h), e.g. a dead-letter queue
};

std::string_view toString(ActionKind kind);
bool parseActionKind(std::string_view text, ActionKind* out);

struct TimelineAction {
    double at = 0.0;  // seconds after the run starts
    ActionKind kind = ActionKind::Pause;
    std::string worker;   // client id; empty = every worker (where that makes sense)
    double factor = 1.0;  // Slowdown
    int count = 0;        // Scale
    ConfigPatch patch;    // Set
    // Redrive: the channel to move messages out of, where to ("" = each back
    // where it came from, its ReRoutedFromQueue) and the copies' max receive
    // count (none = the message's own; KubeMQ zeroes it on a dead-lettered copy).
    std::string from;
    std::string to;
    std::optional<int> maxReceiveCount;

    // True for the actions that bring tasks back to be worked on: a run that
    // drained before it reaches one waits for it.
    bool bringsTasksBack() const { return kind == ActionKind::Redrive; }
    std::string describe() const;
};

struct Scenario {
    std::string name;
    std::string description;
    std::string channel = "tasks";
    bool createChannel = false;  // create the channel (channel management) before sending
    bool deleteChannel = false;  // delete the channel at the end of the run
    TaskPlan tasks;
    std::vector<WorkerGroup> workers;
    std::vector<TimelineAction> timeline;  // sorted by `at`
    // End of the run: with untilDrained, as soon as every task is settled for
    // good (acked, dead-lettered, dropped or expired) but at most
    // timeoutSeconds; otherwise after exactly runForSeconds.
    bool untilDrained = true;
    double runForSeconds = 0.0;
    double timeoutSeconds = 60.0;

    int totalWorkers() const;
    // The configuration group `group`'s workers get as their own: none for the
    // first group (its settings are the pool's shared configuration, so a
    // pool-wide "set" before a later group starts reaches that group too) nor
    // for a group with the first group's settings. The headless runner and the
    // console's scenario player both start their groups with this.
    std::optional<workers::WorkerConfig> groupOverride(std::size_t group) const;
    // What the producer sends: the task plan on the scenario's channel. The headless
    // runner and the console's scenario player both start their producer from this.
    workers::TaskSpec taskSpec() const;
    // Empty when the scenario can run; otherwise every problem found, one per
    // line, each naming the field.
    std::string validate() const;
};

}  // namespace qs::runner
