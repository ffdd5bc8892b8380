#include "run/change_log.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <type_traits>

namespace qs::run {
namespace {

// The summary is diffed and restored word by word, so every field it gains
// is tracked with no change here.
static_assert(std::is_trivially_copyable_v<LedgerSummary>);
static_assert(sizeof(LedgerSummary) % sizeof(std::uint64_t) == 0);
constexpr std::size_t kSummaryWords = sizeof(LedgerSummary) / sizeof(std::uint64_t);

std::uint64_t wordOf(const LedgerSummary& summary, std::size_t word) {
    std::uint64_t value = 0;
    std::memcpy(&value, reinterpret_cast<const unsigned char*>(&summary) + word * sizeof value,
                sizeof value);
    return value;
}

void setWord(LedgerSummary& summary, std::size_t word, std::uint64_t value) {
    std::memcpy(reinterpret_cast<unsigned char*>(&summary) + word * sizeof value, &value,
                sizeof value);
}

}  // namespace

Name ChangeLog::NameCache::of(std::string_view text) {
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
        if (it->first == text) {
            std::iter_swap(it, entries_.rbegin());  // the next lookup is likely the same
            return entries_.back().second;
        }
    }
    if (entries_.size() == kMaxEntries)
        entries_.erase(entries_.begin());
    entries_.emplace_back(std::string(text), Name(text));
    return entries_.back().second;
}

// Called for every message event, most of which change nothing it shows:
// names are looked up by text only when they may have changed.
MessageAt ChangeLog::viewOf(const MessageRecord& m, const MessageAt* before) {
    MessageAt view;
    view.state = m.state;
    view.deliveries = m.deliveryCount;
    if (!m.deliveries.empty()) {
        const DeliveryRecord& latest = m.deliveries.back();
        view.receiveCount = latest.receiveCount;
        // A hand-out's worker is set once (when it is first reported by a side that names it).
        const bool sameHandOut =
            before != nullptr && before->deliveries == m.deliveryCount && !before->worker.empty();
        view.worker = sameHandOut ? before->worker : workerNames_.of(latest.worker);
    }
    view.channel = channelNames_.of(m.channel);
    return view;
}

std::uint32_t ChangeLog::messageRow(const MessageRecord& m, bool& created) {
    created = false;
    if (m.ordinal < rowOfRecord_.size())
        return rowOfRecord_[m.ordinal];
    // A new record: a new message, or one the ledger forgot and now sees again.
    const std::uint32_t text = texts_->find(m.messageId);
    if (text == TextLog::kEmpty)
        throw std::logic_error("ChangeLog: a message id the run's events do not hold");
    rowOfText_.growTo(std::size_t{text} + 1, 0);
    std::uint32_t row = rowOfText_[text];
    if (row != 0) {
        row -= 1;
    } else {
        created = true;
        row = static_cast<std::uint32_t>(messages_.size());
        textOfRow_.push_back(text);
        rowOfText_.set(text, row + 1);
    }
    rowOfRecord_.growTo(m.ordinal + 1, row);
    return row;
}

// The event names its message by a text id the row does not know yet (the
// log forgot the text and numbered it again): the id finds the row from now on.
void ChangeLog::noteTextOfRow(const MessageRecord& m, std::uint32_t row) {
    if (eventText_ == TextLog::kEmpty)
        return;
    rowOfText_.growTo(std::size_t{eventText_} + 1, 0);
    if (rowOfText_[eventText_] == 0 && texts_->text(eventText_) == m.messageId.view())
        rowOfText_.set(eventText_, row + 1);
}

void ChangeLog::messageChanged(const MessageRecord& m) {
    bool created = false;
    const std::uint32_t row = messageRow(m, created);
    noteTextOfRow(m, row);
    touched_.push_back(row);
    MessageAt after;
    if (created) {
        after = viewOf(m, nullptr);
        messages_.push_back(after);
        messageChanges_.push(event_, row, nullptr, after);
    } else {
        const MessageAt before = messages_[row];
        after = viewOf(m, &before);
        if (after == before)
            return;
        messageChanges_.push(event_, row, &before, after);
        countInChannel(before, -1);
        messages_.set(row, after);
    }
    countInChannel(after, +1);
    if (after.state == MessageState::InFlight)
        inFlight_.insert(row);
    else
        inFlight_.erase(row);
    markChanged(row);
}

std::vector<std::uint32_t> ChangeLog::inFlightRows() const {
    std::vector<std::uint32_t> rows(inFlight_.begin(), inFlight_.end());
    std::sort(rows.begin(), rows.end());
    return rows;
}

