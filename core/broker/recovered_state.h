#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>

#include "broker/store_record.h"
#include "broker/stored_message.h"

namespace qs::broker {

// The live messages of one recovered channel, kept as the channel keeps them
// at run time: one slot per sequence from firstSequence() on, an empty slot
// (sequence 0) where a message is gone. Sequences arrive almost always in
// order, so a put is an append and nothing is allocated per message.
class RecoveredMessages {
public:
    // False when `message.sequence` lies more than `maxGap` slots away from
    // the slots held (no running broker can have held such a gap).
    bool put(StoredMessage message, std::uint64_t maxGap);
    void remove(std::uint64_t sequence);

    std::size_t size() const { return live_; }
    bool empty() const { return live_ == 0; }
    std::uint64_t firstSequence() const { return base_; }  // when !empty()
    std::uint64_t lastSequence() const { return base_ + slots_.size() - 1; }
    const std::deque<StoredMessage>& slots() const { return slots_; }
    // Moves the slots out (firstSequence() is the first one's sequence).
    std::deque<StoredMessage> takeSlots() { return std::move(slots_); }

private:
    void trim();

    std::deque<StoredMessage> slots_;
    std::uint64_t base_ = 0;
    std::size_t live_ = 0;
};

struct RecoveredChannel {
    std::uint64_t nextSequence = 1;
    std::int64_t lastTimestamp = 0;
    RecoveredMessages messages;
};

struct RecoveredDelay {
    std::string channel;
    StoredMessage message;
};

// The queues as the durable store's records describe them: what the engine
// starts from after a restart. Built by applying records in file order; every
// record is idempotent (a Put of a present sequence overwrites it, a Remove of
// an absent one does nothing), which is what lets a snapshot overlap the log.
// Not thread-safe; used by one thread during recovery.
struct RecoveredState {
    std::map<std::string, RecoveredChannel, std::less<>> channels;
    std::map<std::uint64_t, RecoveredDelay> delayed;  // by delay id
    std::uint64_t nextDelayId = 1;
    // Larger gaps between a channel's sequences are taken for corruption.
    std::uint64_t maxSequenceGap = std::uint64_t{1} << 28;

    // False when the record cannot be applied (treated as a corrupt record).
    bool apply(StoreRecord record);

    std::size_t messageCount() const;
    // The footprint (store_record.h) of everything live.
    std::size_t liveBytes() const;
    // Every live entry as the frames a snapshot consists of.
    void forEachFrame(const std::function<void(std::string& frames)>& sink) const;
};

}  // namespace qs::broker
