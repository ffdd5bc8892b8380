#pragma once

#include <bitset>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "events/config_change.h"
#include "workers/setting_limits.h"
#include "workers/work_profile.h"

// The tunable behaviour of one worker. A pool holds one shared WorkerConfig;
// changes reach each worker at its next poll (never mid-batch).
namespace qs::workers {

// What a failed (or poison) message gets.
enum class FailureAction {
    Reject,   // NAck: back at the tail with receive count + 1, dead-letter after the max
    Requeue,  // moved to `requeueChannel`
};

// How a worker settles the messages it processed.
enum class SettleMode {
    Each,   // settle every message right after its work (ack / reject / requeue)
    Batch,  // decide per message, settle the whole batch at its end in at most 3 requests
    Never,  // never settle ("forgot to ack"): messages return when the connection closes
    // As the official Python SDK's async_ack(): an ack is queued and written
    // when the program next waits (the next message's work, the next poll);
    // a worker that leaves (max polls reached, stop, crash) closes its stream
    // with its last ack still queued, so that ack never leaves the worker.
    Async,
};

// How a worker receives its messages.
enum class ConsumeMode {
    Downstream,  // QueuesDownstream (v2): batches, settled in its transaction
    V1Stream,    // StreamQueueMessage (v1): one message per stream with a visibility timeout;
                 // a late settlement fails and the broker hands the message to another
};

// Ranges and defaults are the records of workers/setting_limits.h.
struct WorkerConfig {
    int batchSize = limits::kBatchSize.defaultValue;  // Get MaxItems
    int waitMs =
        limits::kWaitMs.defaultValue;  // Get WaitTimeout (the broker raises < 1000 to 1000)
    bool autoAck = false;              // the broker acks on hand-out; nothing to settle
    WorkProfile work = WorkProfile::fixed(limits::kWorkMs.defaultValue);
    double failureRate = limits::kFailureRate.defaultValue;  // probability a message fails
    FailureAction onFailure = FailureAction::Reject;
    std::string requeueChannel;                          // destination for FailureAction::Requeue
    double crashRate = limits::kCrashRate.defaultValue;  // per message: the worker crashes mid-work
    SettleMode settle = SettleMode::Each;
    int maxPolls =
        limits::kMaxPolls.defaultValue;  // stop by itself after this many polls; 0 = never
    // After a crash: restart after this delay; < 0 = stay crashed.
    int restartDelayMs = limits::kRestartDelayMs.defaultValue;
    // V1Stream: one message per poll (batchSize is not used), waitMs rounded up
    // to whole seconds, no auto-ack, settle each / batch (the same with one
    // message); never is refused.
    ConsumeMode consume = ConsumeMode::Downstream;
    int visibilitySeconds = limits::kVisibilitySeconds.defaultValue;  // V1Stream only

    // Empty when usable; otherwise a message naming the bad field and its range.
    std::string validate() const;
    bool operator==(const WorkerConfig&) const = default;
};

// The tunable fields of a WorkerConfig are the first eleven run settings and
// the last two (events/config_change.h): one list of names for texts, events
// and panels.
using ConfigField = ConfigSetting;
using ConfigFields = std::bitset<static_cast<std::size_t>(ConfigSetting::Count)>;

// The fields whose values differ between the two.
ConfigFields differingFields(const WorkerConfig& a, const WorkerConfig& b);
// The chosen fields with their values in `config`, in ConfigField order.
std::vector<SettingChange> settingChanges(const WorkerConfig& config, ConfigFields fields);
// The fields that differ, with their new values in `after`.
std::vector<SettingChange> changedSettings(const WorkerConfig& before, const WorkerConfig& after);
// "batch=1 failureRate=0.2": settingChanges() as text (formatSettingChanges);
// empty when none is chosen. The one format of every configuration text (pool
// change markers, scenario "set" actions).
std::string describeFields(const WorkerConfig& config, ConfigFields fields);
// "batch=1 failureRate=0.2": the fields that differ, with their new values;
// empty when equal.
std::string describeChanges(const WorkerConfig& before, const WorkerConfig& after);
// Every field, same format.
std::string describe(const WorkerConfig& config);
// A number as these texts write it (printf "%g": 0.2, 1.5, 1e+06).
std::string formatConfigNumber(double value);

std::string_view toString(FailureAction action);
std::string_view toString(SettleMode mode);
std::string_view toString(ConsumeMode mode);  // "downstream", "v1"
bool parseFailureAction(std::string_view text, FailureAction* out);
bool parseSettleMode(std::string_view text, SettleMode* out);
bool parseConsumeMode(std::string_view text, ConsumeMode* out);

}  // namespace qs::workers
