#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "client/client_options.h"
#include "client/error.h"
#include "events/event.h"
#include "workers/worker_config.h"
#include "workers/worker_state.h"

namespace qs {
class EventStream;
}  // namespace qs

namespace qs::client {
class QueuesClient;
}  // namespace qs::client

namespace qs::workers {

class DeliveryRegistry;
class Settlement;

// What every worker of a pool shares. Pointers are not owned and must outlive
// the workers; null events / deliveries = not recorded.
struct WorkerEnvironment {
    client::ClientOptions client;  // address, auth, TLS, timeouts (clientId set per worker)
    std::string channel;
    EventStream* events = nullptr;
    DeliveryRegistry* deliveries = nullptr;
};

// One consumer: its own QueuesClient (own connection, client id = its id) and
// its own thread, looping receive -> simulated work -> settle -> next poll.
//
// Threading: every public method is safe from any thread and never waits for
// the worker's current step, except stopAndJoin() / the destructor, which
// cancel any poll in flight and join (bounded by the client's cancellation,
// well under a second). Configuration changes apply at the next poll; pause,
// crash and stop interrupt a long poll or the simulated work at once.
class Worker {
public:
    Worker(std::string id, WorkerEnvironment environment, WorkerConfig config, std::uint64_t seed);
    ~Worker();
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    const std::string& id() const { return id_; }

    // Starts the thread. False (with an Error event) when the client cannot be
    // created, e.g. a malformed address. No-op while running.
    bool start();
    // Asks the thread to stop: a poll in flight is cancelled, a batch in hand
    // is left unsettled (the broker returns it to the queue). Does not wait.
    void requestStop();
    void stopAndJoin();
    bool isRunning() const;  // the thread is alive (also while paused or crashed)

    void setConfig(const WorkerConfig& config);  // effective at the next poll
    WorkerConfig config() const;

    // Pause: a poll in flight is cancelled (what it collected goes back to the
    // queue); a batch in hand is finished and settled first. Then no polls
    // until resume().
    void pause();
    void resume();
    // Multiplies simulated work durations from the next message on (> 0).
    void setSlowdown(double factor);
    // Dies like a killed process: the connection is dropped mid-batch without
    // settling anything; the broker hands the unsettled messages to others.
    void crash();
    // Reconnects a crashed worker, or starts a stopped one again.
    bool restart();

    WorkerSnapshot snapshot() const;
    WorkerCounters counters() const;  // snapshot().counters, without copying the batch

private:
    enum class Outcome { Continue, Crash, Stop, StreamLost };
    class BatchRun;  // one received batch: its work and settlement (batch_run.h)

    void run();
    // emit() pushes at once (after anything staged); stage() collects events
    // of one processing step and flushEvents() pushes them under one stream
    // lock. Staged events are always flushed before the worker blocks, writes
    // to the wire or leaves processBatch(), so the timeline order against the
    // broker's events is what it would be with one push per event.
    void emit(Event&& event);
    void stage(Event&& event);
    // Builds the event in place at the end of the staged group (no move of a
    // finished event); the reference is valid until the next staged event.
    // Only while events are on (env_.events set).
    // timeNs 0: now. Events of one step (a batch's hand-outs, one AckRange)
    // pass the step's time.
    Event& stageNew(EventKind kind, std::int64_t timeNs = 0);
    void flushEvents();
    Event makeEvent(EventKind kind) const;
    void describeSelf(Event& e, EventKind kind, std::int64_t timeNs = 0) const;
    void setState(WorkerState state);
    bool interruptibleSleep(std::chrono::nanoseconds duration);  // true = interrupted
    bool handlePause();  // false = stop requested while paused
    bool handleCrash();  // false = stop requested while crashed
    void abandonHeld(const char* why, WorkerState nextState);
    // One poll by the configured consume mode, then the processing of what it
    // brought: a downstream batch, or one message of the v1 stream.
    Outcome pollOnce(const WorkerConfig& config);
    Outcome pollDownstream(const WorkerConfig& config);
    Outcome pollStreamMessage(const WorkerConfig& config);
    void notePollReturned(std::size_t received, std::chrono::steady_clock::time_point started,
                          const std::string& transaction);
    Outcome afterFailedReceive(const client::Error& error);
    Outcome processBatch(const WorkerConfig& config, Settlement& settlement);  // BatchRun
    Outcome afterFailedSettle(const client::Error& error, const std::string& what);
    void recordError(const std::string& what);
    void dropConnection();

    const std::string id_;
    const WorkerEnvironment env_;
    const Name actorName_;  // id_ and env_.channel, interned once for every event
    const Name channelName_;
    std::mt19937_64 rng_;

    // Written by the worker thread (and start()) under snapshotMutex_; the
    // worker thread reads it freely, other threads only under the mutex. A
    // crash shuts it down; the restart brings a fresh client (a new process).
    std::shared_ptr<client::QueuesClient> client_;
    std::thread thread_;

    // Control flags, written by any thread; the worker waits on wake_.
    mutable std::mutex controlMutex_;
    std::condition_variable wake_;
    std::atomic<bool> stopRequested_{false};
    std::atomic<bool> crashRequested_{false};
    std::atomic<bool> pauseRequested_{false};
    std::atomic<bool> restartRequested_{false};
    std::atomic<bool> running_{false};
    std::atomic<double> slowdown_{1.0};
    std::atomic<std::uint64_t> configGeneration_{0};
    WorkerConfig pendingConfig_;  // guarded by controlMutex_

    // Messages received with settle=never, still reserved to this client.
    std::uint64_t heldUnsettled_ = 0;  // worker thread only
    std::vector<Event> staged_;        // worker thread only (see stage())

    // The snapshot, guarded by snapshotMutex_ (short sections only).
    mutable std::mutex snapshotMutex_;
    WorkerSnapshot snap_;
};

}  // namespace qs::workers
