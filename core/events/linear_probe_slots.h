#pragma once

#include <cstddef>
#include <vector>

namespace qs::ledger_detail {

// The slots of a flat hash table with linear probing, at most half full, whose
// erase shifts the following slots of the run back (no tombstones, so a long
// run's erases never fill it with dead slots). Shared by the ledger's record
// indexes (record_ids.h, record_keys.h), which say what a slot holds and how
// a key is hashed. `Slot` has a `record` pointer (nullptr = free);
// `HashOf{}(slot)` is the hash a held slot was placed by. Growing rehashes
// every slot at once: reserve() ahead for a known bound.
// Threading: that of its owner.
template <typename Slot, typename HashOf>
class LinearProbeSlots {
public:
    // The held slot that `matches` among those probed from `hash`; nullptr if none.
    template <typename Matches>
    const Slot* find(std::size_t hash, Matches matches) const {
        if (slots_.empty())
            return nullptr;
        for (std::size_t at = hash & mask();; at = (at + 1) & mask()) {
            const Slot& s = slots_[at];
            if (s.record == nullptr)
                return nullptr;
            if (matches(s))
                return &s;
        }
    }

    // Holds `slot` (its key not held yet).
    void insert(const Slot& slot) {
        if ((size_ + 1) * 2 > slots_.size())
            rehash(slots_.empty() ? kMinSlots : slots_.size() * 2);
        place(slot);
        ++size_;
    }

    // Frees the held slot that `matches` among those probed from `hash`, if any.
    template <typename Matches>
    void erase(std::size_t hash, Matches matches) {
        if (slots_.empty())
            return;
        std::size_t hole = hash & mask();
        while (!matches(slots_[hole])) {
            if (slots_[hole].record == nullptr)
                return;
            hole = (hole + 1) & mask();
        }
        // Shift back each later slot of the run whose home is at or before the hole.
        for (std::size_t next = (hole + 1) & mask(); slots_[next].record != nullptr;
             next = (next + 1) & mask()) {
            const std::size_t home = HashOf{}(slots_[next]) & mask();
            if (((next - home) & mask()) >= ((next - hole) & mask())) {
                slots_[hole] = slots_[next];
                hole = next;
            }
        }
        slots_[hole] = Slot{};
        --size_;
    }

    // Room for `count` slots without growing.
    void reserve(std::size_t count) {
        std::size_t want = kMinSlots;
        while (want < count * 2)
            want *= 2;
        if (want > slots_.size())
            rehash(want);
    }

    template <typename Visit>
    void forEach(Visit visit) const {
        for (const Slot& s : slots_)
            if (s.record != nullptr)
                visit(s);
    }

    void clear() {
        slots_.clear();
        size_ = 0;
    }
    std::size_t size() const { return size_; }
    std::size_t slotCount() const { return slots_.size(); }
    std::size_t memoryBytes() const { return slots_.capacity() * sizeof(Slot); }

private:
    static constexpr std::size_t kMinSlots = 64;

    std::size_t mask() const { return slots_.size() - 1; }
    void place(const Slot& slot) {
        std::size_t at = HashOf{}(slot) & mask();
        while (slots_[at].record != nullptr)
            at = (at + 1) & mask();
        slots_[at] = slot;
    }
    void rehash(std::size_t slotCount) {
        std::vector<Slot> old(slotCount);
        old.swap(slots_);
        for (const Slot& s : old)
            if (s.record != nullptr)
                place(s);
    }

    std::vector<Slot> slots_;  // a power of two long, or empty
    std::size_t size_ = 0;
};

}  // namespace qs::ledger_detail
