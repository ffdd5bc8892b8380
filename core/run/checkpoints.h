#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "events/ledger.h"
#include "run/change_log.h"
#include "run/run_state.h"
#include "run/spill_file.h"
#include "run/spilling_chunks.h"

namespace qs::run {

// Snapshots of the state every `interval` events, to seek from: the state
// after event n is the newest checkpoint at or before n plus a replay of the
// change log from there (at most interval - 1 events).
//
// A checkpoint holds the messages in pages of ChangeLog::kPageSize, shared
// with the checkpoint before it unless a message in the page changed since:
// messages that are done (most of a long run) are stored once, not once per
// checkpoint. Memory per checkpoint: the pages that changed in its interval
// (8 bytes of version each besides their rows), the workers and the summary.
//
// With spillTo(), a page made before the newest checkpoints leaves RAM for the
// spill file (a finished message's page is made once and then shared by every
// later checkpoint) and is read back, adjacent pages in one read, by a seek;
// so do the old checkpoints' workers.
// Threading: that of its Run.
class Checkpoints {
public:
    explicit Checkpoints(std::uint32_t interval);

    std::uint32_t interval() const { return interval_; }
    // Called after each event: takes a checkpoint after every interval-th.
    void eventApplied(std::uint64_t eventCount, ChangeLog& log);
    // The state after `eventCount` events (<= those appended so far).
    RunState stateAfter(std::uint64_t eventCount, const ChangeLog& log) const;

    // From now on, pages made before the newest `checkpointsInRam`
    // checkpoints are written to `file`. A failed write stops spilling
    // (spillError()); the pages stay in RAM.
    void spillTo(std::shared_ptr<SpillFile> file, std::size_t checkpointsInRam);
    const std::string& spillError() const {
        return spillError_.empty() ? workerRows_.spillError() : spillError_;
    }
    std::uint64_t spilledBytes() const { return spilledBytes_ + workerRows_.spilledBytes(); }

    std::size_t count() const { return checkpoints_.size(); }
    std::size_t memoryBytes() const;  // in RAM

private:
    using PageId = std::uint32_t;
    // An immutable copy of one page of messages, in RAM or in the spill file.
    struct StoredPage {
        std::unique_ptr<MessageAt[]> rows;  // null once spilled
        std::uint64_t offset = 0;           // in the spill file, once spilled
        std::uint32_t size = 0;             // messages
        std::uint32_t madeFor = 0;          // the checkpoint it was made for
    };
    // A page of messages as of a checkpoint: the copy stored for the newest
    // checkpoint at or before it in which the page had changed.
    struct PageVersion {
        std::uint32_t checkpoint;
        PageId page;
    };
    // A checkpoint names no pages itself (a list of every page per checkpoint
    // would grow with the square of a run's length): its pages are the
    // versions, its workers a stretch of workerRows_.
    struct Checkpoint {
        std::uint64_t events = 0;
        ChangeLog::Offsets changes;
        std::uint32_t messages = 0;
        std::uint64_t firstWorker = 0;  // in workerRows_
        std::uint32_t workerCount = 0;
        LedgerSummary summary;
    };

    void take(std::uint64_t eventCount, ChangeLog& log);
    PageId storePage(std::span<const MessageAt> rows);
    void spillOldPages();
    // The stored pages that hold checkpoint k's messages, in order.
    std::vector<PageId> pagesOf(std::size_t k) const;
    // Appends the pages' messages to `out`, reading spilled runs of pages at once.
    void copyPages(const std::vector<PageId>& pages, std::vector<MessageAt>& out) const;

    std::uint32_t interval_;
    std::vector<Checkpoint> checkpoints_;  // checkpoints_[k] is after k * interval_ events
    std::vector<StoredPage> pages_;        // by PageId; pages are never freed
    std::vector<PageId> pagesInRam_;       // of pages_, those not spilled
    std::vector<std::vector<PageVersion>> versions_;  // by page of messages, oldest first
    SpillingChunks<WorkerAt, 256> workerRows_;        // every checkpoint's workers
    std::size_t bytesInRam_ = 0;           // the pages' rows in RAM
    std::shared_ptr<SpillFile> file_;
    bool spilling_ = false;
    std::size_t checkpointsInRam_ = 0;
    std::uint64_t spilledBytes_ = 0;
    std::string spillError_;
};

}  // namespace qs::run
