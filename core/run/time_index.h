#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "run/event_store.h"

namespace qs::run {

// Event index <-> time. Events come in stream order, which is not quite time
// order: a thread stamps its event, another pushes a later one first. An
// event's *stream time* is the largest timeNs up to and including it, so it
// never goes back, and the state at t holds exactly the events whose stream
// time is <= t: all the events of one operation (they share a time), and
// nothing the ledger would have to apply out of stream order.
//
// Memory: one int64 per block of kBlockEvents events; a query scans at most
// one block. Threading: that of its Run.
class TimeIndex {
public:
    static constexpr std::size_t kBlockEvents = 256;

    void add(std::int64_t timeNs);  // the next event's own time
    // How many events have a stream time <= timeNs (0 .. the event count).
    std::uint64_t countAt(std::int64_t timeNs, const EventStore& events) const;
    // Stream time of event `index` (< the event count).
    std::int64_t streamTimeNs(std::uint64_t index, const EventStore& events) const;
    std::size_t memoryBytes() const { return blockMax_.capacity() * sizeof(std::int64_t); }

private:
    std::int64_t maxBefore(std::size_t block) const {
        return block == 0 ? std::numeric_limits<std::int64_t>::min() : blockMax_[block - 1];
    }

    std::vector<std::int64_t> blockMax_;  // stream time at the end of each block (so far)
    std::uint64_t count_ = 0;
};

}  // namespace qs::run