std::uint32_t ChangeLog::workerRow(const WorkerStats& w) {
    if (const auto known = rowOfWorker_.find(&w); known != rowOfWorker_.end())
        return known->second;
    const auto row = static_cast<std::uint32_t>(workers_.size());
    rowOfWorker_.emplace(&w, row);
    workers_.emplace_back().worker = Name(w.worker);
    // The first change of a row creates it in a replay.
    workerChanges_.push(event_, row * kWorkerFields + kLifecycleField, 0, 0);
    return row;
}

void ChangeLog::workerChanged(const WorkerStats& w) {
    const std::uint32_t row = workerRow(w);
    WorkerAt& head = workers_[row];
    const WorkerCounts counts = workerCounts(w);
    for (std::uint32_t field = 0; field < kWorkerCounterCount; ++field) {
        if (counts[field] != head.counts[field]) {
            workerChanges_.push(event_, row * kWorkerFields + field, head.counts[field],
                                counts[field]);
            head.counts[field] = counts[field];
        }
    }
    if (w.lastLifecycle != head.lifecycle) {
        workerChanges_.push(event_, row * kWorkerFields + kLifecycleField,
                            lifecycleValue(head.lifecycle), lifecycleValue(w.lastLifecycle));
        head.lifecycle = w.lastLifecycle;
    }
}

