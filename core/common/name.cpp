#include "common/name.h"

#include <array>
#include <atomic>
#include <cstring>
#include <mutex>
#include <ostream>
#include <stdexcept>
#include <unordered_map>

namespace qs {

namespace {

// Entries live in fixed-size segments that never move, so a reader finds a
// name's text with two loads and no lock while another thread adds names.
constexpr std::uint32_t kSegmentBits = 10;
constexpr std::uint32_t kSegmentSize = std::uint32_t{1} << kSegmentBits;
constexpr std::size_t kSegments = Name::kMaxNames / kSegmentSize;

class NameTable {
public:
    std::uint32_t intern(std::string_view text) {
        std::lock_guard lock(mutex_);
        if (const auto found = ids_.find(text); found != ids_.end())
            return found->second;
        if (next_ >= Name::kMaxNames)
            throw std::length_error("Name: more than 4,194,304 distinct names");
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

    // `id` came from intern(), on this thread or passed on with a
    // happens-before edge (a lock, a queue), so its entry is visible.
    std::string_view textOf(std::uint32_t id) const noexcept {
        const std::string_view* entries =
            segments_[id >> kSegmentBits].load(std::memory_order_acquire);
        return entries[id & (kSegmentSize - 1)];
    }

    std::size_t count() const {
        std::lock_guard lock(mutex_);
        return next_ - 1;
    }

private:
    mutable std::mutex mutex_;
    std::unordered_map<std::string_view, std::uint32_t> ids_;  // views of immortal copies
    std::array<std::atomic<std::string_view*>, kSegments> segments_{};
    std::uint32_t next_ = 1;  // 0 is the empty name
};

// Immortal: names may be read by threads that outlive static destruction.
NameTable& table() {
    static NameTable* const instance = new NameTable;
    return *instance;
}

// Names this thread made before, by a hash of their text: a broker thread
// names the same few clients and channels for every message it handles, and
// a hit costs a hash and one comparison instead of the table's lock.
struct RecentNames {
    static constexpr std::size_t kSlots = 64;
    std::array<std::string_view, kSlots> texts{};  // views of the table's immortal copies
    std::array<std::uint32_t, kSlots> ids{};
};
thread_local RecentNames recent;

}  // namespace

std::uint32_t Name::intern(std::string_view text) {
    if (text.empty())
        return 0;
    const std::size_t slot = std::hash<std::string_view>{}(text) % RecentNames::kSlots;
    if (recent.ids[slot] != 0 && recent.texts[slot] == text)
        return recent.ids[slot];
    const std::uint32_t id = table().intern(text);
    recent.texts[slot] = table().textOf(id);
    recent.ids[slot] = id;
    return id;
}

std::string_view Name::textOf(std::uint32_t id) noexcept {
    return id == 0 ? std::string_view() : table().textOf(id);
}

std::size_t Name::count() {
    return table().count();
}

std::ostream& operator<<(std::ostream& out, Name name) {
    return out << name.view();
}

}  // namespace qs
