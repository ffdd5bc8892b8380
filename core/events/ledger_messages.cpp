#include "events/ledger_messages.h"

#include <algorithm>
#include <memory>
#include <string>

namespace qs::ledger_detail {

LedgerMessages& LedgerMessages::operator=(const LedgerMessages& other) {
    if (this != &other) {
        clear();
        copyFrom(other);
    }
    return *this;
}

LedgerMessages::LedgerMessages(LedgerMessages&& other) noexcept
    : expected_(other.expected_),
      byId_(std::move(other.byId_)),
      bySequence_(std::move(other.bySequence_)),
      byKey_(std::move(other.byKey_)),
      finished_(std::move(other.finished_)) {
    other.byId_.clear();  // the records are this table's now
    other.bySequence_.clear();
    other.byKey_.clear();
    other.finished_.clear();
}

LedgerMessages& LedgerMessages::operator=(LedgerMessages&& other) noexcept {
    if (this != &other) {
        clear();
        expected_ = other.expected_;
        std::swap(byId_, other.byId_);
        std::swap(bySequence_, other.bySequence_);
        std::swap(byKey_, other.byKey_);
        std::swap(finished_, other.finished_);
    }
    return *this;
}

void LedgerMessages::clear() {
    byId_.forEach([](Entry& entry) { delete &entry; });
    byId_.clear();
    bySequence_.clear();
    byKey_.clear();
    finished_.clear();
}

// The copies' links must point at this table's records, not at `other`'s.
void LedgerMessages::copyFrom(const LedgerMessages& other) {
    expected_ = other.expected_;
    std::unordered_map<const Entry*, Entry*> copyOf;
    copyOf.reserve(other.byId_.size());
    byId_.reserve(other.byId_.size());
    other.byId_.forEach([&](const Entry& entry) {
        Entry& copy = insert(entry);
        copyOf.emplace(&entry, &copy);
        if (copy.key != 0)
            byKey_.insert(copy.key, &copy);
    });
    for (const auto& [key, entry] : other.bySequence_)
        bySequence_.emplace(key, copyOf.at(entry));
    for (const auto& [entry, stamp] : other.finished_)
        finished_.emplace_back(copyOf.at(entry), stamp);
}

Entry& LedgerMessages::insert(Entry entry) {
    auto held = std::make_unique<Entry>(std::move(entry));
    byId_.insert(held.get());
    return *held.release();
}

Entry* LedgerMessages::find(std::string_view messageId) {
    return byId_.find(messageId);
}

const Entry* LedgerMessages::find(std::string_view messageId) const {
    return byId_.find(messageId);
}

Entry& LedgerMessages::add(std::string_view messageId) {
    if (byId_.size() == kReserveAt)
        reserveAhead();
    Entry entry;
    entry.rec.messageId = messageId;
    return insert(std::move(entry));
}

// A hash map rehashes all its records when it outgrows its buckets: with
// 100,000 records that is ~20 ms on the thread that appends (the console's
// UI thread). Sized once for the ledger's bound, a bounded ledger never does.
void LedgerMessages::reserveAhead() {
    if (expected_ * 2 <= byId_.slotCount())
        return;
    byId_.reserve(expected_);
    bySequence_.reserve(expected_);
    byKey_.reserve(expected_);
}

void LedgerMessages::setKey(Entry& entry, std::uint32_t key) {
    if (entry.key == key || key == 0)
        return;
    byKey_.erase(entry.key);
    byKey_.insert(key, &entry);
    entry.key = key;
}

void LedgerMessages::erase(Entry& entry) {
    byKey_.erase(entry.key);
    if (!entry.sequenceChannel.empty()) {
        const auto key = bySequence_.find({entry.sequenceChannel, entry.sequence});
        if (key != bySequence_.end() && key->second == &entry)
            bySequence_.erase(key);
    }
    byId_.erase(&entry);
    delete &entry;
}

void LedgerMessages::forEach(const std::function<void(const Entry&)>& visit) const {
    byId_.forEach([&](const Entry& entry) { visit(entry); });
}

void LedgerMessages::forEach(const std::function<void(Entry&)>& visit) {
    byId_.forEach([&](Entry& entry) { visit(entry); });
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
    // A map node: the next pointer and the cached hash besides the value; a
    // record: the allocator's header besides it.
    constexpr std::size_t kNodeOverhead = 2 * sizeof(void*);
    std::size_t bytes = byId_.memoryBytes() + byId_.size() * (sizeof(void*) + sizeof(Entry));
    byId_.forEach([&](const Entry& entry) {
        const MessageRecord& rec = entry.rec;
        bytes += heapBytes(rec.messageId) + heapBytes(rec.endDetail) +
                 rec.deliveries.capacity() * sizeof(DeliveryRecord);
        for (const DeliveryRecord& d : rec.deliveries)
            bytes += heapBytes(d.transaction);
    });
    bytes += bySequence_.bucket_count() * sizeof(void*) +
             bySequence_.size() * (kNodeOverhead + sizeof(SequenceKey) + sizeof(Entry*));
    bytes += finished_.size() * sizeof(std::pair<Entry*, std::uint64_t>);
    bytes += byKey_.memoryBytes();
    return bytes;
}

}  // namespace qs::ledger_detail
