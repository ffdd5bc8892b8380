#include "models/timeline_summary.h"

#include <algorithm>

namespace qs::ui {

void TimelineSummary::add(std::int64_t startNs, int slot, Outcome outcome) {
    const std::int64_t bucket = floorDiv(startNs);
    if (cells_.empty()) {
        first_ = bucket;
    }
    if (bucket < first_) {
        return;  // older than what is kept (dropBefore)
    }
    auto index = static_cast<std::size_t>(bucket - first_);
    if (index >= cells_.size() + kLongestGap) {
        cells_.clear();  // a long quiet stretch: nothing between is worth a cell
        first_ = bucket;
        index = 0;
    }
    if (index >= cells_.size()) {
        cells_.resize(index + 1, 0);
    }
    const int s = std::clamp(slot, 0, kSlots - 1);
    std::uint32_t& cell = cells_[index];
    if (newOutcomeShows(static_cast<int>((cell >> (4 * s)) & 0xF) - 1)) {
        const auto next = static_cast<std::uint32_t>(outcome) + 1;
        cell = (cell & ~(0xFu << (4 * s))) | (next << (4 * s));
    }
}

void TimelineSummary::dropBefore(std::int64_t ns) {
    while (!cells_.empty() && (first_ + 1) * kBucketNs <= ns) {
        cells_.pop_front();
        ++first_;
    }
}

int TimelineSummary::outcomeAt(std::int64_t bucketStartNs, int slot) const {
    const std::int64_t bucket = floorDiv(bucketStartNs);
    if (bucket < first_ || bucket >= first_ + static_cast<std::int64_t>(cells_.size()) ||
        slot < 0 || slot >= kSlots) {
        return -1;
    }
    const std::uint32_t cell = cells_[static_cast<std::size_t>(bucket - first_)];
    return static_cast<int>((cell >> (4 * slot)) & 0xF) - 1;
}

}  // namespace qs::ui
