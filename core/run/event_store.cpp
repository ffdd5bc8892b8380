#include "run/event_store.h"

namespace qs::run {

void EventStore::append(const Event& event) {
    if (size_ % kChunkEvents == 0) {
        chunks_.emplace_back();
        chunks_.back().reserve(kChunkEvents);
    }
    chunks_.back().push_back(event);
    ++size_;
}

std::size_t EventStore::memoryBytes() const {
    return chunks_.size() * kChunkEvents * sizeof(Event) +
           chunks_.capacity() * sizeof(std::vector<Event>);
}

}  // namespace qs::run
