#include "common/name_table.h"

#include <cstring>

namespace qs {

NameTable::NameTable(std::size_t capacity)
    // Ids 0 (empty), 1 (overflow) and `capacity` names.
    : capacity_(capacity), segmentCount_((capacity + 2 + kSegmentSize - 1) / kSegmentSize) {
    segments_ = std::make_unique<std::atomic<std::string_view*>[]>(segmentCount_);
    for (std::size_t i = 0; i < segmentCount_; ++i)
        segments_[i].store(nullptr, std::memory_order_relaxed);
    std::lock_guard lock(mutex_);
    add(kOverflowText);
}

NameTable::~NameTable() {
    for (std::uint32_t id = kOverflowId; id < next_; ++id)
        delete[] textOf(id).data();
    for (std::size_t i = 0; i < segmentCount_; ++i)
        delete[] segments_[i].load(std::memory_order_relaxed);
}

std::uint32_t NameTable::intern(std::string_view text) {
    std::lock_guard lock(mutex_);
    if (const auto found = ids_.find(text); found != ids_.end())
        return found->second;
    if (heldLocked() >= capacity_)
        return kOverflowId;
    return add(text);
}

std::uint32_t NameTable::add(std::string_view text) {
    const std::uint32_t id = next_;
    std::atomic<std::string_view*>& segment = segments_[id >> kSegmentBits];
    std::string_view* entries = segment.load(std::memory_order_relaxed);
    if (entries == nullptr) {
        entries = new std::string_view[kSegmentSize];
        segment.store(entries, std::memory_order_release);
    }
    char* copy = new char[text.size()];
    std::memcpy(copy, text.data(), text.size());
    const std::string_view stored(copy, text.size());
    try {
        ids_.emplace(stored, id);
    } catch (...) {
        delete[] copy;
        throw;
    }
    entries[id & (kSegmentSize - 1)] = stored;
    ++next_;
    return id;
}

std::string_view NameTable::textOf(std::uint32_t id) const noexcept {
    if (id == 0)
        return {};
    const std::string_view* entries = segments_[id >> kSegmentBits].load(std::memory_order_acquire);
    return entries[id & (kSegmentSize - 1)];
}

std::size_t NameTable::count() const {
    std::lock_guard lock(mutex_);
    return heldLocked();
}

}  // namespace qs
