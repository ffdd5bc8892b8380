#pragma once

#include <cstddef>
#include <cstdint>

#include "events/linear_probe_slots.h"

namespace qs::ledger_detail {

// Records found by a 32-bit key the caller gave their MessageID (a Run gives
// the id's TextLog id), so a lookup hashes an integer instead of the id's
// text: one probe into a flat table (linear probing, at most half full),
// where a string-keyed node map reads a bucket, the node before and the node.
// Key 0 means "none" and is never held.
//
// Growing rehashes every slot at once: reserve() ahead for a known bound.
// Erase shifts the following slots back (no tombstones), so the table never
// fills with dead slots in a long run (linear_probe_slots.h).
// Threading: that of its owner (the Ledger's messages).
template <typename Record>
class RecordKeys {
public:
    Record* find(std::uint32_t key) const {
        if (key == 0)
            return nullptr;
        const Slot* s =
            slots_.find(spread(key), [key](const Slot& slot) { return slot.key == key; });
        return s != nullptr ? s->record : nullptr;
    }

    // Makes `key` (not 0, not held) name `record` (not null).
    void insert(std::uint32_t key, Record* record) { slots_.insert(Slot{key, record}); }

    void erase(std::uint32_t key) {
        if (key != 0)
            slots_.erase(spread(key), [key](const Slot& slot) { return slot.key == key; });
    }

    // Room for `count` keys without growing.
    void reserve(std::size_t count) { slots_.reserve(count); }

    void clear() { slots_.clear(); }
    std::size_t size() const { return slots_.size(); }
    std::size_t slotCount() const { return slots_.slotCount(); }
    std::size_t memoryBytes() const { return slots_.memoryBytes(); }

private:
    struct Slot {
        std::uint32_t key = 0;
        Record* record = nullptr;  // nullptr = free
    };
    // Fibonacci hashing: a run's keys are dense (0, 1, 2...), spread them.
    static std::size_t spread(std::uint32_t key) {
        return static_cast<std::size_t>((std::uint64_t{key} * 0x9E3779B97F4A7C15ULL) >> 32);
    }
    struct HashOfSlot {
        std::size_t operator()(const Slot& slot) const { return spread(slot.key); }
    };

    LinearProbeSlots<Slot, HashOfSlot> slots_;
};

}  // namespace qs::ledger_detail
