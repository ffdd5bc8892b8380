#include "run/checkpoints.h"

#include <algorithm>

namespace qs::run {

Checkpoints::Checkpoints(std::uint32_t interval) : interval_(std::max<std::uint32_t>(interval, 1)) {
    checkpoints_.emplace_back();  // the empty run
}

void Checkpoints::eventApplied(std::uint64_t eventCount, ChangeLog& log) {
    if (eventCount % interval_ == 0)
        take(eventCount, log);
}

void Checkpoints::take(std::uint64_t eventCount, ChangeLog& log) {
    const ChangeLog::MessageRows& messages = log.messages();
    static_assert(ChangeLog::MessageRows::chunkSize() == ChangeLog::kPageSize);
    Checkpoint c;
    c.events = eventCount;
    c.changes = log.offsets();
    c.messages = static_cast<std::uint32_t>(messages.size());
    c.pages = checkpoints_.back().pages;
    c.pages.resize((messages.size() + ChangeLog::kPageSize - 1) / ChangeLog::kPageSize);
    for (const std::uint32_t page : log.takeChangedPages()) {
        const std::span<const MessageAt> rows = messages.chunk(page);  // one chunk a page
        auto copy = std::make_shared<const Page>(rows.begin(), rows.end());
        pageBytes_ += sizeof(Page) + copy->capacity() * sizeof(MessageAt) + kSharedBlockBytes;
        c.pages[page] = std::move(copy);
    }
    c.workers = log.workers();
    c.summary = log.summary();
    checkpoints_.push_back(std::move(c));
}

RunState Checkpoints::stateAfter(std::uint64_t eventCount, const ChangeLog& log) const {
    const std::size_t k = std::min<std::size_t>(eventCount / interval_, checkpoints_.size() - 1);
    const Checkpoint& c = checkpoints_[k];
    RunState state;
    state.messages.reserve(log.messages().size());
    for (const auto& page : c.pages)
        state.messages.insert(state.messages.end(), page->begin(), page->end());
    state.workers = c.workers;
    state.summary = c.summary;
    log.replay(state, c.changes, eventCount);
    state.events = eventCount;
    state.summary.eventsApplied = eventCount;
    return state;
}

std::size_t Checkpoints::memoryBytes() const {
    std::size_t bytes = pageBytes_ + checkpoints_.capacity() * sizeof(Checkpoint);
    for (const Checkpoint& c : checkpoints_) {
        bytes += c.pages.capacity() * sizeof(std::shared_ptr<const Page>) +
                 c.workers.capacity() * sizeof(WorkerAt);
    }
    return bytes;
}

}  // namespace qs::run