void ChangeLog::end(const LedgerSummary& summary) {
    // Most events change no word but eventsApplied (a report the other side
    // already made, a poll, work started): one comparison for those.
    summary_.eventsApplied = summary.eventsApplied;
    if (std::memcmp(&summary_, &summary, sizeof summary) == 0)
        return;
    for (std::size_t word = 0; word < kSummaryWords; ++word) {
        const std::uint64_t before = wordOf(summary_, word);
        const std::uint64_t after = wordOf(summary, word);
        if (before != after)
            summaryChanges_.push(event_, static_cast<std::uint32_t>(word),
                                 static_cast<std::int64_t>(before),
                                 static_cast<std::int64_t>(after));
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

std::int64_t ChangeLog::workerField(const WorkerAt& worker, std::uint32_t field) {
    return field == kLifecycleField ? lifecycleValue(worker.lifecycle) : worker.counts[field];
}

void ChangeLog::applyWorkerChange(WorkerAt& worker, const WordChanges::Change& change) {
    const std::uint32_t field = change.slot % kWorkerFields;
    setWorkerField(worker, field, change.applyTo(workerField(worker, field)));
}

template <typename Seen>
void ChangeLog::replayMessages(RunState& state, std::size_t from, std::uint64_t toEvent,
                               Seen seen) const {
    messageChanges_.forEach(
        from, toEvent,
        [&](std::uint32_t message) -> const MessageAt& { return state.messages[message]; },
        [&](std::uint32_t message, const MessageAt& after) {
            if (message == state.messages.size()) {
                seen(nullptr, after);
                state.messages.push_back(after);
            } else {
                seen(&state.messages[message], after);
                state.messages[message] = after;
            }
        });
}

void ChangeLog::applySummaryChanges(LedgerSummary& summary, std::size_t from,
                                    std::uint64_t toEvent) const {
    summaryChanges_.forEach(from, toEvent, [&](const WordChanges::Change& c) {
        const auto before = static_cast<std::int64_t>(wordOf(summary, c.slot));
        setWord(summary, c.slot, static_cast<std::uint64_t>(c.applyTo(before)));
    });
}

void ChangeLog::replay(RunState& state, Offsets from, std::uint64_t toEvent) const {
    replayMessages(state, from.messages, toEvent, [](const MessageAt*, const MessageAt&) {});
    workerChanges_.forEach(from.workers, toEvent, [&](const WordChanges::Change& c) {
        const std::uint32_t row = c.slot / kWorkerFields;
        if (row == state.workers.size())
            state.workers.emplace_back().worker = workers_[row].worker;
        applyWorkerChange(state.workers[row], c);
    });
    applySummaryChanges(state.summary, from.summary, toEvent);
}

namespace {

std::uint64_t& channelCount(RunState& state, const MessageAt& message) {
    auto it =
        std::lower_bound(state.channels.begin(), state.channels.end(), message.channel,
                         [](const ChannelAt& c, const Name& name) { return c.channel < name; });
    if (it == state.channels.end() || it->channel != message.channel) {
        it = state.channels.insert(it, ChannelAt{});
        it->channel = message.channel;
    }
    return it->byState[static_cast<std::size_t>(message.state)];
}

void countHolding(RunState& state, const MessageAt& message, std::int64_t delta) {
    if (message.state != MessageState::InFlight)
        return;
    for (WorkerAt& w : state.workers) {
        if (w.worker == message.worker) {
            w.holding = static_cast<std::uint32_t>(static_cast<std::int64_t>(w.holding) + delta);
            return;
        }
    }
}

}  // namespace

ChangeLog::Offsets ChangeLog::offsetsAfter(std::uint64_t eventCount) const {
    return {messageChanges_.firstFrom(eventCount), workerChanges_.firstFrom(eventCount),
            summaryChanges_.firstFrom(eventCount)};
}

void ChangeLog::advance(RunState& state, std::uint64_t toEvent) const {
    const Offsets from = offsetsAfter(state.events);
    // Workers first, so a message handed to a worker first seen in this
    // stretch counts in its holding (as completeState counts it).
    workerChanges_.forEach(from.workers, toEvent, [&](const WordChanges::Change& c) {
        const std::uint32_t row = c.slot / kWorkerFields;
        if (row == state.workers.size()) {
            state.workers.emplace_back().worker = workers_[row].worker;
            for (const MessageAt& m : state.messages)  // held before its row existed
                if (m.state == MessageState::InFlight && m.worker == state.workers.back().worker)
                    ++state.workers.back().holding;
        }
        applyWorkerChange(state.workers[row], c);
    });
    replayMessages(state, from.messages, toEvent,
                   [&](const MessageAt* before, const MessageAt& after) {
                       if (before != nullptr) {
                           --channelCount(state, *before);
                           countHolding(state, *before, -1);
                       }
                       ++channelCount(state, after);
                       countHolding(state, after, +1);
                   });
    applySummaryChanges(state.summary, from.summary, toEvent);
    // A channel is listed while a message lives in it (completeState's rule).
    std::erase_if(state.channels, [](const ChannelAt& c) {
        return std::all_of(c.byState.begin(), c.byState.end(),
                           [](std::uint64_t n) { return n == 0; });
    });
}

ChangeLog::Offsets ChangeLog::offsets() const {
    return {messageChanges_.size(), workerChanges_.size(), summaryChanges_.size()};
}

std::optional<std::uint32_t> ChangeLog::messageIndex(std::string_view id) const {
    if (id.empty())
        return std::nullopt;
    if (const auto row = rowOfText(texts_->find(id)))
        return row;
    for (std::size_t row = textOfRow_.size(); row-- > 0;) {
        if (texts_->text(textOfRow_[row]) == id)
            return static_cast<std::uint32_t>(row);
    }
    return std::nullopt;
}

void ChangeLog::countInChannel(const MessageAt& message, std::int64_t delta) {
    auto it = std::find_if(channels_.begin(), channels_.end(),
                           [&](const ChannelAt& c) { return c.channel == message.channel; });
    if (it == channels_.end()) {
        channels_.emplace_back().channel = message.channel;
        it = channels_.end() - 1;
    }
    auto& count = it->byState[static_cast<std::size_t>(message.state)];
    count = static_cast<std::uint64_t>(static_cast<std::int64_t>(count) + delta);
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

std::size_t ChangeLog::changeBytes() const {
    return messageChanges_.memoryBytes() + workerChanges_.memoryBytes() +
           summaryChanges_.memoryBytes();
}

void ChangeLog::spillTo(const std::shared_ptr<SpillFile>& file, std::size_t chunksInRam) {
    messageChanges_.spillTo(file, chunksInRam);
    workerChanges_.spillTo(file, chunksInRam);
    summaryChanges_.spillTo(file, chunksInRam);
    messages_.spillTo(file, chunksInRam);
    for (Column* column : {&textOfRow_, &rowOfText_, &rowOfRecord_})
        column->spillTo(file, chunksInRam);
}

std::uint64_t ChangeLog::spilledBytes() const {
    return messageChanges_.spilledBytes() + workerChanges_.spilledBytes() +
           summaryChanges_.spilledBytes() + messages_.spilledBytes() + textOfRow_.spilledBytes() +
           rowOfText_.spilledBytes() + rowOfRecord_.spilledBytes();
}

std::string ChangeLog::spillError() const {
    for (const std::string* e :
         {&messageChanges_.spillError(), &workerChanges_.spillError(),
          &summaryChanges_.spillError(), &messages_.spillError(), &textOfRow_.spillError(),
          &rowOfText_.spillError(), &rowOfRecord_.spillError()})
        if (!e->empty())
            return *e;
    return {};
}

std::size_t ChangeLog::stateBytes() const {
    std::size_t bytes =
        messages_.memoryBytes() + workers_.capacity() * sizeof(WorkerAt);
    // Ids, and the hash maps: a node (key, row, next pointer, cached hash) per entry plus buckets.
    auto mapBytes = [](const auto& map, std::size_t keyBytes) {
        return map.size() * (keyBytes + 3 * sizeof(void*)) + map.bucket_count() * sizeof(void*);
    };
    bytes += textOfRow_.memoryBytes() + rowOfText_.memoryBytes() + rowOfRecord_.memoryBytes() +
             mapBytes(rowOfWorker_, sizeof(void*));
    return bytes;
}

}  // namespace qs::run
