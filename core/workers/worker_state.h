#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "workers/worker_config.h"

// Read-only views of the pool for the GUI and the runner: plain values, copied
// out of the workers, safe to keep on any thread.
namespace qs::workers {

enum class WorkerState : std::uint8_t {
    Starting,  // thread started, connecting
    Polling,   // a Get is in flight (the broker holds it until the batch is full or the wait ends)
    Waiting,   // backing off after an error, or waiting for an automatic restart
    Processing,  // working on a message of the current batch
    Idle,        // between steps (settling a batch, about to poll again)
    Paused,      // paused by the user: no polls until resumed
    Crashed,     // dropped its connection without settling; unsettled messages went back
    Stopped,     // finished (stopped, removed by scaling down, or reached its max polls)
};

std::string_view toString(WorkerState state);

// Fate of one message of the batch a worker holds.
enum class ItemStatus : std::uint8_t {
    Pending,  // received, not started
    Working,  // simulated work in progress
    Done,     // work finished, settlement deferred (settle mode batch / never)
    Acked,
    Rejected,
    Requeued,
    AutoAcked,  // the broker acked it on hand-out
    Abandoned,  // the worker crashed or closed with it unsettled (it returns to the queue)
    VisibilityExpired,  // v1 stream: its visibility ran out before the settlement, which
                        // failed; the broker took it back (receive count + 1)
};

std::string_view toString(ItemStatus status);

struct BatchItem {
    std::string messageId;
    std::uint64_t sequence = 0;
    int receiveCount = 0;
    bool redelivered = false;  // the ledger saw this message delivered before
    bool poison = false;
    ItemStatus status = ItemStatus::Pending;
};

struct WorkerCounters {
    std::uint64_t polls = 0;
    std::uint64_t emptyPolls = 0;
    std::uint64_t received = 0;
    std::uint64_t redelivered = 0;
    std::uint64_t acked = 0;  // includes auto-acked
    std::uint64_t rejected = 0;
    std::uint64_t requeued = 0;
    std::uint64_t abandoned = 0;  // left unsettled at a crash / close
    std::uint64_t visibilityExpired = 0;  // v1: settlements refused as too late
    std::uint64_t crashes = 0;
    std::uint64_t errors = 0;
    std::int64_t busyNs = 0;  // total simulated work time
};

struct WorkerSnapshot {
    std::string id;  // client id, e.g. "worker-3"
    WorkerState state = WorkerState::Starting;
    std::int64_t stateSinceNs = 0;  // qs::monotonicNanos() of the last state change
    double slowdown = 1.0;
    WorkerConfig config;           // the configuration of the current / next poll
    std::string transaction;       // of the current batch, if any
    std::vector<BatchItem> batch;  // the current batch (empty between batches)
    int currentIndex = -1;         // index into batch being worked on, -1 = none
    WorkerCounters counters;
    std::string lastError;
};

struct PoolSnapshot {
    std::int64_t timeNs = 0;
    WorkerConfig config;  // the pool-wide configuration
    std::vector<WorkerSnapshot> workers;
    WorkerCounters totals;  // sum over all workers, including removed ones
};

}  // namespace qs::workers
