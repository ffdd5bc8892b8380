#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "common/name.h"
#include "events/message_record.h"
#include "events/record_ids.h"
#include "events/record_keys.h"

namespace qs::ledger_detail {

// A message's record plus the bookkeeping the Ledger's public view does not need.
// (Ordered so that a map node of it fits a 256-byte allocation.)
struct Entry {
    MessageRecord rec;
    std::uint64_t finishStamp = 0;  // matches its newest finished-list entry while terminal
    // Its entry in the sequence index: the (channel, sequence) of its latest
    // hand-out (empty channel = none).
    std::uint64_t sequence = 0;
    Name sequenceChannel;
    std::uint32_t key = 0;  // the key the caller gave its MessageID (0 = none)
    bool countedExactlyOnce = false;
};

// The Ledger's messages, each record held once: found by MessageID (the key
// views the record's own id, no second copy), by the (channel, sequence) of
// its latest hand-out (broker events that name only the stored copy), and
// listed in the order they finished (what the ledger forgets first).
//
// A caller that numbers its MessageIDs (a Run: the id's TextLog id) finds a
// record by that key as well, an integer hashed instead of the id's text.
//
// The records are allocated one by one and never move while held; the
// indexes point at them, so a copy re-links them to its own records. A record
// leaves only through erase(). Threading: that of its Ledger.
class LedgerMessages {
public:
    LedgerMessages() = default;
    // A table for a ledger that keeps at most `maxFinished` finished records:
    // once it holds a few, its indexes are sized for those and a quarter as
    // many unfinished at once, so they never rehash thousands of records in
    // one call. An unbounded ledger (over kMaxSizedAhead) grows as it goes.
    explicit LedgerMessages(std::size_t maxFinished)
        : expected_(maxFinished <= kMaxSizedAhead ? maxFinished + maxFinished / 4 : 0) {}
    LedgerMessages(const LedgerMessages& other) { copyFrom(other); }
    LedgerMessages& operator=(const LedgerMessages& other);
    // The records stay where they are: the indexes move with them.
    LedgerMessages(LedgerMessages&& other) noexcept;
    LedgerMessages& operator=(LedgerMessages&& other) noexcept;
    ~LedgerMessages() { clear(); }

    Entry* find(std::string_view messageId);
    const Entry* find(std::string_view messageId) const;
    // By the key the caller gives the record's MessageID (see setKey).
    Entry* findByKey(std::uint32_t key) const { return byKey_.find(key); }
    // Makes `key` (not 0, naming no other held record) find `entry` as well.
    void setKey(Entry& entry, std::uint32_t key);
    // A new, empty record for `messageId` (not held yet).
    Entry& add(std::string_view messageId);
    // Forgets `entry`: its id, its key, its sequence index entry. Its finished-list
    // entries must be gone already (see takeOldestFinished()).
    void erase(Entry& entry);
    std::size_t size() const { return byId_.size(); }
    void clear();  // forgets every record
    void forEach(const std::function<void(const Entry&)>& visit) const;
    void forEach(const std::function<void(Entry&)>& visit);

    // The record whose latest hand-out was `sequence` in `channel`, if held.
    Entry* bySequence(Name channel, std::uint64_t sequence);
    // Makes (channel, sequence) name `entry` (and no longer its previous pair).
    void indexSequence(Entry& entry, Name channel, std::uint64_t sequence);

    // The finished list: (record, its finishStamp then), oldest first. An
    // entry whose record's finishStamp has changed since is stale.
    void noteFinished(Entry& entry) { finished_.emplace_back(&entry, entry.finishStamp); }
    std::size_t finishedListSize() const { return finished_.size(); }
    bool finishedListEmpty() const { return finished_.empty(); }
    std::pair<Entry*, std::uint64_t> takeOldestFinished();
    void dropStaleFinished();

    // Bytes held by the records and the indexes (an estimate from sizes: map
    // nodes, buckets, deliveries, heap strings past the inline ones).
    std::size_t memoryBytes() const;

private:
    struct SequenceKey {
        Name channel;
        std::uint64_t sequence = 0;
        bool operator==(const SequenceKey&) const = default;
    };
    struct SequenceKeyHash {
        std::size_t operator()(const SequenceKey& key) const noexcept {
            return std::hash<Name>{}(key.channel) * 0x9E3779B97F4A7C15ULL ^
                   std::hash<std::uint64_t>{}(key.sequence);
        }
    };

    struct IdOf {
        std::string_view operator()(const Entry& entry) const { return entry.rec.messageId.view(); }
    };

    void copyFrom(const LedgerMessages& other);
    Entry& insert(Entry entry);
    void reserveAhead();

    // Records held when the indexes are sized for expected_: a rehash of
    // this many is cheap, and a ledger that stays smaller pays nothing.
    static constexpr std::size_t kReserveAt = 1024;
    static constexpr std::size_t kMaxSizedAhead = std::size_t{1} << 20;
    std::size_t expected_ = 0;  // 0 = grow as it goes

    RecordIds<Entry, IdOf> byId_;  // owns the records it points at
    std::unordered_map<SequenceKey, Entry*, SequenceKeyHash> bySequence_;
    RecordKeys<Entry> byKey_;  // the records given a key
    std::deque<std::pair<Entry*, std::uint64_t>> finished_;
};

}  // namespace qs::ledger_detail
