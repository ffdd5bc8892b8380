#include "workers/worker.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <span>
#include <vector>

#include "client/queues_client.h"
#include "common/clock.h"
#include "events/event_stream.h"
#include "workers/batch_run.h"

namespace qs::workers {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds kErrorBackoff{250};

bool isSettledStatus(ItemStatus s) {
    return s == ItemStatus::Acked || s == ItemStatus::Rejected || s == ItemStatus::Requeued ||
           s == ItemStatus::AutoAcked || s == ItemStatus::Abandoned ||
           s == ItemStatus::VisibilityExpired;
}

}  // namespace

Worker::Worker(std::string id, WorkerEnvironment environment, WorkerConfig config,
               std::uint64_t seed)
    : id_(std::move(id)),
      env_(std::move(environment)),
      actorName_(id_),
      channelName_(env_.channel),
      rng_(seed),
      pendingConfig_(config) {
    snap_.id = id_;
    snap_.config = config;
    snap_.state = WorkerState::Stopped;
    snap_.stateSinceNs = monotonicNanos();
}

Worker::~Worker() {
    stopAndJoin();
}

bool Worker::start() {
    if (running_.load()) {
        return true;
    }
    if (thread_.joinable()) {
        thread_.join();
    }
    client::ClientOptions options = env_.client;
    options.clientId = id_;
    auto created = client::QueuesClient::create(options);
    if (!created.ok()) {
        Event e = makeEvent(EventKind::Error);
        e.detail = "cannot create client: " + created.error().describe();
        emit(std::move(e));
        std::lock_guard lock(snapshotMutex_);
        snap_.lastError = created.error().describe();
        ++snap_.counters.errors;
        return false;
    }
    {
        std::lock_guard lock(snapshotMutex_);
        client_ = std::move(created).value();
    }
    stopRequested_ = false;
    crashRequested_ = false;
    restartRequested_ = false;
    heldUnsettled_ = 0;
    setState(WorkerState::Starting);
    running_ = true;
    thread_ = std::thread([this] { run(); });
    return true;
}

void Worker::requestStop() {
    {
        std::lock_guard lock(controlMutex_);
        stopRequested_ = true;
    }
    wake_.notify_all();
    // shutdown() also refuses the next call, so a poll about to start cannot
    // slip past the stop.
    std::lock_guard lock(snapshotMutex_);
    if (client_ && running_.load()) {
        client_->shutdown();
    }
}

void Worker::stopAndJoin() {
    requestStop();
    if (thread_.joinable()) {
        thread_.join();
    }
}

bool Worker::isRunning() const {
    return running_.load();
}

void Worker::setConfig(const WorkerConfig& config) {
    std::lock_guard lock(controlMutex_);
    pendingConfig_ = config;
    configGeneration_.fetch_add(1);
}

WorkerConfig Worker::config() const {
    std::lock_guard lock(controlMutex_);
    return pendingConfig_;
}

void Worker::pause() {
    {
        std::lock_guard lock(controlMutex_);
        pauseRequested_ = true;
    }
    wake_.notify_all();
    std::lock_guard lock(snapshotMutex_);
    if (client_ && snap_.state == WorkerState::Polling) {
        client_->cancel();
    }
}

void Worker::resume() {
    {
        std::lock_guard lock(controlMutex_);
        pauseRequested_ = false;
    }
    wake_.notify_all();
}

void Worker::setSlowdown(double factor) {
    if (!(factor > 0.0)) {
        return;
    }
    slowdown_.store(factor);
    std::lock_guard lock(snapshotMutex_);
    snap_.slowdown = factor;
}

void Worker::crash() {
    {
        std::lock_guard lock(controlMutex_);
        if (!running_.load()) {
            return;
        }
        crashRequested_ = true;
    }
    wake_.notify_all();
    // The connection dies now, wherever the worker is; the worker thread only
    // notices afterwards, like the kernel closing a dead process's sockets.
    std::lock_guard lock(snapshotMutex_);
    if (client_ && snap_.state != WorkerState::Crashed && snap_.state != WorkerState::Stopped) {
        client_->abandon();
        client_->shutdown();
    }
}

