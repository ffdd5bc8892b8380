#include "run/change_log.h"

#include <array>
#include <cstddef>
#include <cstring>
#include <type_traits>

namespace qs::run {
namespace {

// The summary is diffed and restored word by word, so every field it gains
// is tracked with no change here.
static_assert(std::is_trivially_copyable_v<LedgerSummary>);
static_assert(sizeof(LedgerSummary) % sizeof(std::uint64_t) == 0);
constexpr std::size_t kSummaryWords = sizeof(LedgerSummary) / sizeof(std::uint64_t);
using SummaryWords = std::array<std::uint64_t, kSummaryWords>;
// Changes with every event: a state after n events has n here (RunState::events).
constexpr std::size_t kEventsAppliedWord = offsetof(LedgerSummary, eventsApplied) / 8;

SummaryWords wordsOf(const LedgerSummary& summary) {
    SummaryWords words;
    std::memcpy(words.data(), &summary, sizeof summary);
    return words;
}

void setWord(LedgerSummary& summary, std::size_t word, std::uint64_t value) {
    std::memcpy(reinterpret_cast<unsigned char*>(&summary) + word * sizeof value, &value,
                sizeof value);
}

// Interning a name costs a lookup; a message's worker and channel rarely change.
Name sameOrNew(const Name* before, std::string_view text) {
    if (before != nullptr && *before == text)
        return *before;
    return Name(text);
}

}  // namespace

MessageAt ChangeLog::viewOf(const MessageRecord& m, const MessageAt* before) {
    MessageAt view;
    view.state = m.state;
    view.deliveries = m.deliveryCount;
    if (!m.deliveries.empty()) {
        const DeliveryRecord& latest = m.deliveries.back();
        view.receiveCount = latest.receiveCount;
        view.worker = sameOrNew(before ? &before->worker : nullptr, latest.worker);
    }
    view.channel = sameOrNew(before ? &before->channel : nullptr, m.channel);
    return view;
}

void ChangeLog::messageChanged(const MessageRecord& m) {
    const auto found = index_.find(std::string_view(m.messageId));
    if (found == index_.end()) {
        const auto row = static_cast<std::uint32_t>(messages_.size());
        ids_.emplace_back(m.messageId);
        index_.emplace(ids_.back().view(), row);
        messages_.push_back(viewOf(m, nullptr));
        messageChanges_.push_back({event_, row, messages_.back()});
        markChanged(row);
        return;
    }
    const std::uint32_t row = found->second;
    MessageAt& head = messages_[row];
    const MessageAt after = viewOf(m, &head);
    if (after == head)
        return;
    head = after;
    messageChanges_.push_back({event_, row, after});
    markChanged(row);
}

void ChangeLog::workerChanged(const WorkerStats& w) {
    auto found = workerRows_.find(w.worker);
    if (found == workerRows_.end()) {
        found = workerRows_.emplace(w.worker, static_cast<std::uint32_t>(workers_.size())).first;
        workers_.emplace_back().worker = Name(w.worker);
        // The first change of a row creates it in a replay.
        workerChanges_.push_back({event_, found->second * kWorkerFields + kLifecycleField, 0});
    }
    const std::uint32_t row = found->second;
    WorkerAt& head = workers_[row];
    const WorkerCounts counts = workerCounts(w);
    for (std::uint32_t field = 0; field < kWorkerCounterCount; ++field) {
        if (counts[field] != head.counts[field]) {
            head.counts[field] = counts[field];
            workerChanges_.push_back({event_, row * kWorkerFields + field, counts[field]});
        }
    }
    if (w.lastLifecycle != head.lifecycle) {
        head.lifecycle = w.lastLifecycle;
        const std::int64_t kind =
            w.lastLifecycle ? static_cast<std::int64_t>(*w.lastLifecycle) + 1 : 0;
        workerChanges_.push_back({event_, row * kWorkerFields + kLifecycleField, kind});
    }
}

void ChangeLog::end(const LedgerSummary& summary) {
    const SummaryWords before = wordsOf(summary_);
    const SummaryWords after = wordsOf(summary);
    for (std::size_t word = 0; word < kSummaryWords; ++word) {
        if (word != kEventsAppliedWord && before[word] != after[word]) {
            summaryChanges_.push_back(
                {event_, static_cast<std::uint32_t>(word), static_cast<std::int64_t>(after[word])});
        }
    }
    summary_ = summary;
}

void ChangeLog::setWorkerField(WorkerAt& worker, std::uint32_t field, std::int64_t value) {
    if (field == kLifecycleField) {
        worker.lifecycle =
            value == 0 ? std::nullopt : std::optional(static_cast<EventKind>(value - 1));
    } else {
        worker.counts[field] = value;
    }
}

void ChangeLog::replay(RunState& state, Offsets from, std::uint64_t toEvent) const {
    for (std::size_t i = from.messages; i < messageChanges_.size(); ++i) {
        const MessageChange& c = messageChanges_[i];
        if (c.event >= toEvent)
            break;
        if (c.message == state.messages.size()) {
            state.messages.push_back(c.after);
        } else {
            state.messages[c.message] = c.after;
        }
    }
    for (std::size_t i = from.workers; i < workerChanges_.size(); ++i) {
        const WordChange& c = workerChanges_[i];
        if (c.event >= toEvent)
            break;
        const std::uint32_t row = c.slot / kWorkerFields;
        if (row == state.workers.size())
            state.workers.emplace_back().worker = workers_[row].worker;
        setWorkerField(state.workers[row], c.slot % kWorkerFields, c.value);
    }
    for (std::size_t i = from.summary; i < summaryChanges_.size(); ++i) {
        const WordChange& c = summaryChanges_[i];
        if (c.event >= toEvent)
            break;
        setWord(state.summary, c.slot, static_cast<std::uint64_t>(c.value));
    }
}

ChangeLog::Offsets ChangeLog::offsets() const {
    return {messageChanges_.size(), workerChanges_.size(), summaryChanges_.size()};
}

std::optional<std::uint32_t> ChangeLog::messageIndex(std::string_view id) const {
    const auto found = index_.find(id);
    if (found == index_.end())
        return std::nullopt;
    return found->second;
}

void ChangeLog::markChanged(std::uint32_t message) {
    const std::uint32_t page = message / kPageSize;
    if (page >= pageChanged_.size())
        pageChanged_.resize(page + 1, false);
    if (!pageChanged_[page]) {
        pageChanged_[page] = true;
        changedPages_.push_back(page);
    }
}

std::vector<std::uint32_t> ChangeLog::takeChangedPages() {
    for (std::uint32_t page : changedPages_)
        pageChanged_[page] = false;
    std::vector<std::uint32_t> pages;
    pages.swap(changedPages_);
    return pages;
}

std::size_t ChangeLog::memoryBytes() const {
    std::size_t bytes =
        messageChanges_.capacity() * sizeof(MessageChange) +
        (workerChanges_.capacity() + summaryChanges_.capacity()) * sizeof(WordChange);
    bytes += messages_.capacity() * sizeof(MessageAt) + workers_.capacity() * sizeof(WorkerAt);
    // Ids: inline text plus the index's nodes (key, row, next pointer, cached hash) and buckets.
    bytes += ids_.size() * sizeof(ShortText);
    bytes += index_.size() * (sizeof(std::string_view) + 2 * sizeof(void*) + 8) +
             index_.bucket_count() * sizeof(void*);
    return bytes;
}

}  // namespace qs::run
