#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "common/name.h"
#include "events/event.h"
#include "events/ledger.h"

// What a Run knew at one instant: plain values, copied out of the Run, safe to
// keep and to hand to another thread.
namespace qs {

// One message at an instant, as the ledger had it then.
struct MessageAt {
    MessageState state = MessageState::Waiting;
    std::int32_t receiveCount = 0;  // as its latest hand-out showed it; 0 = never handed out
    std::uint32_t deliveries = 0;   // hand-outs so far
    Name worker;   // worker of its latest hand-out: its owner while InFlight; empty = none yet
    Name channel;  // where it (its latest copy) lives

    bool operator==(const MessageAt&) const = default;
};
static_assert(sizeof(MessageAt) == 20);

// A worker's counters, as in WorkerStats (same names, same meaning).
enum class WorkerCounter : std::uint8_t {
    Received,
    Redelivered,
    Acked,
    Rejected,
    Requeued,
    Returned,
    AcksLost,
    Processed,
    Crashes,
    Reconnects,
    Polls,
    EmptyPolls,
    Errors,
    BusyNs,
    PollWaitNs,
};
inline constexpr std::size_t kWorkerCounterCount = 15;
std::string_view workerCounterName(WorkerCounter counter);
using WorkerCounts = std::array<std::int64_t, kWorkerCounterCount>;
WorkerCounts workerCounts(const WorkerStats& stats);

// One worker at an instant (every worker the ledger kept statistics for).
struct WorkerAt {
    Name worker;
    std::optional<EventKind> lifecycle;  // last WorkerStarted / Paused / ...; empty = none seen
    WorkerCounts counts{};
    std::uint32_t holding = 0;  // messages in flight with it at this instant

    std::int64_t count(WorkerCounter counter) const {
        return counts[static_cast<std::size_t>(counter)];
    }
    bool operator==(const WorkerAt&) const = default;
};

// The messages in one channel at an instant, by state.
struct ChannelAt {
    Name channel;
    std::array<std::uint64_t, kMessageStateCount> byState{};

    std::uint64_t count(MessageState state) const {
        return byState[static_cast<std::size_t>(state)];
    }
    bool operator==(const ChannelAt&) const = default;
};

// The state of a run after its first `events` events (see Run::stateAt).
struct RunState {
    std::uint64_t events = 0;  // events applied: the run's first `events`, in stream order
    std::int64_t timeNs = 0;   // stream time of the last of them (Run::streamTimeNs); 0 = none
    // The ledger's summary then. The queue depth split is summary.byState:
    // waiting, delayed and in flight, and the terminal states.
    LedgerSummary summary;
    std::vector<MessageAt> messages;  // message i is Run::messageId(i); first seen first
    std::vector<WorkerAt> workers;    // first seen first
    std::vector<ChannelAt> channels;  // every channel a message lived in then, by name

    std::uint64_t count(MessageState state) const { return summary.count(state); }
    const WorkerAt* worker(std::string_view name) const;
    const ChannelAt* channel(std::string_view name) const;
};

}  // namespace qs
