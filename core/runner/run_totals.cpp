#include "runner/run_totals.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace qs::runner {

namespace {

constexpr std::size_t kMaxLostIds = 100;

}  // namespace

void computeLedgerTotals(const Ledger& ledger, const std::string& homeChannel, bool recordEvents,
                         bool keepMessageRecords, RunResult& result) {
    result.totals = ledger.summary();
    result.workers = ledger.workers();
    std::uint64_t moved = 0;
    // (send time, id): the first lost tasks by send time, whatever the order
    // the ledger keeps them in.
    std::vector<std::pair<std::int64_t, std::string>> lost;
    ledger.forEachMessage([&](const MessageRecord& m) {
        if (isTerminal(m.state)) {
            return;
        }
        if (m.state == MessageState::Waiting && m.channel != homeChannel) {
            ++moved;
            return;
        }
        lost.emplace_back(m.sentNs, m.messageId);
    });
    std::sort(lost.begin(), lost.end());
    result.lostMessageIds.clear();
    for (std::size_t i = 0; i < lost.size() && i < kMaxLostIds; ++i) {
        result.lostMessageIds.push_back(std::move(lost[i].second));
    }
    result.tasksMoved = moved;
    result.tasksLost = result.totals.unfinished() - std::min(moved, result.totals.unfinished());
    if (recordEvents && result.totals.sent < result.producer.sent + result.producer.failed) {
        // Events were dropped before the ledger saw every send: count what the
        // ledger cannot vouch for as lost rather than hide it.
        result.tasksLost += result.producer.sent + result.producer.failed - result.totals.sent;
    }
    if (!recordEvents) {
        // Without events only the pool's counters can tell.
        const std::uint64_t settled = result.pool.totals.acked;
        result.tasksLost = result.producer.sent > settled ? result.producer.sent - settled : 0;
    }
    result.messages.clear();
    if (keepMessageRecords) {
        ledger.forEachMessage([&](const MessageRecord& m) { result.messages.push_back(m); });
        std::sort(result.messages.begin(), result.messages.end(),
                  [](const MessageRecord& a, const MessageRecord& b) {
                      return a.sentNs != b.sentNs ? a.sentNs < b.sentNs : a.messageId < b.messageId;
                  });
    }
}

}  // namespace qs::runner