void Worker::dropConnection() {
    std::lock_guard lock(snapshotMutex_);
    client_->abandon();
    client_->shutdown();
}

bool Worker::restart() {
    bool crashedAlive = false;
    {
        std::lock_guard lock(snapshotMutex_);
        crashedAlive = running_.load() && snap_.state == WorkerState::Crashed;
    }
    if (crashedAlive) {
        {
            std::lock_guard lock(controlMutex_);
            restartRequested_ = true;
        }
        wake_.notify_all();
        return true;
    }
    if (running_.load()) {
        return false;  // alive and not crashed: nothing to restart
    }
    return start();
}

WorkerSnapshot Worker::snapshot() const {
    std::lock_guard lock(snapshotMutex_);
    return snap_;
}

WorkerCounters Worker::counters() const {
    std::lock_guard lock(snapshotMutex_);
    return snap_.counters;
}

void Worker::describeSelf(Event& e, EventKind kind, std::int64_t timeNs) const {
    e.timeNs = timeNs != 0 ? timeNs : monotonicNanos();
    e.kind = kind;
    e.source = EventSource::Worker;
    e.actor = actorName_;
    e.channel = channelName_;
}

Event Worker::makeEvent(EventKind kind) const {
    Event e;
    describeSelf(e, kind);
    return e;
}

Event& Worker::stageNew(EventKind kind, std::int64_t timeNs) {
    Event& e = staged_.emplace_back();
    describeSelf(e, kind, timeNs);
    return e;
}

void Worker::emit(Event&& event) {
    if (env_.events == nullptr) {
        return;
    }
    flushEvents();
    env_.events->push(std::move(event));
}

void Worker::stage(Event&& event) {
    if (env_.events != nullptr) {
        staged_.push_back(std::move(event));
    }
}

void Worker::flushEvents() {
    if (env_.events != nullptr && !staged_.empty()) {
        env_.events->push(staged_);  // leaves staged_ empty, capacity kept
    }
}

void Worker::setState(WorkerState state) {
    std::lock_guard lock(snapshotMutex_);
    if (snap_.state != state) {
        snap_.state = state;
        snap_.stateSinceNs = monotonicNanos();
    }
}

bool Worker::interruptibleSleep(std::chrono::nanoseconds duration) {
    if (duration <= std::chrono::nanoseconds::zero()) {
        return stopRequested_.load() || crashRequested_.load();
    }
    std::unique_lock lock(controlMutex_);
    return wake_.wait_for(lock, duration,
                          [this] { return stopRequested_.load() || crashRequested_.load(); });
}

Worker::Outcome Worker::afterFailedSettle(const client::Error& error, const std::string& what) {
    if (stopRequested_.load()) {
        return Outcome::Stop;
    }
    if (crashRequested_.load()) {
        return Outcome::Crash;
    }
    recordError(what + ": " + error.describe());
    return error.willBeRedelivered() ? Outcome::StreamLost : Outcome::Continue;
}

void Worker::recordError(const std::string& what) {
    Event e = makeEvent(EventKind::Error);
    e.detail = what;
    emit(std::move(e));
    std::lock_guard lock(snapshotMutex_);
    ++snap_.counters.errors;
    snap_.lastError = what;
}

// Marks what this worker still holds as given back (crash, stop, broken
// stream) and returns nothing: the broker decides where the messages go.
void Worker::abandonHeld(const char* why, WorkerState nextState) {
    std::uint64_t abandoned = heldUnsettled_;
    heldUnsettled_ = 0;
    {
        std::lock_guard lock(snapshotMutex_);
        for (BatchItem& item : snap_.batch) {
            if (!isSettledStatus(item.status)) {
                // settle=never items were already counted in heldUnsettled_.
                if (item.status != ItemStatus::Done || snap_.config.settle != SettleMode::Never) {
                    ++abandoned;
                }
                item.status = ItemStatus::Abandoned;
            }
        }
        snap_.counters.abandoned += abandoned;
        snap_.currentIndex = -1;
        if (nextState == WorkerState::Crashed) {
            ++snap_.counters.crashes;
        }
        snap_.state = nextState;
        snap_.stateSinceNs = monotonicNanos();
    }
    Event e = makeEvent(nextState == WorkerState::Crashed ? EventKind::WorkerCrashed
                                                          : EventKind::WorkerStopped);
    e.value = static_cast<std::int64_t>(abandoned);
    e.detail = why;
    emit(std::move(e));
}

