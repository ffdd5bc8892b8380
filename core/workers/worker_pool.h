#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "client/client_options.h"
#include "workers/delivery_registry.h"
#include "workers/worker.h"
#include "workers/worker_config.h"
#include "workers/worker_state.h"

namespace qs {
class EventStream;
}

namespace qs::workers {

struct PoolOptions {
    client::ClientOptions client;  // address, auth, TLS, timeouts; clientId is per worker
    std::string channel;
    std::string idPrefix = "worker-";  // workers are <prefix>1, <prefix>2, ...
    EventStream* events = nullptr;     // not owned; must outlive the pool. Null = no events
    std::uint64_t seed = 0;            // random seed for work / failure draws; 0 = random
};

// N competing consumers of one channel, each a Worker (own client, own
// connection, own thread), with one shared, live-tunable WorkerConfig and
// optional per-worker overrides.
//
// Threading: every method is safe from any thread (the GUI thread, the
// runner's timeline). Control methods return without waiting for a worker's
// current step, except removeWorker() / scaleTo() down / stop() and the
// destructor, which cancel the removed workers' polls and join their threads
// (bounded by cancellation, not by the poll's wait timeout). snapshot() copies
// each worker's state under that worker's own short lock; it never waits for
// a poll or a work step, so it can run at frame rate.
class WorkerPool {
public:
    WorkerPool(PoolOptions options, WorkerConfig config);
    ~WorkerPool();  // stop()
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    const PoolOptions& options() const { return options_; }

    // Adds and starts `count` workers with the pool configuration (or
    // `override` for these workers). Returns their ids; empty with *error set
    // when the configuration is invalid or a client cannot be created.
    std::vector<std::string> addWorkers(int count, std::string* error = nullptr,
                                        const std::optional<WorkerConfig>& override = std::nullopt);
    // Grows (pool configuration) or shrinks (highest numbers first) to `count`.
    bool scaleTo(int count, std::string* error = nullptr);
    bool removeWorker(const std::string& id);
    // Cancels every poll, stops and joins every worker. Idempotent.
    void stop();

    int size() const;
    std::vector<std::string> workerIds() const;  // in number order
    bool hasWorker(const std::string& id) const;

    // The shared configuration; effective for each worker at its next poll.
    // Workers with an override keep it. False (and *error) when invalid.
    bool setConfig(const WorkerConfig& config, std::string* error = nullptr);
    WorkerConfig config() const;
    // Per-worker override (replaces the shared configuration for that worker).
    bool setWorkerConfig(const std::string& id, const WorkerConfig& config,
                         std::string* error = nullptr);
    bool clearWorkerConfig(const std::string& id);
    std::optional<WorkerConfig> workerConfig(const std::string& id) const;  // effective

    // Per-worker controls; false when there is no such worker.
    bool pause(const std::string& id);
    bool resume(const std::string& id);
    bool setSlowdown(const std::string& id, double factor);
    bool crash(const std::string& id);
    bool restart(const std::string& id);
    bool stopWorker(const std::string& id);  // stops it but keeps it in the pool (restartable)
    void pauseAll();
    void resumeAll();

    PoolSnapshot snapshot() const;
    // snapshot().totals without copying any worker's batch: for polling progress.
    WorkerCounters totals() const;
    std::optional<WorkerSnapshot> workerSnapshot(const std::string& id) const;

    // The pool's memory of hand-outs by MessageID (see DeliveryRegistry).
    DeliveryRegistry& deliveries() { return deliveries_; }

private:
    struct Slot {
        int number = 0;
        std::unique_ptr<Worker> worker;
        bool overridden = false;
    };

    Slot* findLocked(const std::string& id);
    const Slot* findLocked(const std::string& id) const;
    int freeNumberLocked() const;
    void emitConfigChanged(const std::string& actor,
                           const std::vector<SettingChange>& changes) const;
    template <typename F>
    bool withWorker(const std::string& id, F&& f);

    const PoolOptions options_;
    DeliveryRegistry deliveries_;

    mutable std::mutex mutex_;
    WorkerConfig config_;
    std::vector<Slot> slots_;  // sorted by number
    WorkerCounters removedTotals_;
    std::uint64_t nextSeed_;
};

}  // namespace qs::workers
