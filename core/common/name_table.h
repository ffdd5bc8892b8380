#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>

namespace qs {

// The interning table behind qs::Name (one process-wide instance); a class of
// its own so its limits can be tested with a small capacity.
//
// Id 0 is the empty text (no entry). Id 1 is kOverflowText: once `capacity`
// distinct names are held, every new text gets that id instead of an error,
// so an event whose name did not fit keeps everything else and says why.
// Texts are copied once and never freed while the table lives.
//
// Threading: intern() and count() from any thread (they take the table's
// lock); textOf() from any thread without a lock, for an id that reached the
// caller with a happens-before edge from the intern() that made it (a lock,
// a queue, the same thread).
class NameTable {
public:
    static constexpr std::uint32_t kOverflowId = 1;
    static constexpr std::string_view kOverflowText = "(name table full)";

    explicit NameTable(std::size_t capacity);
    ~NameTable();
    NameTable(const NameTable&) = delete;
    NameTable& operator=(const NameTable&) = delete;

    // `text` must not be empty. Throws std::bad_alloc only.
    std::uint32_t intern(std::string_view text);
    std::string_view textOf(std::uint32_t id) const noexcept;
    // Distinct names held (the overflow marker not counted).
    std::size_t count() const;

private:
    // Entries live in fixed-size segments that never move, so textOf() finds
    // one with two loads while another thread adds names.
    static constexpr std::uint32_t kSegmentBits = 10;
    static constexpr std::uint32_t kSegmentSize = std::uint32_t{1} << kSegmentBits;

    std::uint32_t add(std::string_view text);  // under mutex_; a new id for `text`
    // Names held, under mutex_: ids 2 .. next_ - 1.
    std::size_t heldLocked() const { return next_ - kOverflowId - 1; }

    const std::size_t capacity_;
    const std::size_t segmentCount_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string_view, std::uint32_t> ids_;  // views of the copies
    std::unique_ptr<std::atomic<std::string_view*>[]> segments_;
    std::uint32_t next_ = kOverflowId;
};

}  // namespace qs
