#pragma once

#include <cstddef>
#include <cstdint>

#include "run/spilling_chunks.h"

namespace qs::run {

// New values of numbered 64-bit words (a worker's counters, the ledger
// summary's words), event by event, oldest first, most in 8 bytes: a change
// is kept as its step from the word's previous value, and nearly every step
// is a small one (+1, -1). A step past 16 bits takes one more entry (32
// bits), a bigger one the whole value in two more; a slot past 16,383 takes
// one more again.
//
// Steps are exact only when replayed in order onto the values the words had
// before them, which is how ChangeLog replays (from a checkpoint or a state
// of the same run). Threading: none (that of its owner).
class WordChanges {
public:
    // One change, read back: the word's new value is applyTo(its value before).
    struct Change {
        std::uint32_t slot = 0;
        std::int64_t value = 0;
        bool whole = false;  // value is the new value, not a step
        std::int64_t applyTo(std::int64_t before) const {
            return whole ? value
                         : static_cast<std::int64_t>(static_cast<std::uint64_t>(before) +
                                                     static_cast<std::uint64_t>(value));
        }
    };

    // Word `slot` went from `before` to `after` in event `event` (events in
    // non-decreasing order).
    void push(std::uint32_t event, std::uint32_t slot, std::int64_t before, std::int64_t after);

    // Positions are entries; a change starts at a position no extra entry
    // takes. firstFrom: the first position of a change of event `eventCount`
    // or later (size() if none).
    std::size_t size() const { return entries_.size(); }
    std::size_t firstFrom(std::uint64_t eventCount) const;

    // Calls visit(const Change&) for the changes from position `from` up to
    // the first of event `toEvent` or later.
    template <typename Visit>
    void forEach(std::size_t from, std::uint64_t toEvent, Visit&& visit) const {
        for (std::size_t i = from; i < entries_.size() && entries_[i].event < toEvent;)
            visit(read(i));
    }

    std::size_t memoryBytes() const { return entries_.memoryBytes(); }

    // Old entries leave RAM for `file` (SpillingChunks::spillTo).
    void spillTo(std::shared_ptr<SpillFile> file, std::size_t chunksInRam) {
        entries_.spillTo(std::move(file), chunksInRam);
    }
    const std::string& spillError() const { return entries_.spillError(); }
    std::uint64_t spilledBytes() const { return entries_.spilledBytes(); }

private:
    // The top two bits of `head` say how the change is stored: the step in
    // `low` (kSmall); the step in the next entry (kStep32); the whole value in
    // the next two (kWhole); the slot in the next entry, then the whole value
    // in two more (kWideSlot). Extra entries repeat the event (so a search by
    // event never lands on one) and carry 32 bits in head and low.
    struct Entry {
        std::uint32_t event;
        std::uint16_t head;  // format << 14 | slot (slot < 2^14)
        std::uint16_t low;
    };
    static_assert(sizeof(Entry) == 8);
    enum Format : std::uint16_t { kSmall = 0, kStep32 = 1, kWhole = 2, kWideSlot = 3 };
    static constexpr std::uint32_t kSlotLimit = 1u << 14;

    void pushBits(std::uint32_t event, std::uint32_t bits);
    std::uint32_t bitsAt(std::size_t index) const;
    Change read(std::size_t& index) const;  // moves index past the change

    SpillingChunks<Entry, 16384> entries_;
};

}  // namespace qs::run