bool Worker::handlePause() {
    setState(WorkerState::Paused);
    emit(makeEvent(EventKind::WorkerPaused));
    {
        std::unique_lock lock(controlMutex_);
        wake_.wait(lock, [this] {
            return !pauseRequested_.load() || stopRequested_.load() || crashRequested_.load();
        });
    }
    if (stopRequested_.load()) {
        return false;
    }
    if (!pauseRequested_.load()) {
        emit(makeEvent(EventKind::WorkerResumed));
    }
    setState(WorkerState::Idle);
    return true;
}

bool Worker::handleCrash() {
    dropConnection();
    abandonHeld("connection dropped without settling", WorkerState::Crashed);
    int restartDelayMs = 0;
    {
        std::lock_guard lock(snapshotMutex_);
        restartDelayMs = snap_.config.restartDelayMs;
    }
    {
        std::unique_lock lock(controlMutex_);
        crashRequested_ = false;
        auto ready = [this] { return stopRequested_.load() || restartRequested_.load(); };
        if (restartDelayMs >= 0) {
            wake_.wait_for(lock, std::chrono::milliseconds(restartDelayMs), ready);
        } else {
            wake_.wait(lock, ready);
        }
        restartRequested_ = false;
    }
    if (stopRequested_.load()) {
        return false;
    }
    client::ClientOptions options = env_.client;
    options.clientId = id_;
    auto created = client::QueuesClient::create(options);
    if (!created.ok()) {
        recordError("cannot reconnect: " + created.error().describe());
        return false;
    }
    {
        std::lock_guard lock(snapshotMutex_);
        client_ = std::move(created).value();
        snap_.batch.clear();
        snap_.transaction.clear();
        snap_.state = WorkerState::Idle;
        snap_.stateSinceNs = monotonicNanos();
    }
    emit(makeEvent(EventKind::WorkerReconnected));
    return true;
}

void Worker::run() {
    emit(makeEvent(EventKind::WorkerStarted));
    std::uint64_t seenGeneration = ~std::uint64_t{0};
    WorkerConfig config;
    const char* stopReason = "stopped";
    for (;;) {
        if (stopRequested_.load()) {
            break;
        }
        if (crashRequested_.load()) {
            if (!handleCrash()) {
                break;
            }
            continue;
        }
        if (pauseRequested_.load()) {
            if (!handlePause()) {
                break;
            }
            continue;
        }
        if (std::uint64_t gen = configGeneration_.load(); gen != seenGeneration) {
            std::lock_guard lock(controlMutex_);
            config = pendingConfig_;
            seenGeneration = configGeneration_.load();
        }
        {
            std::lock_guard lock(snapshotMutex_);
            snap_.config = config;
            if (config.maxPolls > 0 &&
                snap_.counters.polls >= static_cast<std::uint64_t>(config.maxPolls)) {
                stopReason = "max polls reached";
                break;
            }
        }
        Outcome outcome = pollOnce(config);
        if (outcome == Outcome::Stop) {
            break;
        }
        if (outcome == Outcome::Crash) {
            crashRequested_ = true;  // handled at the top of the loop
        } else if (outcome == Outcome::StreamLost) {
            heldUnsettled_ = 0;
            std::lock_guard lock(snapshotMutex_);
            for (BatchItem& item : snap_.batch) {
                if (!isSettledStatus(item.status)) {
                    item.status = ItemStatus::Abandoned;
                    ++snap_.counters.abandoned;
                }
            }
            snap_.currentIndex = -1;
        }
    }
    // Closing the client ends its streams: whatever it still holds unsettled
    // goes back to the queue (exactly what a client that exits does).
    client_->shutdown();
    abandonHeld(stopReason, WorkerState::Stopped);
    {
        std::lock_guard lock(snapshotMutex_);
        running_ = false;
    }
}

