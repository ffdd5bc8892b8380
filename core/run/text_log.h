#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "run/spill_file.h"
#include "run/spilling_chunks.h"
#include "run/zeroed_array.h"

namespace qs::run {

// The texts of a run's events (message ids, transaction ids, details), each
// named by a 32-bit id, in a log whose old part can leave RAM: what lets a
// long live run keep its memory flat (docs/run.md, "A flat live run").
//
// A text is found by its text only while it is recent: among the last one
// to two generations of `generation` new texts. intern() of a text seen
// before that gives it a new id, so one text may have several ids (each
// reads back the same text). Callers that need one identity per message
// keep their own (the head Ledger finds its records by text as well as by
// id; the ChangeLog by the ledger's record). In exchange the lookup tables
// have a fixed size: no growth, no rehash of millions of texts in one call.
//
// Memory: in RAM, two tables of 8-byte slots (up to 2 x 2 x generation), the
// newest ids' places and the newest texts' bytes; with spillTo(), older
// places and bytes go to the spill file and are read back, a chunk at a
// time, when text() asks for them. Texts longer than a chunk (64 KiB) stay
// in RAM.
//
// Threading: none, not even for const reads (they fill caches); that of its
// owner, the Run.
class TextLog {
public:
    static constexpr std::uint32_t kEmpty = 0;
    // Ids a log hands out at most (1 .. this).
    static constexpr std::size_t kMaxTexts = std::numeric_limits<std::uint32_t>::max() - 1;
    static constexpr std::size_t kDefaultGeneration = std::size_t{1} << 16;

    explicit TextLog(std::size_t maxTexts = kMaxTexts, std::size_t generation = kDefaultGeneration);
    TextLog(const TextLog&) = delete;
    TextLog& operator=(const TextLog&) = delete;

    // The id of a recent text equal to `text` (kEmpty for ""), else a new id.
    // Throws std::length_error when a new id would pass maxTexts (the log
    // is unchanged then), std::bad_alloc.
    std::uint32_t intern(std::string_view text);
    // The id of a recent text equal to `text`, else kEmpty (also for "").
    std::uint32_t find(std::string_view text) const;
    bool contains(std::string_view text) const { return text.empty() || find(text) != kEmpty; }
    // New ids intern() still hands out.
    std::size_t room() const { return maxTexts_ - size(); }
    // The text of `id` (from intern()). Valid until the next call on this log:
    // its bytes may sit in a cache slot that the next read reuses.
    std::string_view text(std::uint32_t id) const;
    std::size_t size() const { return places_.size(); }  // ids handed out
    std::size_t memoryBytes() const;

    // From now on the places and bytes of old texts leave RAM for `file`
    // (SpillingChunks::spillTo); a failed write keeps them in RAM.
    void spillTo(const std::shared_ptr<SpillFile>& file);
    std::uint64_t spilledBytes() const { return places_.spilledBytes() + bytes_.spilledBytes(); }
    const std::string& spillError() const {
        return places_.spillError().empty() ? bytes_.spillError() : places_.spillError();
    }

private:
    static constexpr std::size_t kChunkBytes = std::size_t{1} << 16;
    static constexpr std::size_t kPlacesPerChunk = 4096;
    // Chunks of bytes kept in RAM besides the one being filled, at most: 4
    // MiB, the bytes of two generations of ids of 32 bytes. Fewer when the
    // texts are shorter: the bytes of forgotten generations go at once.
    static constexpr std::size_t kMaxByteChunksInRam = 64;

    struct Slot {
        std::uint32_t id;   // 0 = free
        std::uint32_t tag;  // the hash's high bits: most mismatches without reading the text
    };
    // Open addressing, linear probing, at most half full; zeroed, so its
    // pages are touched as it fills.
    class Table {
    public:
        explicit Table(std::size_t slots) : slots_(slots) {}
        std::size_t mask() const { return slots_.size() - 1; }
        Slot& operator[](std::size_t slot) { return slots_[slot]; }
        const Slot& operator[](std::size_t slot) const { return slots_[slot]; }
        void clear();
        std::size_t used = 0;

    private:
        ZeroedArray<Slot> slots_;
    };
    // Where a text is: (offset in the byte log << 20 | length), or for a long
    // text (length field kLong) its index in long_.
    static constexpr std::uint64_t kLengthBits = 20;
    static constexpr std::uint64_t kLong = (std::uint64_t{1} << kLengthBits) - 1;

    static std::uint64_t hashOf(std::string_view text);
    // The slot of `table` holding `text`, or the free slot where it would go.
    std::size_t slotOf(const Table& table, std::string_view text, std::uint64_t hash) const;
    std::uint64_t store(std::string_view text);
    void newGeneration();
    void growYoung();

    static constexpr std::size_t kFirstSlots = 64;

    const std::size_t maxTexts_;
    const std::size_t generation_;
    const std::size_t fullSlots_;  // a generation's table, at most half full
    SpillingChunks<std::uint64_t, kPlacesPerChunk> places_;  // id - 1 -> where its text is
    SpillingChunks<char, kChunkBytes> bytes_;                // the texts, none across chunks
    std::vector<std::string> long_;                          // texts longer than a chunk
    Table young_;  // the newest texts, up to generation_
    Table old_;    // the generation before
    std::size_t youngBytesFrom_ = 0;  // where the young generation's bytes begin
};

}  // namespace qs::run
