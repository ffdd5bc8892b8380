#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

namespace qs {

// An interned name: a worker or client id, a channel name. Every event
// carries two of them, and a run has a handful of distinct ones, so an Event
// holds a 4-byte id instead of two 32-byte strings: copying, moving and
// destroying a Name is copying an integer, and the text is never copied or
// freed on the event path.
//
// The text lives in one process-wide table (NameTable) for the rest of the
// process; it is never freed. That suits names, not arbitrary text: it holds
// kMaxNames distinct ones, and beyond that every new text becomes the name
// NameTable::kOverflowText, so an event keeps everything else and says why.
// The empty name is id 0 and needs no table entry.
//
// Threading: a Name is a plain value, copied freely between threads. Making a
// Name is safe from any thread (a small per-thread cache answers repeats
// without taking the table's lock); reading its text (view()) is safe from
// any thread and never locks.
class Name {
public:
    static constexpr std::size_t kMaxNames = std::size_t{1} << 22;

    Name() noexcept = default;
    // Interns `text`. Explicit, so that comparing a Name with a string does
    // not intern the string. Throws std::bad_alloc only.
    explicit Name(std::string_view text) : id_(intern(text)) {}

    Name& operator=(std::string_view text) {
        id_ = intern(text);
        return *this;
    }
    void assign(std::string_view text) { id_ = intern(text); }
    void clear() noexcept { id_ = 0; }

    std::string_view view() const noexcept { return textOf(id_); }
    operator std::string_view() const noexcept { return view(); }  // NOLINT
    std::string str() const { return std::string(view()); }
    const char* data() const noexcept { return view().data(); }
    std::size_t size() const noexcept { return view().size(); }
    bool empty() const noexcept { return id_ == 0; }

    // Equal names are the same entry: comparing two Names compares ids.
    friend bool operator==(Name a, Name b) noexcept { return a.id_ == b.id_; }
    friend bool operator==(Name a, std::string_view b) noexcept { return a.view() == b; }
    friend std::strong_ordering operator<=>(Name a, Name b) noexcept {
        return a.id_ == b.id_ ? std::strong_ordering::equal : a.view().compare(b.view()) <=> 0;
    }
    friend std::strong_ordering operator<=>(Name a, std::string_view b) noexcept {
        return a.view().compare(b) <=> 0;
    }

    // Distinct names made so far in this process (the empty one not counted).
    static std::size_t count();

private:
    friend struct std::hash<Name>;

    static std::uint32_t intern(std::string_view text);
    static std::string_view textOf(std::uint32_t id) noexcept;

    std::uint32_t id_ = 0;
};

static_assert(sizeof(Name) == 4);

std::ostream& operator<<(std::ostream& out, Name name);

}  // namespace qs

template <>
struct std::hash<qs::Name> {
    std::size_t operator()(qs::Name name) const noexcept {
        return std::hash<std::uint32_t>{}(name.id_);
    }
};
