#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>

#include "widgets/theme.h"

// What a lane of the live timeline keeps of the hand-outs it no longer holds
// one by one (TimelineModel::setDetailBudget): per 10 ms of time and per
// sub-row, the outcome a pixel column of thin bars would show, by the bars'
// start. Zoomed out, the lane looks as it did with every bar; it costs 4
// bytes per 10 ms per lane, whatever the rate. UI thread only.
namespace qs::ui {

// Whether a bar's outcome replaces `shown` (-1 = nothing yet) on a pixel:
// any outcome covers nothing or an ack, so a lone problem among thousands of
// acks stays visible; otherwise the first one stays.
inline bool newOutcomeShows(int shown) {
    return shown < 0 || shown == static_cast<int>(Outcome::Acked);
}

// What a pixel column showing `shown` shows once the sub-rows of `next` are
// counted into it, both packed as TimelineSummary cells (4 bits per sub-row,
// the outcome + 1, 0 = none): each sub-row of `next` that has a bar replaces
// the one shown where newOutcomeShows() says so. The same as counting them
// sub-row by sub-row, for all eight at once; associative, so a run of cells
// can be folded before it is counted.
constexpr std::uint32_t combineCells(std::uint32_t shown, std::uint32_t next) {
    constexpr std::uint32_t kLowBits = 0x11111111u;  // bit 0 of each sub-row's four
    // Bit 0 of each sub-row's four set when any of its bits is.
    const auto nonZero = [](std::uint32_t x) {
        x |= x >> 1;
        x |= x >> 2;
        return x & kLowBits;
    };
    constexpr std::uint32_t kAckedEverywhere =
        (static_cast<std::uint32_t>(Outcome::Acked) + 1) * kLowBits;
    const std::uint32_t replaceable =
        (~nonZero(shown) | ~nonZero(shown ^ kAckedEverywhere)) & kLowBits;
    const std::uint32_t taken = (replaceable & nonZero(next)) * 0xFu;
    return (shown & ~taken) | (next & taken);
}

class TimelineSummary {
public:
    static constexpr std::int64_t kBucketNs = 10'000'000;
    static constexpr int kSlots = 8;

    bool empty() const { return cells_.empty(); }
    // The start of the first bucket held, and the end of the last.
    std::int64_t startNs() const { return first_ * kBucketNs; }
    std::int64_t endNs() const { return (first_ + static_cast<std::int64_t>(cells_.size())) * kBucketNs; }

    // A bar of `outcome` in sub-row `slot` that started at `startNs` (never
    // before the buckets already dropped).
    void add(std::int64_t startNs, int slot, Outcome outcome);
    // Forgets the buckets that end at or before `ns`.
    void dropBefore(std::int64_t ns);
    // The outcome sub-row `slot` shows in the bucket starting at `bucketStartNs`
    // (-1 = no bar started there).
    int outcomeAt(std::int64_t bucketStartNs, int slot) const;

    // Calls f(bucketStartNs, cell) for every bucket with a bar that overlaps
    // [t0, t1); cell >> (4 * slot) & 0xF is sub-row slot's outcome + 1 (0 = none).
    template <typename F>
    void forEachIn(std::int64_t t0, std::int64_t t1, F&& f) const {
        if (cells_.empty() || t1 <= startNs() || t0 >= endNs()) {
            return;
        }
        const std::int64_t from = std::max<std::int64_t>(first_, floorDiv(t0));
        const std::int64_t to = std::min<std::int64_t>(
            first_ + static_cast<std::int64_t>(cells_.size()), floorDiv(t1 - 1) + 1);
        auto it = cells_.begin() + (from - first_);
        for (std::int64_t b = from; b < to; ++b, ++it) {
            if (*it != 0) {
                f(b * kBucketNs, *it);
            }
        }
    }

private:
    // A bar this many buckets after the last one held starts the summary
    // afresh (a lane quiet for longer than the retention).
    static constexpr std::size_t kLongestGap = 100'000;

    static std::int64_t floorDiv(std::int64_t ns) {
        return ns >= 0 ? ns / kBucketNs : -((-ns + kBucketNs - 1) / kBucketNs);
    }

    // One per bucket: 4 bits per sub-row, the outcome + 1 (0 = none).
    std::deque<std::uint32_t> cells_;
    std::int64_t first_ = 0;  // the bucket cells_.front() is
};

static_assert(static_cast<int>(Outcome::Count) < 16, "an outcome must fit in 4 bits");

}  // namespace qs::ui
