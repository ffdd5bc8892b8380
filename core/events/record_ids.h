#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace qs::ledger_detail {

// Records found by their MessageID's text: a flat table of (hash, record)
// (linear probing, at most half full). The records are not owned and must
// not move while held; IdOf(record) gives the id's text.
//
// Why not a node map: a std::unordered_map finds a key by reading its bucket,
// the node before and the node, and erasing one also reads the next node and
// its bucket; a bounded ledger erases an old (cold) record for every one it
// adds, so that was four or five cache misses per message. Here a probe reads
// a slot (the hash is in it) and the record only when the hash matches, and
// an erase shifts the following slots back without reading their records.
//
// Growing rehashes every slot at once (no record is read): reserve() ahead
// for a known bound. Threading: that of its owner (the Ledger's messages).
template <typename Record, typename IdOf>
class RecordIds {
public:
    Record* find(std::string_view id) const { return find(id, hashOf(id)); }

    // Makes `record` (whose id no held record has) found by its id.
    void insert(Record* record) {
        if ((size_ + 1) * 2 > slots_.size())
            rehash(slots_.empty() ? kMinSlots : slots_.size() * 2);
        place(Slot{hashOf(IdOf{}(*record)), record});
        ++size_;
    }

    // Forgets `record` (held).
    void erase(const Record* record) {
        if (slots_.empty())
            return;
        std::size_t hole = hashOf(IdOf{}(*record)) & mask();
        while (slots_[hole].record != record) {
            if (slots_[hole].record == nullptr)
                return;
            hole = (hole + 1) & mask();
        }
        // Shift back each later slot of the run whose home is at or before the hole.
        for (std::size_t next = (hole + 1) & mask(); slots_[next].record != nullptr;
             next = (next + 1) & mask()) {
            const std::size_t want = slots_[next].hash & mask();
            if (((next - want) & mask()) >= ((next - hole) & mask())) {
                slots_[hole] = slots_[next];
                hole = next;
            }
        }
        slots_[hole] = Slot{};
        --size_;
    }

    // Room for `count` records without growing.
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
                visit(*s.record);
    }

    void clear() {
        slots_.clear();
        size_ = 0;
    }
    std::size_t size() const { return size_; }
    std::size_t slotCount() const { return slots_.size(); }
    std::size_t memoryBytes() const { return slots_.capacity() * sizeof(Slot); }

private:
    struct Slot {
        std::size_t hash = 0;
        Record* record = nullptr;  // nullptr = free
    };
    static constexpr std::size_t kMinSlots = 64;

    static std::size_t hashOf(std::string_view id) { return std::hash<std::string_view>{}(id); }
    std::size_t mask() const { return slots_.size() - 1; }

    Record* find(std::string_view id, std::size_t hash) const {
        if (slots_.empty())
            return nullptr;
        for (std::size_t at = hash & mask();; at = (at + 1) & mask()) {
            const Slot& s = slots_[at];
            if (s.record == nullptr)
                return nullptr;
            if (s.hash == hash && IdOf{}(*s.record) == id)
                return s.record;
        }
    }
    void place(const Slot& slot) {
        std::size_t at = slot.hash & mask();
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
