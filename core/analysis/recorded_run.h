#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/journey.h"
#include "events/ledger.h"
#include "recording/setting_value.h"
#include "run/run.h"
#include "runner/run_recording.h"

// A recorded run (*.qsrun) opened for analysis: the summary's numbers exactly
// as `queuescope summary` prints them (runner::replayRecording, one pass), and
// beside them, fed the same events in the same pass, a qs::Run whose head
// ledger keeps every delivery of every message, the tasks' numbers and bodies,
// the queue depth per channel over time and the workers' crashes. The trace,
// the comparison and the report are built from this and nothing else.
namespace qs::analysis {

// What the producer said of a task when it sent it (TaskSent): its number
// (1-based, per send) and the first bytes of its body.
struct TaskLabel {
    std::int64_t number = 0;
    std::string body;
};

// One channel's messages by state, from one instant on (Run::channelsNow()).
struct DepthSample {
    std::int64_t timeNs = 0;  // recording time (since the recording's origin)
    std::uint64_t waiting = 0;
    std::uint64_t delayed = 0;
    std::uint64_t inFlight = 0;
    std::uint64_t deadLettered = 0;  // ended here: this is their dead-letter queue
    bool operator==(const DepthSample&) const = default;
};

struct ChannelDepth {
    std::string channel;
    std::vector<DepthSample> samples;  // one per instant its counts changed, oldest first
};

// A worker's crash (WorkerCrashed), in recording time.
struct WorkerCrash {
    std::string worker;
    std::int64_t timeNs = 0;
    std::int64_t unsettled = 0;  // what the worker said it held
};

// One poll of a worker, as the worker saw it (PollStarted, PollReturned):
// the same on the embedded broker and on a server that reports nothing.
struct PollRecord {
    std::int64_t requested = 0;  // batch size asked for
    std::int64_t waitMs = 0;     // wait timeout asked for
    std::int64_t received = 0;
    std::int64_t waitedMs = 0;  // from the request to the answer
};

// Threading: none; build and read it on one thread. Memory: that of a Run of
// the recording's events (about 220 bytes per event, docs/run.md) plus the
// ledger's full histories.
class RecordedRun {
public:
    // Null with *error ("PATH: why") for a file that is not a readable
    // recording; never throws for a bad file (allocation failure aside).
    static std::unique_ptr<RecordedRun> load(const std::string& path, std::string* error);

    const std::string& path() const { return path_; }
    // The summary's numbers (totals, per-worker rows, outcome): one truth
    // with `queuescope run` and `queuescope summary`.
    const runner::ReplayedRun& summary() const { return replay_; }
    const runner::Scenario& scenario() const { return replay_.scenario; }

    const std::map<std::string, recording::SettingValue>& settings() const { return settings_; }
    // Any setting as text ("" = not recorded).
    std::string setting(const std::string& key) const;

    // Times are recording times: nanoseconds since the recording's origin.
    std::int64_t endNs() const { return endNs_; }        // the last event's (0 = no event)
    std::int64_t originNs() const { return originNs_; }  // monotonic, as Event::timeNs
    // The journey of a message (journeyOf) with the open hand-outs closed at the run's end.
    std::vector<JourneyStep> journey(const MessageRecord& message) const;

    // Every message and every delivery of the run (nothing forgotten).
    const Ledger& ledger() const { return run_->ledger(); }
    const Run& run() const { return *run_; }
    // Messages in the order they were sent (first seen, for those never sent
    // by the producer), by message id then.
    const std::vector<const MessageRecord*>& messages() const { return messages_; }
    const TaskLabel* label(std::string_view messageId) const;
    // "Task #3" style: the body when the producer sent it, else the message id.
    std::string taskName(const MessageRecord& message) const;

    const std::vector<ChannelDepth>& depth() const { return depth_; }
    const std::vector<WorkerCrash>& crashes() const { return crashes_; }
    // The poll of `worker` answered with `transaction` (null when not recorded).
    const PollRecord* poll(std::string_view worker, std::string_view transaction) const;
    // Recording time of a monotonic event time.
    std::int64_t sinceOrigin(std::int64_t eventNs) const {
        return eventNs == 0 ? 0 : eventNs - originNs_;
    }

private:
    RecordedRun() = default;
    void see(const Event& event);
    void sampleDepth(std::int64_t timeNs);
    void finish();

    std::string path_;
    runner::ReplayedRun replay_;
    std::map<std::string, recording::SettingValue> settings_;
    std::int64_t originNs_ = 0;
    std::int64_t endNs_ = 0;
    std::unique_ptr<Run> run_;
    std::unordered_map<std::string, TaskLabel> labels_;
    std::vector<const MessageRecord*> messages_;
    std::vector<ChannelDepth> depth_;
    std::vector<WorkerCrash> crashes_;
    std::unordered_map<std::string, PollRecord> pollStarted_;  // by worker: its open poll
    std::unordered_map<std::string, PollRecord> polls_;        // by worker '\n' transaction
};

}  // namespace qs::analysis