Worker::Outcome Worker::pollOnce(const WorkerConfig& config) {
    {
        std::lock_guard lock(snapshotMutex_);
        snap_.state = WorkerState::Polling;
        snap_.stateSinceNs = monotonicNanos();
        snap_.batch.clear();
        snap_.transaction.clear();
        snap_.currentIndex = -1;
    }
    const bool v1 = config.consume == ConsumeMode::V1Stream;
    {
        Event e = makeEvent(EventKind::PollStarted);
        e.value = v1 ? 1 : config.batchSize;
        e.count2 = config.waitMs;
        emit(std::move(e));
    }
    return v1 ? pollStreamMessage(config) : pollDownstream(config);
}

Worker::Outcome Worker::pollDownstream(const WorkerConfig& config) {
    const auto started = Clock::now();
    auto result = client_->receive(env_.channel, config.batchSize,
                                   std::chrono::milliseconds(config.waitMs), config.autoAck);
    if (!result.ok()) {
        return afterFailedReceive(result.error());
    }
    client::ReceivedBatch& batch = result.value();
    notePollReturned(batch.size(), started, batch.transactionId());
    if (batch.empty()) {
        setState(WorkerState::Idle);
        return Outcome::Continue;
    }
    DownstreamSettlement settlement(batch);
    return processBatch(config, settlement);
}

// The v1 stream: one message per stream, hidden from the others for the
// visibility timeout; the settlement goes back on the same stream.
Worker::Outcome Worker::pollStreamMessage(const WorkerConfig& config) {
    const auto started = Clock::now();
    auto result =
        client_->receiveStreamMessage(env_.channel, std::chrono::milliseconds(config.waitMs),
                                      std::chrono::seconds(config.visibilitySeconds));
    if (!result.ok()) {
        const client::Error& error = result.error();
        // The server's "nothing within the wait" (grpcCode 0): an empty poll.
        if (error.category == client::ErrorCategory::Timeout && error.grpcCode == 0) {
            notePollReturned(0, started, {});
            setState(WorkerState::Idle);
            return Outcome::Continue;
        }
        return afterFailedReceive(error);
    }
    client::StreamMessage& message = result.value();
    notePollReturned(1, started, message.receiveRequestId());
    StreamMessageSettlement settlement(message, config.visibilitySeconds);
    return processBatch(config, settlement);
}

void Worker::notePollReturned(std::size_t received, Clock::time_point started,
                              const std::string& transaction) {
    const auto waitedMs =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count();
    {
        Event e = makeEvent(EventKind::PollReturned);
        e.value = static_cast<std::int64_t>(received);
        e.count2 = waitedMs;
        e.transaction = transaction;
        emit(std::move(e));
    }
    std::lock_guard lock(snapshotMutex_);
    ++snap_.counters.polls;
    if (received == 0) {
        ++snap_.counters.emptyPolls;
    }
    snap_.transaction = transaction;
}

Worker::Outcome Worker::afterFailedReceive(const client::Error& error) {
    if (stopRequested_.load()) {
        return Outcome::Stop;
    }
    if (crashRequested_.load()) {
        return Outcome::Crash;
    }
    if (error.category == client::ErrorCategory::Cancelled && pauseRequested_.load()) {
        setState(WorkerState::Idle);
        return Outcome::Continue;
    }
    if (error.willBeRedelivered()) {
        heldUnsettled_ = 0;
    }
    recordError("receive failed: " + error.describe());
    setState(WorkerState::Waiting);
    return interruptibleSleep(kErrorBackoff) && stopRequested_.load() ? Outcome::Stop
                                                                      : Outcome::Continue;
}

Worker::Outcome Worker::processBatch(const WorkerConfig& config, Settlement& settlement) {
    return BatchRun(*this, config, settlement).run();
}

}  // namespace qs::workers
