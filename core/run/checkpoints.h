#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "events/ledger.h"
#include "run/change_log.h"
#include "run/run_state.h"

namespace qs::run {

// Snapshots of the state every `interval` events, to seek from: the state
// after event n is the newest checkpoint at or before n plus a replay of the
// change log from there (at most interval - 1 events).
//
// A checkpoint holds the messages in pages of ChangeLog::kPageSize, shared
// with the checkpoint before it unless a message in the page changed since:
// messages that are done (most of a long run) are stored once, not once per
// checkpoint. Memory per checkpoint: the pages that changed in its interval,
// one pointer per page, the workers and the summary.
// Threading: that of its Run.
class Checkpoints {
public:
    explicit Checkpoints(std::uint32_t interval);

    std::uint32_t interval() const { return interval_; }
    // Called after each event: takes a checkpoint after every interval-th.
    void eventApplied(std::uint64_t eventCount, ChangeLog& log);
    // The state after `eventCount` events (<= those appended so far).
    RunState stateAfter(std::uint64_t eventCount, const ChangeLog& log) const;

    std::size_t count() const { return checkpoints_.size(); }
    std::size_t memoryBytes() const;

private:
    using Page = std::vector<MessageAt>;
    static constexpr std::size_t kSharedBlockBytes = 16;  // make_shared's counts, per page
    struct Checkpoint {
        std::uint64_t events = 0;
        ChangeLog::Offsets changes;
        std::uint32_t messages = 0;
        std::vector<std::shared_ptr<const Page>> pages;
        std::vector<WorkerAt> workers;
        LedgerSummary summary;
    };

    void take(std::uint64_t eventCount, ChangeLog& log);

    std::uint32_t interval_;
    std::vector<Checkpoint> checkpoints_;  // checkpoints_[k] is after k * interval_ events
    std::size_t pageBytes_ = 0;            // every page made (pages are never freed)
};

}  // namespace qs::run
