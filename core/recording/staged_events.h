#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/name.h"
#include "events/event.h"

// Staged events: a busy stretch of a run written as one compact blob per
// commit (the staged_events table, docs/recording.md) instead of one row per
// event, so the writer keeps up for a fraction of the CPU; the writer copies
// them into the events table once the run is idle, and at the latest when it
// closes. A reader decodes the blobs a killed run left behind.
//
// A blob is self-contained: per event, in protobuf varints (zigzag for signed
// numbers), the time since the previous event of the blob (relative to the
// recording's origin), kind, source, the actor's and channel's ids in the
// names table (0 = none), a flags byte saying which of message id,
// transaction and detail differ from the previous event's and how they
// follow (their length and bytes; or, from schema version 7, for a message
// id or transaction written earlier in the blob, how many texts back it was
// written), sequence, receive count, value and count2.
namespace qs::recording {

// Encodes chunks of events one after the other, each into a blob of its
// own, keeping its working memory (the table of the blob's texts, the
// buffer) between them. Not thread-safe: one thread at a time uses it
// (RecordingWriter::append(), under its lock).
class StagedEncoder {
public:
    // The encoding of `events`, valid until the next call. `nameIds` maps
    // every actor and channel of the events (empty names excepted) to its
    // names-table id.
    std::string_view encode(const std::vector<Event>& events, std::int64_t originNs,
                            const std::unordered_map<Name, std::int64_t>& nameIds);

private:
    // The table has room for this many texts of a blob (at most half full);
    // later ones are written in full every time.
    static constexpr std::size_t kMaxTextsPerTable = std::size_t{1} << 16;
    // A slot: the blob's generation (12 bits) and the text's number in
    // texts_, from 1 (20 bits).
    static constexpr unsigned kNumberBits = 20;
    static constexpr std::uint32_t kNumberMask = (std::uint32_t{1} << kNumberBits) - 1;
    static constexpr std::uint32_t kGenerationMask = 0xFFF;
    struct Listed {
        std::string_view text;  // in the events being encoded
        std::uint32_t hash = 0;
    };
    static constexpr std::uint32_t kNoSlot = ~std::uint32_t{0};
    struct Lookup {
        std::uint32_t number = 0;      // found: its place in texts_, from 1; 0 = not found
        std::uint32_t slot = kNoSlot;  // not found: where it goes in slots_
        std::uint32_t hash = 0;
    };
    void startBlob(std::size_t events);
    void reserve(std::size_t more);
    [[gnu::always_inline]] inline Lookup lookUp(std::string_view text) const;
    std::uint32_t back(const Lookup& found) const;
    void list(std::string_view text, const Lookup& lookup);

    std::vector<Listed> texts_;         // the blob's texts written in full, in order
    std::vector<std::uint32_t> slots_;  // open addressing, linear probing
    // The part of slots_ this blob uses, sized for its events: a table grown
    // once by a large batch would otherwise spread every later blob's
    // look-ups over all of it, each a cache miss.
    std::size_t tableSize_ = 0;
    std::uint32_t generation_ = 0;  // this blob's; a slot of another is free
    std::size_t inTable_ = 0;       // texts in slots_ this blob
    // The blob being written: a buffer of its own, grown and never zeroed
    // (appending to a std::string event by event cost more than the encoding).
    std::unique_ptr<std::uint8_t[]> bytes_;
    std::size_t capacity_ = 0;
    std::size_t size_ = 0;
};

// Appends the encoding of `events` to `out`, with an encoder of its own.
void encodeStagedEvents(const std::vector<Event>& events, std::int64_t originNs,
                        const std::unordered_map<Name, std::int64_t>& nameIds, std::string& out);

// Decodes `count` events from `blob`, calling `visit` with each in order;
// `names` maps names-table ids back (index 0 unused); `schemaVersion` is the
// file's (recording_schema.h): text references are read from version 7 on
// and refused before. False with *error saying what is wrong when the blob
// is damaged (truncated, unknown kind, an id not in `names`, a reference to
// no text, bytes left over); events already visited stay visited.
bool decodeStagedEvents(std::string_view blob, std::uint64_t count, std::int64_t originNs,
                        const std::vector<Name>& names, int schemaVersion,
                        const std::function<void(const Event&)>& visit, std::string* error);

}  // namespace qs::recording
