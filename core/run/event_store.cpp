#include "run/event_store.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace qs::run {

namespace {

bool fitsInt32(std::int64_t n) {
    return n >= std::numeric_limits<std::int32_t>::min() &&
           n <= std::numeric_limits<std::int32_t>::max();
}

bool fitsUint32(std::uint64_t n) { return n <= std::numeric_limits<std::uint32_t>::max(); }

}  // namespace

EventStore::EventStore(std::size_t maxEvents, std::size_t maxTexts, std::size_t textGeneration)
    : maxEvents_(std::min(maxEvents, kMaxEvents)), texts_(maxTexts, textGeneration) {}

std::uint32_t EventStore::push_back(const Event& e) {
    if (rows_.size() >= maxEvents_)
        throw std::length_error("a run holds at most " + std::to_string(maxEvents_) + " events");
    const std::string_view texts[kTextFields] = {e.messageId.view(), e.transaction.view(),
                                                 e.detail};
    // Near the text limit, count the texts this event adds first, so a
    // refusal adds none of them (further from it, three always fit).
    if (texts_.room() < kTextFields) {
        std::size_t added = 0;
        for (std::size_t i = 0; i < kTextFields; ++i) {
            const bool repeat = std::find(texts, texts + i, texts[i]) != texts + i;
            added += !texts[i].empty() && !repeat && !texts_.contains(texts[i]) ? 1 : 0;
        }
        if (added > texts_.room())
            throw std::length_error("a run's events hold at most " +
                                    std::to_string(texts_.size() + texts_.room()) + " texts");
    }
    const std::uint32_t messageId = textId(0, texts[0]);
    const std::uint32_t transaction = textId(1, texts[1]);
    const std::uint32_t detail = textId(2, texts[2]);
    Row row{};
    row.timeNs = e.timeNs;
    row.actor = e.actor;
    row.channel = e.channel;
    row.receiveCount = e.receiveCount;
    row.kind = e.kind;
    row.source = e.source;
    row.wide = !(fitsUint32(e.sequence) && fitsInt32(e.value) && fitsInt32(e.count2));
    if (row.wide) {
        row.sequence = static_cast<std::uint32_t>(wide_.size());
        wide_.push_back({e.sequence, e.value, e.count2});
    } else {
        row.sequence = static_cast<std::uint32_t>(e.sequence);
        row.value = static_cast<std::int32_t>(e.value);
        row.count2 = static_cast<std::int32_t>(e.count2);
    }
    row.messageId = messageId;
    row.transaction = transaction;
    row.detail = detail;
    rows_.push_back(row);
    return messageId;
}

// The previous event's text in the same field is the likeliest (a batch's
// transaction, a message's events one after another): compared before hashing.
std::uint32_t EventStore::textId(std::size_t field, std::string_view text) {
    if (text.empty())
        return TextLog::kEmpty;
    if (texts_.text(lastText_[field]) != text)
        lastText_[field] = texts_.intern(text);
    return lastText_[field];
}

Event EventStore::at(std::size_t index) const {
    const Row& row = rows_[index];
    Event e;
    e.timeNs = row.timeNs;
    e.kind = row.kind;
    e.source = row.source;
    e.receiveCount = row.receiveCount;
    e.actor = row.actor;
    e.channel = row.channel;
    if (row.wide) {
        const WideNumbers& n = wide_[row.sequence];
        e.sequence = n.sequence;
        e.value = n.value;
        e.count2 = n.count2;
    } else {
        e.sequence = row.sequence;
        e.value = row.value;
        e.count2 = row.count2;
    }
    e.messageId = texts_.text(row.messageId);
    e.transaction = texts_.text(row.transaction);
    e.detail = texts_.text(row.detail);
    return e;
}

std::size_t EventStore::memoryBytes() const {
    return rows_.memoryBytes() + texts_.memoryBytes() + wide_.capacity() * sizeof(WideNumbers);
}

}  // namespace qs::run
