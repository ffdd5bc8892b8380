#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

#include "common/name.h"
#include "events/event.h"
#include "run/spilling_chunks.h"
#include "run/text_log.h"

namespace qs::run {

// The events of a run in stream order, stored compactly: a 48-byte row per
// event instead of a 160-byte Event. Names stay Names (4-byte ids); the
// message id, transaction and detail become ids in a TextLog of this store;
// the three numbers (sequence, value, count2) take 4 bytes each when they fit
// and a side entry of their own when one does not (a sequence past 2^32 - 2,
// a value or count2 outside int32: a duration of seconds in ns), so every
// event reads back exactly as it went in.
//
// at(i) decodes event i into a qs::Event (by value: a copy of its texts);
// timeNs(i), kind(i) and channel(i) read one field without decoding. Old rows
// may live in a spill file (spillTo), read back a chunk at a time.
//
// Threading: none (that of its owner, the Run).
class EventStore {
public:
    static constexpr std::size_t kMaxEvents = std::numeric_limits<std::uint32_t>::max() - 1;

    // maxEvents / maxTexts lower the limits (for tests of what happens there).
    // textGeneration: see TextLog (how many new texts a text stays findable).
    explicit EventStore(std::size_t maxEvents = kMaxEvents,
                        std::size_t maxTexts = TextLog::kMaxTexts,
                        std::size_t textGeneration = TextLog::kDefaultGeneration);

    // Returns the TextLog id of the event's message id (TextLog::kEmpty for
    // none): the one hash of that id a Run pays, its key in the head ledger.
    // Throws std::length_error past maxEvents events or maxTexts distinct
    // texts, std::bad_alloc; the store is unchanged then.
    std::uint32_t push_back(const Event& event);

    std::size_t size() const { return rows_.size(); }
    bool empty() const { return rows_.empty(); }
    Event at(std::size_t index) const;  // index < size()
    Event operator[](std::size_t index) const { return at(index); }
    std::int64_t timeNs(std::size_t index) const { return rows_[index].timeNs; }
    EventKind kind(std::size_t index) const { return rows_[index].kind; }
    Name channel(std::size_t index) const { return rows_[index].channel; }
    // The TextLog id event `index` named its message id by (kEmpty: none).
    std::uint32_t messageText(std::size_t index) const { return rows_[index].messageId; }

    std::size_t memoryBytes() const;  // rows, texts and wide numbers (in RAM)
    // Old rows and old texts leave RAM for `file` (SpillingChunks::spillTo,
    // TextLog::spillTo).
    void spillTo(const std::shared_ptr<SpillFile>& file, std::size_t chunksInRam) {
        rows_.spillTo(file, chunksInRam);
        texts_.spillTo(file);
    }
    const std::string& spillError() const {
        return rows_.spillError().empty() ? texts_.spillError() : rows_.spillError();
    }
    std::uint64_t spilledBytes() const { return rows_.spilledBytes() + texts_.spilledBytes(); }
    std::size_t textCount() const { return texts_.size(); }
    // The events' texts (ids, transactions, details); a recent one is kept
    // once (TextLog).
    const TextLog& texts() const { return texts_; }

private:
    struct Row {
        std::int64_t timeNs;
        Name actor;
        Name channel;
        std::uint32_t messageId;  // TextLog ids
        std::uint32_t transaction;
        std::uint32_t detail;
        std::int32_t receiveCount;
        std::uint32_t sequence;  // or, when wide, the index in wide_
        std::int32_t value;
        std::int32_t count2;
        EventKind kind;
        EventSource source;
        bool wide;  // sequence / value / count2 are in wide_[sequence]
    };
    static_assert(sizeof(Row) == 48);

    struct WideNumbers {
        std::uint64_t sequence;
        std::int64_t value;
        std::int64_t count2;
    };

    static constexpr std::size_t kTextFields = 3;  // messageId, transaction, detail
    std::uint32_t textId(std::size_t field, std::string_view text);

    const std::size_t maxEvents_;
    SpillingChunks<Row, 16384> rows_;  // 768 KiB a chunk
    TextLog texts_;
    std::vector<WideNumbers> wide_;
    std::uint32_t lastText_[kTextFields] = {};  // each field's previous text id
};

}  // namespace qs::run
