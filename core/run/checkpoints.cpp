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
    const auto k = static_cast<std::uint32_t>(checkpoints_.size());
    Checkpoint c;
    c.events = eventCount;
    c.changes = log.offsets();
    c.messages = static_cast<std::uint32_t>(messages.size());
    versions_.resize((messages.size() + ChangeLog::kPageSize - 1) / ChangeLog::kPageSize);
    for (const std::uint32_t page : log.takeChangedPages())
        versions_[page].push_back({k, storePage(messages.chunk(page))});  // one chunk a page
    c.firstWorker = workerRows_.size();
    c.workerCount = static_cast<std::uint32_t>(log.workers().size());
    for (const WorkerAt& w : log.workers())
        workerRows_.push_back(w);
    c.summary = log.summary();
    checkpoints_.push_back(c);
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
    workerRows_.spillTo(file, checkpointsInRam);
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

std::vector<Checkpoints::PageId> Checkpoints::pagesOf(std::size_t k) const {
    const std::size_t count =
        (checkpoints_[k].messages + ChangeLog::kPageSize - 1) / ChangeLog::kPageSize;
    std::vector<PageId> pages(count);
    for (std::size_t p = 0; p < count; ++p) {
        const std::vector<PageVersion>& versions = versions_[p];
        // The newest version made for checkpoint k or before (one exists: the
        // page changed when its first message appeared).
        const auto after = std::upper_bound(
            versions.begin(), versions.end(), k,
            [](std::size_t checkpoint, const PageVersion& v) { return checkpoint < v.checkpoint; });
        pages[p] = std::prev(after)->page;
    }
    return pages;
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
    copyPages(pagesOf(k), state.messages);
    state.workers.reserve(c.workerCount);
    for (std::uint32_t i = 0; i < c.workerCount; ++i)
        state.workers.push_back(workerRows_[c.firstWorker + i]);
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
    for (const std::vector<PageVersion>& versions : versions_)
        bytes += sizeof(versions) + versions.capacity() * sizeof(PageVersion);
    return bytes + workerRows_.memoryBytes();
}

}  // namespace qs::run
