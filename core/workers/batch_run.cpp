#include "workers/batch_run.h"

#include <optional>
#include <random>

#include "client/queues_client.h"
#include "common/clock.h"
#include "events/event_stream.h"
#include "workers/delivery_registry.h"
#include "workers/poison.h"

namespace qs::workers {

namespace {

bool roll(std::mt19937_64& rng, double probability) {
    if (probability <= 0.0) {
        return false;
    }
    if (probability >= 1.0) {
        return true;
    }
    return std::uniform_real_distribution<double>(0.0, 1.0)(rng) < probability;
}

}  // namespace

Worker::BatchRun::BatchRun(Worker& worker, const WorkerConfig& config, Settlement& settlement)
    : w_(worker),
      config_(config),
      settlement_(settlement),
      eventsOn_(worker.env_.events != nullptr && worker.env_.events->isEnabled()),
      failed_(settlement.size(), 0) {}

Worker::Outcome Worker::BatchRun::run() {
    // Whatever path leaves the batch, staged events reach the stream.
    struct FlushOnExit {
        Worker& worker;
        ~FlushOnExit() { worker.flushEvents(); }
    } flushOnExit{w_};

    admit();
    for (std::size_t i = 0; i < items_.size(); ++i) {
        if (Outcome next = work(i); next != Outcome::Continue) {
            return next;
        }
        if (Outcome next = settleAfterWork(i); next != Outcome::Continue) {
            return next;
        }
    }
    if (asyncAcksDropped()) {
        markIdle();  // the worker leaves now: its stream closes with the acks queued
        return Outcome::Continue;
    }
    if (Outcome next = flushAcks(); next != Outcome::Continue) {
        return next;
    }
    if (!config_.autoAck && config_.settle == SettleMode::Batch) {
        if (Outcome next = settleBatchAtEnd(); next != Outcome::Continue) {
            return next;
        }
    }
    markIdle();
    return Outcome::Continue;
}

void Worker::BatchRun::admit() {
    items_.reserve(settlement_.size());
    std::uint64_t redelivered = 0;
    const std::int64_t receivedNs = eventsOn_ ? monotonicNanos() : 0;  // one hand-out, one time
    for (std::size_t i = 0; i < settlement_.size(); ++i) {
        const client::QueueMessage& m = settlement_.message(i);
        BatchItem item;
        item.messageId = m.id;
        item.sequence = m.attributes.sequence;
        item.receiveCount = m.attributes.receiveCount;
        item.poison = isPoison(m.tags, m.body);
        item.status = config_.autoAck ? ItemStatus::AutoAcked : ItemStatus::Pending;
        std::optional<DeliveryRegistry::Previous> previous;
        if (w_.env_.deliveries != nullptr) {
            previous = w_.env_.deliveries->record(m.id, w_.id_);
            if (config_.autoAck) {
                w_.env_.deliveries->forget(m.id);  // settled on hand-out: it cannot come back
            }
        }
        item.redelivered = previous.has_value();
        if (previous) {
            ++redelivered;
        }
        if (eventsOn_) {
            Event& e = w_.stageNew(EventKind::MessageAssigned, receivedNs);
            e.messageId = m.id;
            e.sequence = item.sequence;
            e.receiveCount = item.receiveCount;
            e.transaction = settlement_.transactionId();
            e.value = settlement_.visibilityMs();  // the deadline is timeNs + this
            if (previous || config_.autoAck) {
                stageAfterAssigned(e, previous, config_.autoAck);
            }
        }
        items_.push_back(std::move(item));
    }
    std::lock_guard lock(w_.snapshotMutex_);
    w_.snap_.batch = items_;
    w_.snap_.counters.received += items_.size();
    w_.snap_.counters.redelivered += redelivered;
    if (config_.autoAck) {
        w_.snap_.counters.acked += items_.size();
    }
    w_.snap_.state = WorkerState::Processing;
    w_.snap_.stateSinceNs = monotonicNanos();
}

Worker::Outcome Worker::BatchRun::work(std::size_t i) {
    if (w_.stopRequested_.load()) {
        return leave(Outcome::Stop);
    }
    if (w_.crashRequested_.load()) {
        return leave(Outcome::Crash);
    }
    const double slowdown = w_.slowdown_.load();
    auto duration = config_.work.sample(w_.rng_);
    if (slowdown != 1.0) {
        duration = std::chrono::nanoseconds(
            static_cast<std::int64_t>(static_cast<double>(duration.count()) * slowdown));
    }
    {
        std::lock_guard lock(w_.snapshotMutex_);
        w_.snap_.currentIndex = static_cast<int>(i);
        if (i < w_.snap_.batch.size() && !config_.autoAck) {
            w_.snap_.batch[i].status = ItemStatus::Working;
        }
    }
    const bool crashNow = roll(w_.rng_, config_.crashRate);
    if (duration > std::chrono::nanoseconds::zero() || crashNow) {
        // Time passes (or the worker dies) from here: the acks due go out
        // now, before this message's work starts.
        if (Outcome next = flushAcks(); next != Outcome::Continue) {
            return next;
        }
    }
    if (eventsOn_) {
        stageMessage(EventKind::WorkStarted, i).value = duration.count();
    }
    if (crashNow) {
        // Die halfway through this message's work.
        w_.flushEvents();
        w_.interruptibleSleep(duration / 2);
        return w_.stopRequested_.load() ? Outcome::Stop : Outcome::Crash;
    }
    if (duration > std::chrono::nanoseconds::zero()) {
        w_.flushEvents();
        if (w_.interruptibleSleep(duration)) {
            return w_.stopRequested_.load() ? Outcome::Stop : Outcome::Crash;
        }
    }
    if (eventsOn_) {
        stageMessage(EventKind::WorkFinished, i).value = duration.count();
    }
    failed_[i] = items_[i].poison || roll(w_.rng_, config_.failureRate);
    const bool deferAck =
        !config_.autoAck && !failed_[i] &&
        (config_.settle == SettleMode::Each || config_.settle == SettleMode::Async);
    const bool done = !config_.autoAck && (config_.settle == SettleMode::Never ||
                                           config_.settle == SettleMode::Batch || deferAck);
    std::lock_guard lock(w_.snapshotMutex_);
    w_.snap_.counters.busyNs += duration.count();
    if (done) {
        items_[i].status = ItemStatus::Done;
        if (i < w_.snap_.batch.size()) {
            w_.snap_.batch[i].status = ItemStatus::Done;
        }
    }
    return Outcome::Continue;
}

Worker::Outcome Worker::BatchRun::settleAfterWork(std::size_t i) {
    if (config_.autoAck || config_.settle == SettleMode::Batch) {
        return Outcome::Continue;  // acked on hand-out / settled at the batch's end
    }
    if (config_.settle == SettleMode::Never) {
        ++w_.heldUnsettled_;
        return Outcome::Continue;
    }
    if (!failed_[i]) {
        pendingAcks_.push_back(i);  // written with the next acks due (flushAcks)
        if (config_.settle == SettleMode::Async && eventsOn_) {
            stageMessage(EventKind::Acked, i).detail = "async";  // acked, as the program sees it
        }
        return Outcome::Continue;
    }
    // A failed message: acks due before it go first, then its own
    // settlement, one message per request.
    if (Outcome next = flushAcks(); next != Outcome::Continue) {
        return next;
    }
    return settleFailed(i);
}

Worker::Outcome Worker::BatchRun::settleFailed(std::size_t i) {
    w_.flushEvents();
    const bool requeue = !items_[i].poison && config_.onFailure == FailureAction::Requeue;
    client::Result<void> settled = requeue ? settlement_.requeue(i, config_.requeueChannel)
                                           : settlement_.reject(i);
    if (!settled.ok()) {
        return settlementFailed(settled.error(), std::span<const std::size_t>(&i, 1),
                                "settle failed");
    }
    setStatus(i, requeue ? ItemStatus::Requeued : ItemStatus::Rejected);
    if (eventsOn_) {
        Event& e = stageMessage(requeue ? EventKind::Requeued : EventKind::Rejected, i);
        if (requeue) {
            e.detail = config_.requeueChannel;
        } else if (items_[i].poison) {
            e.detail = "poison";
        }
    }
    return Outcome::Continue;
}

Worker::Outcome Worker::BatchRun::settleBatchAtEnd() {
    bool anyAck = false;
    for (std::size_t i = 0; i < items_.size(); ++i) {
        if (!failed_[i]) {
            anyAck = true;
        } else if (Outcome next = settleFailed(i); next != Outcome::Continue) {
            return next;
        }
    }
    if (!anyAck) {
        return Outcome::Continue;
    }
    w_.flushEvents();
    std::vector<std::size_t> acked;
    for (std::size_t i = 0; i < items_.size(); ++i) {
        if (!failed_[i]) {
            acked.push_back(i);
        }
    }
    client::Result<void> settled = settlement_.ackAll();
    if (!settled.ok()) {
        return settlementFailed(settled.error(), acked, "ack all failed");
    }
    if (eventsOn_) {
        const std::int64_t settledNs = monotonicNanos();
        for (std::size_t i : acked) {
            stageMessage(EventKind::Acked, i, settledNs);
        }
    }
    setStatuses(acked, ItemStatus::Acked);
    forgetSettled(acked);
    return Outcome::Continue;
}

// Settle mode "each": the ack of a message is sent right after its work, but
// acks of consecutive messages whose work took no time are one AckRange write
// (what separate AckRange writes would do, back to back, at the same
// instant). Nothing is held across a wait: the pending acks go out before the
// worker sleeps, settles anything else, or leaves.
Worker::Outcome Worker::BatchRun::flushAcks() {
    if (pendingAcks_.empty()) {
        return Outcome::Continue;
    }
    w_.flushEvents();  // the work events precede the settlement on the timeline
    client::Result<void> settled = settlement_.ack(pendingAcks_);
    if (!settled.ok()) {
        const std::vector<std::size_t> failed = std::move(pendingAcks_);
        pendingAcks_.clear();
        return settlementFailed(settled.error(), failed, "settle failed");
    }
    setStatuses(pendingAcks_, ItemStatus::Acked);
    forgetSettled(pendingAcks_);
    if (eventsOn_ && config_.settle != SettleMode::Async) {  // async: reported when queued
        const std::int64_t settledNs = monotonicNanos();  // one settlement, one time
        for (std::size_t i : pendingAcks_) {
            stageMessage(EventKind::Acked, i, settledNs);
        }
    }
    pendingAcks_.clear();
    return Outcome::Continue;
}

Worker::Outcome Worker::BatchRun::settlementFailed(const client::Error& error,
                                                   std::span<const std::size_t> which,
                                                   const char* what) {
    if (error.category != client::ErrorCategory::VisibilityExpired) {
        return w_.afterFailedSettle(error, what);
    }
    setStatuses(which, ItemStatus::VisibilityExpired);
    if (eventsOn_) {
        const std::int64_t failedNs = monotonicNanos();
        for (std::size_t i : which) {
            stageMessage(EventKind::VisibilityExpired, i, failedNs).detail = error.message;
        }
    }
    return Outcome::Continue;
}

// Leaving early (stop, crash): acks already due are still sent first, as they
// would have been without the coalescing.
Worker::Outcome Worker::BatchRun::leave(Outcome why) {
    if (config_.settle != SettleMode::Async) {
        flushAcks();
    }  // async: the stream is cancelled with the queued acks unwritten
    return why;
}

// Settle mode "async" on the worker's last poll (max polls): the program
// leaves right after its last ack is queued, before it is written.
bool Worker::BatchRun::asyncAcksDropped() const {
    if (config_.settle != SettleMode::Async || pendingAcks_.empty() || config_.maxPolls <= 0) {
        return false;
    }
    std::lock_guard lock(w_.snapshotMutex_);
    return w_.snap_.counters.polls >= static_cast<std::uint64_t>(config_.maxPolls);
}

void Worker::BatchRun::markIdle() {
    std::lock_guard lock(w_.snapshotMutex_);
    w_.snap_.currentIndex = -1;
    w_.snap_.state = WorkerState::Idle;
    w_.snap_.stateSinceNs = monotonicNanos();
}

// What a hand-out implies beyond itself: a redelivery recognised by
// identity (the pool handed this MessageID out before, whatever its receive
// count) and an auto-ack (the broker acked it on hand-out: reported now, so a
// crash mid-batch reads as the loss it is even on a server that reports
// nothing of its own, as lesson 07 needs on v2.4.0).
void Worker::BatchRun::stageAfterAssigned(const Event& assignedRef,
                                          const std::optional<DeliveryRegistry::Previous>& previous,
                                          bool autoAcked) {
    const Event assigned = assignedRef;  // a copy: the next stage() may move the original
    if (previous) {
        Event r = assigned;
        r.kind = EventKind::Redelivered;
        r.value = previous->deliveries + 1;  // this is the nth hand-out
        r.detail = previous->worker;
        w_.stage(std::move(r));
    }
    if (autoAcked) {
        Event a = assigned;
        a.kind = EventKind::Acked;
        a.value = 0;
        a.detail = "auto-ack";
        w_.stage(std::move(a));
    }
}

Event& Worker::BatchRun::stageMessage(EventKind kind, std::size_t i, std::int64_t timeNs) {
    Event& e = w_.stageNew(kind, timeNs);
    e.messageId = items_[i].messageId;
    e.sequence = items_[i].sequence;
    e.receiveCount = items_[i].receiveCount;
    e.transaction = settlement_.transactionId();
    return e;
}

// Status changes of several items under one lock (counters follow).
void Worker::BatchRun::setStatuses(std::span<const std::size_t> which, ItemStatus status) {
    std::lock_guard lock(w_.snapshotMutex_);
    for (std::size_t i : which) {
        items_[i].status = status;
        if (i < w_.snap_.batch.size()) {
            w_.snap_.batch[i].status = status;
        }
        switch (status) {
            case ItemStatus::Acked:
                ++w_.snap_.counters.acked;
                break;
            case ItemStatus::Rejected:
                ++w_.snap_.counters.rejected;
                break;
            case ItemStatus::Requeued:
                ++w_.snap_.counters.requeued;
                break;
            case ItemStatus::VisibilityExpired:
                ++w_.snap_.counters.visibilityExpired;
                break;
            default:
                break;
        }
    }
}

void Worker::BatchRun::setStatus(std::size_t i, ItemStatus status) {
    setStatuses(std::span<const std::size_t>(&i, 1), status);
}

// Acked messages are gone from the broker: the registry need not remember them.
void Worker::BatchRun::forgetSettled(std::span<const std::size_t> which) {
    if (w_.env_.deliveries != nullptr) {
        for (std::size_t i : which) {
            w_.env_.deliveries->forget(items_[i].messageId);
        }
    }
}

}  // namespace qs::workers
