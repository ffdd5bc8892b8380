#pragma once

#include <QString>
#include <cstdint>
#include <optional>
#include <vector>

#include "events/event.h"
#include "run/run_state.h"
#include "models/message_key.h"

namespace qs {
class Run;
}

// What the console shows of one task (one message identity), read from the
// core Run and nothing else: the console keeps no state of its own about
// messages. Plain values, made on demand for the rows and the panes in view.
namespace qs::ui {

// The core state (qs::MessageState), with "waiting" split by why it waits
// again: the console's words for it. Derived, never tracked.
enum class TaskState : int {
    Waiting,   // sent, in the queue, never handed back
    Delayed,   // held back by the broker until its delay ends
    InFlight,  // handed to a worker, not settled
    Acked,
    Rejected,  // NAcked: waiting again at the tail with receive count + 1
    Returned,  // its worker crashed / disconnected: waiting again, unchanged
    Requeued,  // moved to another channel
    DeadLettered,
    Dropped,  // over MaxReceiveCount with no dead-letter channel
    Expired,
    SendFailed,
    Purged,  // removed by a purge of its channel (AckAllQueueMessages)
    Count
};

QString taskStateName(TaskState state);

struct TaskView {
    std::uint32_t index = 0;  // the message's index in the Run (first seen first)
    int task = 0;             // index + 1: the one number the console calls it by
    QString key;              // messageKey(first channel, id)
    QString messageId;
    QString channel;  // where it (its latest copy) lives now
    TaskState state = TaskState::Waiting;
    QString worker;  // current or last worker
    std::int32_t receiveCount = 0;
    std::uint32_t deliveries = 0;
    std::uint64_t sequence = 0;  // latest stored sequence; 0 = unknown
    std::int64_t sentNs = 0;     // 0 = not seen
    std::int64_t lastAssignedNs = 0;
    std::int64_t settledNs = 0;     // when it ended for good; 0 = not (yet)
    QString deadLetterChannel;      // for DeadLettered
    bool detailsForgotten = false;  // the head ledger dropped its details (old, finished)

    std::int64_t latencyNs() const {
        return (sentNs > 0 && settledNs > 0) ? settledNs - sentNs : -1;
    }
};

// The task at `index` of `run` as it is now (the run's head).
TaskView taskViewAt(const Run& run, std::uint32_t index);
// The task at `index` as it was at stream time `atNs`: `at` is its state then
// (RunState::messages[index]); times and outcomes later than atNs are left out.
TaskView taskViewAt(const Run& run, std::uint32_t index, const MessageAt& at, std::int64_t atNs);
// The key of the task at `index` (messageKey of the channel it was first seen in).
QString taskKey(const Run& run, std::uint32_t index);
// The run's index of the task a key (messageKey) names; nullopt = not in the run.
std::optional<std::uint32_t> taskIndexOfKey(const Run& run, const QString& key);

// The State column's text: the state, and for a dead-lettered task where it went.
QString describeState(const TaskView& task);
// One line of a task's history for an event of its trail (Run::messageEvents).
QString describeHistoryEvent(const Event& event);

}  // namespace qs::ui
