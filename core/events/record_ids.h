#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

#include "events/linear_probe_slots.h"

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
// for a known bound (linear_probe_slots.h). Threading: that of its owner
// (the Ledger's messages).
template <typename Record, typename IdOf>
class RecordIds {
public:
    Record* find(std::string_view id) const {
        const std::size_t hash = hashOf(id);
        const Slot* s = slots_.find(
            hash, [&](const Slot& slot) { return slot.hash == hash && IdOf{}(*slot.record) == id; });
        return s != nullptr ? s->record : nullptr;
    }

    // Makes `record` (whose id no held record has) found by its id.
    void insert(Record* record) { slots_.insert(Slot{hashOf(IdOf{}(*record)), record}); }

    // Forgets `record` (held).
    void erase(const Record* record) {
        slots_.erase(hashOf(IdOf{}(*record)),
                     [record](const Slot& slot) { return slot.record == record; });
    }

    // Room for `count` records without growing.
    void reserve(std::size_t count) { slots_.reserve(count); }

    template <typename Visit>
    void forEach(Visit visit) const {
        slots_.forEach([&](const Slot& slot) { visit(*slot.record); });
    }

    void clear() { slots_.clear(); }
    std::size_t size() const { return slots_.size(); }
    std::size_t slotCount() const { return slots_.slotCount(); }
    std::size_t memoryBytes() const { return slots_.memoryBytes(); }

private:
    struct Slot {
        std::size_t hash = 0;
        Record* record = nullptr;  // nullptr = free
    };
    struct HashOfSlot {
        std::size_t operator()(const Slot& slot) const { return slot.hash; }
    };

    static std::size_t hashOf(std::string_view id) { return std::hash<std::string_view>{}(id); }

    LinearProbeSlots<Slot, HashOfSlot> slots_;
};

}  // namespace qs::ledger_detail
