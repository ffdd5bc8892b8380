#pragma once

// Recordings written event by event (the real writer, hand-built events), for
// the suites that need runs built to differ in one known way, or a recording
// large enough that reading it takes a while.
#include <QString>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "events/event.h"
#include "recording/recording_writer.h"
#include "runner/run_recording.h"

namespace qs::test {

// One task of a hand-built run: "Task #number", sent, handed to `worker`
// and acked, or (acked false) left in flight: lost when the run ends.
struct PlannedTask {
    int number = 0;
    std::string worker;
    bool acked = true;
};

// A manual console run on channel "tasks" doing `tasks` in order, 10 ms apart
// (send, hand-out 2 ms later, ack 5 ms after that). Message ids carry `tag`,
// as every run has ids of its own. False with *error when it cannot be written.
inline bool writePlannedRun(const QString& path, const std::vector<PlannedTask>& tasks,
                            const std::string& tag, std::string* error) {
    constexpr std::int64_t kOrigin = 1'000'000'000;
    auto writer = recording::RecordingWriter::create(path.toStdString(), kOrigin, {}, error);
    if (!writer) {
        return false;
    }
    runner::ConsoleRunSettings settings;
    runner::recordConsoleRunSettings(*writer, settings);
    std::vector<Event> batch;
    std::uint64_t sequence = 0;
    for (const PlannedTask& task : tasks) {
        const std::int64_t t = kOrigin + 10'000'000LL * task.number;
        Event sent;
        sent.timeNs = t;
        sent.kind = EventKind::TaskSent;
        sent.source = EventSource::Producer;
        sent.actor = "producer";
        sent.channel = "tasks";
        sent.messageId = tag + "-" + std::to_string(task.number);
        sent.count2 = task.number;
        sent.detail = "Task #" + std::to_string(task.number);
        batch.push_back(sent);
        Event assigned = sent;
        assigned.timeNs = t + 2'000'000;
        assigned.kind = EventKind::MessageAssigned;
        assigned.source = EventSource::Worker;
        assigned.actor = task.worker;
        assigned.sequence = ++sequence;
        assigned.receiveCount = 1;
        assigned.count2 = 0;
        assigned.detail = {};
        assigned.transaction = tag + "-tx-" + std::to_string(task.number);
        batch.push_back(assigned);
        if (task.acked) {
            Event acked = assigned;
            acked.timeNs = t + 7'000'000;
            acked.kind = EventKind::Acked;
            batch.push_back(acked);
        }
        if (batch.size() >= 30000) {
            writer->append(batch);
        }
    }
    writer->append(batch);
    return writer->close(error);
}

// Tasks 1..count shared round-robin among `workers` workers, all acked.
inline std::vector<PlannedTask> roundRobin(int count, int workers) {
    std::vector<PlannedTask> tasks;
    for (int n = 1; n <= count; ++n) {
        tasks.push_back({n, "worker-" + std::to_string((n - 1) % workers + 1), true});
    }
    return tasks;
}

}  // namespace qs::test
