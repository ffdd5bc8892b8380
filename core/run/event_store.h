#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "events/event.h"

namespace qs::run {

// The events of a run, in stream order, in RAM: fixed-size chunks, so growing
// never moves an event (an Event is 160 bytes plus any heap text it holds).
// Paging old chunks out to the recording file is the next step.
// Threading: that of its Run.
class EventStore {
public:
    static constexpr std::size_t kChunkEvents = 8192;

    void append(const Event& event);
    std::uint64_t size() const { return size_; }
    const Event& operator[](std::uint64_t index) const {
        return chunks_[index / kChunkEvents][index % kChunkEvents];
    }
    std::size_t memoryBytes() const;  // reserved chunks; heap text of long fields not counted

private:
    std::vector<std::vector<Event>> chunks_;
    std::uint64_t size_ = 0;
};

}  // namespace qs::run
