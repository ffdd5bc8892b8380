#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "broker/store_record.h"
#include "broker/stored_message.h"

namespace qs::broker {

class DurableLog;
struct RecoveredChannel;
class Waiter;

// Counters and gauges of one channel (QueuesInfo, list-channels, metrics).
// Counters start at zero when the channel is created (also after a restart).
struct ChannelStats {
    std::uint64_t sentMessages = 0;  // stored into this channel (all copies)
    std::uint64_t sentBytes = 0;
    std::uint64_t deliveredMessages = 0;  // hand-outs to consumers, peeks and purges included
    std::uint64_t deliveredBytes = 0;
    std::uint64_t expiredMessages = 0;
    // What happened to messages, one count per message (the metrics' counters):
    std::uint64_t acceptedMessages = 0;      // sends to it (send path, re-queue, v1 resend)
    std::uint64_t handedOutMessages = 0;     // hand-outs to consumers (no peeks, no purges)
    std::uint64_t ackedMessages = 0;         // acked, or replaced by a v1 modified message
    std::uint64_t rejectedMessages = 0;      // nacked: reject, v1 visibility timeout / stream end
    std::uint64_t deadLetteredMessages = 0;  // over MaxReceiveCount: moved to the DLQ or dropped
    std::uint64_t purgedMessages = 0;        // removed by AckAllQueueMessages
    std::uint64_t readyMessages = 0;   // waiting to be delivered
    std::uint64_t storedMessages = 0;  // ready + reserved
    std::uint64_t storedBytes = 0;
    std::uint64_t delayedMessages = 0;  // currently delayed, bound for this channel
    std::uint64_t firstSequence = 0;
    std::uint64_t lastSequence = 0;
    std::int64_t lastActivityMs = 0;  // Unix ms
    int consumers = 0;
};

// One queue: messages in store-sequence order, each ready, reserved by a
// consumer, or gone. Sequences start at 1 and are contiguous, so a slot is
// found by index; a reserved message that comes back keeps its slot and thus
// its position. Thread-safe (one mutex per channel); never calls out while
// holding it except Waiter::signal and the durable log's appends (leaf locks).
//
// With a durable log every change of what is stored is recorded under the
// channel's mutex, so the log's order is the channel's order. Reservations
// are not recorded: after a restart a reserved message is ready again.
class QueueChannel {
public:
    // `log` (optional) must outlive the channel.
    explicit QueueChannel(std::string name, DurableLog* log = nullptr);
    QueueChannel(const QueueChannel&) = delete;
    QueueChannel& operator=(const QueueChannel&) = delete;

    const std::string& name() const { return name_; }

    // Stores at the tail: assigns the next sequence and a non-decreasing
    // timestamp (Unix ns) to `message`. Returns the sequence.
    // `origin` names what the stored copy replaces or releases (one record).
    std::uint64_t append(StoredMessage message, std::int64_t nowNs,
                         const RecordOrigin& origin = {});

    // Reserves up to `max` ready messages in sequence order and copies them
    // into `out`. Returns how many were reserved.
    std::size_t reserve(std::size_t max, std::vector<StoredMessage>& out);

    // Removes a reserved message (ack, or before re-enqueueing a copy).
    // `recorded` false: the caller records the removal itself, as the origin
    // of the copy that replaces it (or with recordRemoved).
    std::optional<StoredMessage> removeReserved(std::uint64_t sequence, bool recorded = true);
    // Records the removal of a message taken with recorded = false and not
    // stored anywhere else (dropped).
    void recordRemoved(const StoredMessage& message);

    // Puts a reserved message back at its original position, unchanged.
    bool unreserve(std::uint64_t sequence);

    // Removes every ready message (the auto-ack consumer of AckAll).
    std::vector<StoredMessage> removeAllReady();

    // Empties the channel for good (delete-channel). Later calls see nothing.
    void clear();
    bool deleted() const;

    // Loads a recovered channel; only before anyone else uses it.
    void restore(RecoveredChannel recovered);
    // The channel's live entries as durable-log frames (compaction).
    void snapshot(std::string& frames, const std::function<void(std::string&)>& flush) const;

    void addWaiter(Waiter* waiter);
    void removeWaiter(Waiter* waiter);
    void signalWaiters();

    void noteDelivered(std::size_t count, std::size_t bytes);
    void noteExpired(std::size_t count);
    // The per-message outcome counters of ChannelStats.
    void noteAccepted();
    void noteHandedOut(std::size_t count);
    void noteAcked();
    void noteRejected();
    void noteDeadLettered();
    void notePurged(std::size_t count);
    void addDelayed(int delta);
    void addConsumer(int delta);
    ChannelStats stats() const;

private:
    enum class SlotState : std::uint8_t { Ready, Reserved, Gone };
    struct Slot {
        StoredMessage message;
        SlotState state = SlotState::Ready;
    };

    Slot* slotLocked(std::uint64_t sequence);
    void trimFrontLocked();
    void touchLocked();
    void signalLocked();

    const std::string name_;
    DurableLog* const log_;
    mutable std::mutex mutex_;
    std::deque<Slot> slots_;  // slots_[i] has sequence base_ + i
    std::uint64_t base_ = 1;
    std::uint64_t nextSequence_ = 1;
    std::uint64_t cursor_ = 1;  // no ready slot below this sequence
    std::int64_t lastTimestamp_ = 0;
    bool deleted_ = false;
    ChannelStats stats_;
    std::vector<Waiter*> waiters_;
};

}  // namespace qs::broker
