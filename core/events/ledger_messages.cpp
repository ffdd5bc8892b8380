#include "events/ledger_messages.h"

#include <algorithm>
#include <string>

namespace qs::ledger_detail {

LedgerMessages& LedgerMessages::operator=(const LedgerMessages& other) {
    if (this != &other) {
        byId_.clear();
        bySequence_.clear();
        finished_.clear();
        copyFrom(other);
    }
    return *this;
}

// The copies' keys and links must point at this table's records, not at `other`'s.
void LedgerMessages::copyFrom(const LedgerMessages& other) {
    expected_ = other.expected_;
    std::unordered_map<const Entry*, Entry*> copyOf;
    copyOf.reserve(other.byId_.size());
    byId_.reserve(other.byId_.size());
    for (const auto& [id, entry] : other.byId_)
        copyOf.emplace(&entry, &insert(entry, id));
    for (const auto& [key, entry] : other.bySequence_)
        bySequence_.emplace(key, copyOf.at(entry));
    for (const auto& [entry, stamp] : other.finished_)
        finished_.emplace_back(copyOf.at(entry), stamp);
}

// Inserts `entry` keyed by a view of its own id, which lives in the map node
// (nodes never move): inserted under `callerId` (the same text, the caller's
// to keep until this returns), then re-keyed.
Entry& LedgerMessages::insert(Entry entry, std::string_view callerId) {
    auto node = byId_.extract(byId_.try_emplace(callerId, std::move(entry)).first);
    node.key() = node.mapped().rec.messageId;
    return byId_.insert(std::move(node)).position->second;
}

Entry* LedgerMessages::find(std::string_view messageId) {
    const auto it = byId_.find(messageId);
    return it == byId_.end() ? nullptr : &it->second;
}

const Entry* LedgerMessages::find(std::string_view messageId) const {
    const auto it = byId_.find(messageId);
    return it == byId_.end() ? nullptr : &it->second;
}

Entry& LedgerMessages::add(std::string_view messageId) {
    if (byId_.size() == kReserveAt)
        reserveAhead();
    Entry entry;
    entry.rec.messageId = messageId;
    return insert(std::move(entry), messageId);
}

// A hash map rehashes all its records when it outgrows its buckets: with
// 100,000 records that is ~20 ms on the thread that appends (the console's
// UI thread). Sized once for the ledger's bound, a bounded ledger never does.
void LedgerMessages::reserveAhead() {
    if (expected_ <= byId_.bucket_count())
        return;
    byId_.reserve(expected_);
    bySequence_.reserve(expected_);
}

void LedgerMessages::erase(Entry& entry) {
    if (!entry.sequenceChannel.empty()) {
        const auto key = bySequence_.find({entry.sequenceChannel, entry.sequence});
        if (key != bySequence_.end() && key->second == &entry)
            bySequence_.erase(key);
    }
    byId_.erase(std::string_view(entry.rec.messageId));
}

void LedgerMessages::forEach(const std::function<void(const Entry&)>& visit) const {
    for (const auto& [id, entry] : byId_)
        visit(entry);
}

void LedgerMessages::forEach(const std::function<void(Entry&)>& visit) {
    for (auto& [id, entry] : byId_)
        visit(entry);
}

Entry* LedgerMessages::bySequence(Name channel, std::uint64_t sequence) {
    const auto it = bySequence_.find({channel, sequence});
    return it == bySequence_.end() ? nullptr : it->second;
}

void LedgerMessages::indexSequence(Entry& entry, Name channel, std::uint64_t sequence) {
    if (entry.sequenceChannel == channel && entry.sequence == sequence)
        return;
    if (!entry.sequenceChannel.empty()) {
        const auto old = bySequence_.find({entry.sequenceChannel, entry.sequence});
        if (old != bySequence_.end() && old->second == &entry)
            bySequence_.erase(old);
    }
    bySequence_[{channel, sequence}] = &entry;
    entry.sequenceChannel = channel;
    entry.sequence = sequence;
}

std::pair<Entry*, std::uint64_t> LedgerMessages::takeOldestFinished() {
    const auto oldest = finished_.front();
    finished_.pop_front();
    return oldest;
}

// A record leaves only when its newest finished-list entry is taken, and its
// older entries come before that one, so every entry still listed points at a
// held record.
void LedgerMessages::dropStaleFinished() {
    std::erase_if(finished_, [](const auto& f) { return f.first->finishStamp != f.second; });
}

namespace {

std::size_t heapBytes(const std::string& text) {
    return text.capacity() > std::string().capacity() ? text.capacity() + 1 : 0;
}

std::size_t heapBytes(const ShortText& text) {
    return text.size() > ShortText::kInlineCapacity ? text.size() : 0;
}

}  // namespace

std::size_t LedgerMessages::memoryBytes() const {
    // A map node: the next pointer, the cached hash, the key and the value.
    constexpr std::size_t kNodeOverhead = 2 * sizeof(void*);
    std::size_t bytes = byId_.bucket_count() * sizeof(void*) +
                        byId_.size() * (kNodeOverhead + sizeof(std::string_view) + sizeof(Entry));
    for (const auto& [id, entry] : byId_) {
        const MessageRecord& rec = entry.rec;
        bytes += heapBytes(rec.messageId) + heapBytes(rec.endDetail) +
                 rec.deliveries.capacity() * sizeof(DeliveryRecord);
        for (const DeliveryRecord& d : rec.deliveries)
            bytes += heapBytes(d.transaction);
    }
    bytes += bySequence_.bucket_count() * sizeof(void*) +
             bySequence_.size() * (kNodeOverhead + sizeof(SequenceKey) + sizeof(Entry*));
    bytes += finished_.size() * sizeof(std::pair<Entry*, std::uint64_t>);
    return bytes;
}

}  // namespace qs::ledger_detail
