#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string_view>
#include <vector>

#include "run/chunked_vector.h"
#include "run/zeroed_array.h"

namespace qs::run {

// The distinct texts of one run's events (message ids, transaction ids,
// details), each kept once and named by a 32-bit id: a run of a million
// events repeats a message id on ~8 events and a detail on thousands, so an
// event row holds three ids instead of three strings.
//
// Id 0 is the empty text (no entry). Texts are copied once into blocks that
// never move, so a view from text() stays valid for the pool's life; nothing
// is ever removed. Memory per distinct text: its bytes, a 16-byte view and
// 16-32 bytes of hash slots (more while the slots double).
//
// Growth is incremental: when the slots are half full a table twice the size
// takes new texts, and each intern() moves the texts of four of the old
// table's slots into it by their stored hash bits (lookups ask both tables
// meanwhile), so no call moves every text at once: millions of texts are
// added at an even cost.
//
// Threading: none (that of its owner, the Run).
class TextPool {
public:
    static constexpr std::uint32_t kEmpty = 0;
    // Distinct non-empty texts a pool holds at most (ids 1 .. this).
    static constexpr std::size_t kMaxTexts = std::numeric_limits<std::uint32_t>::max() - 1;

    explicit TextPool(std::size_t maxTexts = kMaxTexts);
    TextPool(const TextPool&) = delete;
    TextPool& operator=(const TextPool&) = delete;

    // The id of `text` (kEmpty for ""), adding it when new. Throws
    // std::length_error when a new text would pass maxTexts (the pool is
    // unchanged then), std::bad_alloc.
    std::uint32_t intern(std::string_view text);
    bool contains(std::string_view text) const;  // "" is always there
    // The id of `text` if the pool holds it, else kEmpty (also for "").
    std::uint32_t find(std::string_view text) const;
    // New texts intern() still accepts.
    std::size_t room() const { return maxTexts_ - texts_.size(); }
    std::string_view text(std::uint32_t id) const {  // id from intern()
        return id == kEmpty ? std::string_view() : texts_[id - 1];
    }
    std::size_t size() const { return texts_.size(); }  // distinct non-empty texts
    std::size_t memoryBytes() const;

private:
    static constexpr std::size_t kBlockBytes = std::size_t{1} << 18;
    // Old table slots moved per intern() while growing: the old table's N
    // slots are all moved after N/4 interns, while the new table (2N slots,
    // N/2 texts at the start) is at most 3/8 full.
    static constexpr std::size_t kSlotsMovedPerIntern = 4;

    // Open addressing, linear probing: an id (0 = free; zeroed: a large
    // table's pages are touched as it fills) and the low 32 bits of its text's
    // hash. A probe compares texts only when those bits match (a text is read
    // from elsewhere in memory), and a move to a larger table (up to 2^32
    // slots) places a text by them without hashing it again.
    struct Slot {
        std::uint32_t id;
        std::uint32_t hashLow;
    };
    using Slots = ZeroedArray<Slot>;

    static std::size_t hashOf(std::string_view text);
    // The slot of `table` holding `text`'s id, or the free slot where it would go.
    std::size_t slotOf(const Slots& table, std::string_view text, std::size_t hash) const;
    std::uint32_t lookup(std::string_view text, std::size_t hash) const;
    std::string_view store(std::string_view text);
    void startGrowing();
    void moveOldTexts(std::size_t count);

    const std::size_t maxTexts_;
    ChunkedVector<std::string_view, 4096> texts_;      // id - 1 -> text
    Slots slots_;                                       // where new texts go
    Slots oldSlots_;                                    // moved into slots_ (size 0: none)
    std::size_t moveCursor_ = 0;  // oldSlots_ before this are moved
    std::vector<std::unique_ptr<char[]>> blocks_;       // the bytes of the texts
    std::size_t blockBytes_ = 0;                        // bytes of all blocks
    std::size_t blockUsed_ = kBlockBytes;               // of the newest shared block
    char* block_ = nullptr;                             // the newest shared block
};

}  // namespace qs::run
