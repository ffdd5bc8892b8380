#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace qs::ledger_detail {

// Records found by a 32-bit key the caller gave their MessageID (a Run gives
// the id's TextPool id), so a lookup hashes an integer instead of the id's
// text: one probe into a flat table (linear probing, at most half full),
// where a string-keyed node map reads a bucket, the node before and the node.
// Key 0 means "none" and is never held.
//
// Growing rehashes every slot at once: reserve() ahead for a known bound.
// Erase shifts the following slots back (no tombstones), so the table never
// fills with dead slots in a long run.
// Threading: that of its owner (the Ledger's messages).
template <typename Record>
class RecordKeys {
public:
    Record* find(std::uint32_t key) const {
        if (slots_.empty() || key == 0)
            return nullptr;
        for (std::size_t at = home(key);; at = (at + 1) & mask()) {
            const Slot& s = slots_[at];
            if (s.key == key)
                return s.record;
            if (s.key == 0)
                return nullptr;
        }
    }

    // Makes `key` (not 0, not held) name `record`.
    void insert(std::uint32_t key, Record* record) {
        if ((size_ + 1) * 2 > slots_.size())
            rehash(slots_.empty() ? kMinSlots : slots_.size() * 2);
        place(key, record);
        ++size_;
    }

    void erase(std::uint32_t key) {
        if (slots_.empty() || key == 0)
            return;
        std::size_t hole = home(key);
        while (slots_[hole].key != key) {
            if (slots_[hole].key == 0)
                return;
            hole = (hole + 1) & mask();
        }
        // Shift back each later slot of the run that may sit at the hole.
        for (std::size_t next = (hole + 1) & mask(); slots_[next].key != 0;
             next = (next + 1) & mask()) {
            const std::size_t want = home(slots_[next].key);
            const bool pastHole = ((next - want) & mask()) >= ((next - hole) & mask());
            if (pastHole) {
                slots_[hole] = slots_[next];
                hole = next;
            }
        }
        slots_[hole] = Slot{};
        --size_;
    }

    // Room for `count` keys without growing.
    void reserve(std::size_t count) {
        std::size_t want = kMinSlots;
        while (want < count * 2)
            want *= 2;
        if (want > slots_.size())
            rehash(want);
    }

    void clear() {
        slots_.clear();
        size_ = 0;
    }
    std::size_t size() const { return size_; }
    std::size_t memoryBytes() const { return slots_.capacity() * sizeof(Slot); }

private:
    struct Slot {
        std::uint32_t key = 0;
        Record* record = nullptr;
    };
    static constexpr std::size_t kMinSlots = 64;

    std::size_t mask() const { return slots_.size() - 1; }
    // Fibonacci hashing: a run's keys are dense (0, 1, 2...), spread them.
    std::size_t home(std::uint32_t key) const {
        return static_cast<std::size_t>((std::uint64_t{key} * 0x9E3779B97F4A7C15ULL) >> 32) &
               mask();
    }
    void place(std::uint32_t key, Record* record) {
        std::size_t at = home(key);
        while (slots_[at].key != 0)
            at = (at + 1) & mask();
        slots_[at] = Slot{key, record};
    }
    void rehash(std::size_t slotCount) {
        std::vector<Slot> old(slotCount);
        old.swap(slots_);
        for (const Slot& s : old)
            if (s.key != 0)
                place(s.key, s.record);
    }

    std::vector<Slot> slots_;  // a power of two long, or empty
    std::size_t size_ = 0;
};

}  // namespace qs::ledger_detail
