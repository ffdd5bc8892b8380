#include "run/checkpoints.h"

#include <algorithm>
#include <type_traits>

namespace qs::run {

static_assert(std::is_trivially_copyable_v<MessageAt>);  // pages are written as bytes

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
    for (const std::uint32_t page : log.takeChangedPages())
        c.pages[page] = storePage(messages.chunk(page));  // one chunk a page
    c.workers = log.workers();
    c.summary = log.summary();
    checkpoints_.push_back(std::move(c));
    spillOldPages();
}

Checkpoints::PageId Checkpoints::storePage(std::span<const MessageAt> rows) {
    StoredPage page;
    page.rows = std::make_unique_for_overwrite<MessageAt[]>(rows.size());
    std::copy(rows.begin(), rows.end(), page.rows.get());
    page.size = static_cast<std::uint32_t>(rows.size());
    page.madeFor = static_cast<std::uint32_t>(checkpoints_.size());
    const auto id = static_cast<PageId>(pages_.size());
    pages_.push_back(std::move(page));
    pagesInRam_.push_back(id);
    bytesInRam_ += rows.size() * sizeof(MessageAt);
    return id;
}

void Checkpoints::spillTo(std::shared_ptr<SpillFile> file, std::size_t checkpointsInRam) {
    file_ = std::move(file);
    spilling_ = file_ != nullptr;
    checkpointsInRam_ = checkpointsInRam;
    spillOldPages();
}

// A page made before the newest checkpointsInRam_ checkpoints goes to the
// file, in the order pages were made: a seek reads it back.
void Checkpoints::spillOldPages() {
    if (!spilling_ || checkpoints_.size() <= checkpointsInRam_)
        return;
    const std::size_t oldestInRam = checkpoints_.size() - checkpointsInRam_;
    std::vector<PageId> kept;
    for (std::size_t i = 0; i < pagesInRam_.size(); ++i) {
        StoredPage& page = pages_[pagesInRam_[i]];
        if (!spilling_ || page.madeFor >= oldestInRam) {
            kept.push_back(pagesInRam_[i]);
            continue;
        }
        const std::size_t bytes = page.size * sizeof(MessageAt);
        const auto offset = file_->append(page.rows.get(), bytes, &spillError_);
        if (!offset) {
            spilling_ = false;  // this page and the rest stay in RAM
            kept.push_back(pagesInRam_[i]);
            continue;
        }
        page.rows.reset();
        page.offset = *offset;
        bytesInRam_ -= bytes;
        spilledBytes_ += bytes;
    }
    pagesInRam_ = std::move(kept);
}

void Checkpoints::copyPages(const std::vector<PageId>& pages, std::vector<MessageAt>& out) const {
    for (std::size_t i = 0; i < pages.size();) {
        const StoredPage& first = pages_[pages[i]];
        if (first.rows) {
            out.insert(out.end(), first.rows.get(), first.rows.get() + first.size);
            ++i;
            continue;
        }
        // Spilled pages that follow one another in the file: one read.
        std::size_t count = first.size;
        std::size_t j = i + 1;
        for (; j < pages.size(); ++j) {
            const StoredPage& next = pages_[pages[j]];
            if (next.rows || next.offset != first.offset + count * sizeof(MessageAt))
                break;
            count += next.size;
        }
        const std::size_t at = out.size();
        out.resize(at + count);
        file_->read(first.offset, out.data() + at, count * sizeof(MessageAt));
        i = j;
    }
}

RunState Checkpoints::stateAfter(std::uint64_t eventCount, const ChangeLog& log) const {
    const std::size_t k = std::min<std::size_t>(eventCount / interval_, checkpoints_.size() - 1);
    const Checkpoint& c = checkpoints_[k];
    RunState state;
    state.messages.reserve(log.messages().size());
    copyPages(c.pages, state.messages);
    state.workers = c.workers;
    state.summary = c.summary;
    log.replay(state, c.changes, eventCount);
    state.events = eventCount;
    state.summary.eventsApplied = eventCount;
    return state;
}

std::size_t Checkpoints::memoryBytes() const {
    std::size_t bytes = bytesInRam_ + pages_.capacity() * sizeof(StoredPage) +
                        pagesInRam_.capacity() * sizeof(PageId) +
                        checkpoints_.capacity() * sizeof(Checkpoint);
    for (const Checkpoint& c : checkpoints_)
        bytes += c.pages.capacity() * sizeof(PageId) + c.workers.capacity() * sizeof(WorkerAt);
    return bytes;
}

}  // namespace qs::run
