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
    std::size_t from = 0;
    std::size_t to = entries.size();
    // Chunks whose first entries stay in RAM while the rest may be spilled
    // (SpillingChunks): the search reads one chunk, not one per probe.
    if constexpr (requires { entries.chunkFront(std::size_t{0}); }) {
        const auto chunks = std::views::iota(std::size_t{0}, entries.chunkCount());
        const auto after = std::ranges::partition_point(
            chunks, [&](std::size_t k) { return entries.chunkFront(k).event < eventCount; });
        const auto chunk = static_cast<std::size_t>(after - chunks.begin());
        if (chunk == 0)
            return 0;
        from = (chunk - 1) * entries.chunkSize();
        to = std::min(to, chunk * entries.chunkSize());
    }
    const auto positions = std::views::iota(from, to);
    const auto first = std::ranges::partition_point(
        positions, [&](std::size_t i) { return entries[i].event < eventCount; });
    return from + static_cast<std::size_t>(first - positions.begin());
}

}  // namespace qs::run
