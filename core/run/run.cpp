#include "run/run.h"

#include <algorithm>
#include <unordered_map>

namespace qs {

Run::Run(RunModelOptions options) : Run(options, run::EventStore::kMaxEvents, run::TextLog::kMaxTexts) {}

Run::Run(RunModelOptions options, std::size_t maxEvents, std::size_t maxTexts)
    : options_(options),
      events_(maxEvents, maxTexts, options.textGeneration),
      changes_(events_.texts()),
      ledger_(options.ledger),
      checkpoints_(options.checkpointInterval) {
    ledger_.setObserver(&changes_);
    if (!options_.spill.directory.empty())
        startSpilling();
}

void Run::startSpilling() {
    std::shared_ptr<run::SpillFile> file =
        run::SpillFile::open(options_.spill.directory, &spillOpenError_);
    if (!file)
        return;
    const std::size_t keep = options_.spill.chunksInRam;
    events_.spillTo(file, keep);
    changes_.spillTo(file, keep);
    trail_.spillTo(file, keep);
    checkpoints_.spillTo(file, keep);
}

std::string Run::spillProblem() const {
    std::string why = spillOpenError_;
    if (why.empty())
        why = events_.spillError();
    if (why.empty())
        why = changes_.spillError();
    if (why.empty())
        why = trail_.spillError();
    if (why.empty())
        why = checkpoints_.spillError();
    return why.empty() ? why : "the run keeps its old events in RAM: " + why;
}

void Run::append(std::span<const Event> events) {
    for (const Event& e : events)
        append(e);
}

void Run::append(const Event& e) {
    const std::uint64_t index = events_.size();
    // First: it refuses an event past its limits (length_error). The message
    // id's TextLog id keys the ledger's lookup: the id is hashed once.
    const std::uint32_t messageText = events_.push_back(e);
    time_.add(e.timeNs);
    changes_.begin(index, messageText);
    ledger_.apply(e, messageText);
    changes_.end(ledger_.summary());
    checkpoints_.eventApplied(index + 1, changes_);
    noteTouched(static_cast<std::uint32_t>(index));
}

void Run::noteTouched(std::uint32_t event) {
    for (const std::uint32_t message : changes_.touchedByEvent()) {
        trail_.link(message, event);
        if (message >= isTouched_.size())
            isTouched_.resize(static_cast<std::size_t>(message) + 1, false);
        if (!isTouched_[message]) {
            isTouched_[message] = true;
            touched_.push_back(message);
        }
    }
}

void Run::takeTouchedMessages(std::vector<std::uint32_t>& out) {
    for (const std::uint32_t message : touched_)
        isTouched_[message] = false;
    out.insert(out.end(), touched_.begin(), touched_.end());
    touched_.clear();
}

const ChannelAt* Run::channelNow(std::string_view name) const {
    for (const ChannelAt& c : changes_.channels())
        if (c.channel == name)
            return &c;
    return nullptr;
}

std::uint64_t Run::eventCountAt(std::int64_t timeNs) const {
    return time_.countAt(timeNs, events_);
}

std::int64_t Run::streamTimeNs(std::uint64_t index) const {
    return time_.streamTimeNs(index, events_);
}

std::optional<std::uint32_t> Run::trackedMessageOfEvent(std::uint64_t index) const {
    return changes_.rowOfText(events_.messageText(static_cast<std::size_t>(index)));
}

std::optional<std::uint32_t> Run::messageOfEvent(std::uint64_t index) const {
    const std::uint32_t text = events_.messageText(static_cast<std::size_t>(index));
    if (text == run::TextLog::kEmpty)
        return std::nullopt;
    if (const auto row = changes_.rowOfText(text))
        return row;
    // Named by an event the ledger took no message from: by its text.
    return changes_.messageIndex(std::string(events_.texts().text(text)));
}

RunState Run::stateAt(std::int64_t timeNs) const {
    return stateAfter(eventCountAt(timeNs));
}

RunState Run::stateAfter(std::uint64_t eventCount) const {
    const std::uint64_t n = std::min(eventCount, events_.size());
    RunState state;
    if (n == events_.size()) {
        state.summary = changes_.summary();
        changes_.messages().appendTo(state.messages);
        state.workers = changes_.workers();
        state.events = n;
    } else {
        state = checkpoints_.stateAfter(n, changes_);
    }
    state.timeNs = n == 0 ? 0 : streamTimeNs(n - 1);
    completeState(state);
    return state;
}

bool Run::advance(RunState& state, std::uint64_t eventCount) const {
    const std::uint64_t n = std::min(eventCount, events_.size());
    if (n < state.events)
        return false;
    if (n == state.events)
        return true;
    changes_.advance(state, n);
    state.events = n;
    state.summary.eventsApplied = n;  // the one word the change log does not record
    state.timeNs = streamTimeNs(n - 1);
    return true;
}

// What follows from the messages: the per-channel split and what each worker holds.
void Run::completeState(RunState& state) {
    std::unordered_map<Name, std::size_t> channelRow;
    std::unordered_map<Name, std::size_t> workerRow;
    for (std::size_t i = 0; i < state.workers.size(); ++i) {
        state.workers[i].holding = 0;
        workerRow.emplace(state.workers[i].worker, i);
    }
    for (const MessageAt& m : state.messages) {
        auto [row, added] = channelRow.try_emplace(m.channel, state.channels.size());
        if (added)
            state.channels.emplace_back().channel = m.channel;
        ++state.channels[row->second].byState[static_cast<std::size_t>(m.state)];
        if (m.state == MessageState::InFlight) {
            const auto w = workerRow.find(m.worker);
            if (w != workerRow.end())
                ++state.workers[w->second].holding;
        }
    }
    std::sort(state.channels.begin(), state.channels.end(),
              [](const ChannelAt& a, const ChannelAt& b) { return a.channel < b.channel; });
}

RunMemory Run::memory() const {
    RunMemory m;
    m.events = events_.memoryBytes();
    m.changes = changes_.changeBytes();
    m.messages = changes_.stateBytes();
    m.checkpoints = checkpoints_.memoryBytes();
    m.timeIndex = time_.memoryBytes();
    m.ledger = ledger_.messageBytes();
    m.trail = trail_.memoryBytes() + touched_.capacity() * sizeof(std::uint32_t) +
              isTouched_.capacity() / 8;
    m.spilled = events_.spilledBytes() + changes_.spilledBytes() + trail_.spilledBytes() +
                checkpoints_.spilledBytes();
    return m;
}

}  // namespace qs
