#include "run/time_index.h"

#include <algorithm>

namespace qs::run {

void TimeIndex::add(std::int64_t timeNs) {
    if (count_ % kBlockEvents == 0) {
        blockMax_.push_back(std::max(maxBefore(blockMax_.size()), timeNs));
    } else {
        blockMax_.back() = std::max(blockMax_.back(), timeNs);
    }
    ++count_;
}

std::uint64_t TimeIndex::countAt(std::int64_t timeNs, const EventStore& events) const {
    const auto after = std::upper_bound(blockMax_.begin(), blockMax_.end(), timeNs);
    if (after == blockMax_.end())
        return count_;
    const auto block = static_cast<std::size_t>(after - blockMax_.begin());
    std::int64_t streamTime = maxBefore(block);
    const std::uint64_t first = block * kBlockEvents;
    const std::uint64_t last = std::min<std::uint64_t>(first + kBlockEvents, count_);
    for (std::uint64_t i = first; i < last; ++i) {
        streamTime = std::max(streamTime, events.timeNs(i));
        if (streamTime > timeNs)
            return i;
    }
    return last;  // not reached: this block's stream time ends above timeNs
}

std::int64_t TimeIndex::streamTimeNs(std::uint64_t index, const EventStore& events) const {
    const std::size_t block = index / kBlockEvents;
    std::int64_t streamTime = maxBefore(block);
    for (std::uint64_t i = block * kBlockEvents; i <= index; ++i)
        streamTime = std::max(streamTime, events.timeNs(i));
    return streamTime;
}

}  // namespace qs::run
