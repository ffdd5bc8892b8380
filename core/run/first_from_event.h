#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ranges>

// The change logs (MessageChanges, WordChanges) keep their entries in event
// order; a seek starts at the first entry of a given event. One binary search
// over positions, for any container indexed by position whose entries carry
// an `event`.
namespace qs::run {

template <typename Entries>
std::size_t firstEntryFromEvent(const Entries& entries, std::uint64_t eventCount) {
    const auto positions = std::views::iota(std::size_t{0}, entries.size());
    const auto first = std::ranges::partition_point(
        positions, [&](std::size_t i) { return entries[i].event < eventCount; });
    return static_cast<std::size_t>(first - positions.begin());
}

}  // namespace qs::run
