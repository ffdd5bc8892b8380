#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

namespace qs {

// A string for identifiers: MessageIDs (22-character NUIDs, or client-chosen
// ids, often 36-character UUIDs) and transaction ids. Up to kInlineCapacity
// bytes live inside the object, so an Event carrying them allocates nothing
// and the thread that frees it does not touch another thread's heap; longer
// text goes on the heap, so nothing is ever cut short.
//
// Reads as a std::string_view (implicit conversion, view()); compares with
// anything that converts to one. Plain value type: copy and move freely
// between threads; not thread-safe for concurrent writes.
class ShortText {
public:
    // 36 bytes inline (a UUID fits), 4 bytes of length: the object is 40
    // bytes, and a move is a fixed-size copy with no branch and no call
    // (events are moved into and out of the stream by the million, and every
    // byte an event carries costs on that path).
    static constexpr std::size_t kInlineCapacity = 36;

    ShortText() noexcept = default;
    ShortText(std::string_view text) { assign(text); }  // NOLINT(google-explicit-constructor)
    ShortText(const std::string& text) : ShortText(std::string_view(text)) {}  // NOLINT
    ShortText(const char* text) : ShortText(std::string_view(text)) {}         // NOLINT
    ShortText(const ShortText& other) { assign(other.view()); }
    ShortText(ShortText&& other) noexcept { take(other); }
    ~ShortText() { release(); }

    ShortText& operator=(const ShortText& other) {
        if (this != &other)
            assign(other.view());
        return *this;
    }
    ShortText& operator=(ShortText&& other) noexcept {
        if (this != &other) {
            release();
            take(other);
        }
        return *this;
    }
    ShortText& operator=(std::string_view text) {
        assign(text);
        return *this;
    }
    ShortText& operator=(const std::string& text) { return *this = std::string_view(text); }
    ShortText& operator=(const char* text) { return *this = std::string_view(text); }

    // Throws std::bad_alloc, or std::length_error beyond 4 GiB.
    void assign(std::string_view text);
    void clear() noexcept {
        release();
        size_ = 0;
    }

    const char* data() const noexcept { return onHeap() ? heapText() : bytes_; }
    std::size_t size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }
    std::string_view view() const noexcept { return {data(), size_}; }
    operator std::string_view() const noexcept { return view(); }  // NOLINT
    std::string str() const { return std::string(view()); }

    friend bool operator==(const ShortText& a, std::string_view b) noexcept {
        return a.view() == b;
    }
    friend std::strong_ordering operator<=>(const ShortText& a, std::string_view b) noexcept {
        return a.view().compare(b) <=> 0;
    }

private:
    // Longer text lives on the heap; its pointer is kept in bytes_.
    bool onHeap() const noexcept { return size_ > kInlineCapacity; }
    char* heapText() const noexcept {
        char* text = nullptr;
        std::memcpy(&text, bytes_, sizeof text);
        return text;
    }
    void release() noexcept {
        if (onHeap())
            delete[] heapText();
    }
    // Leaves `other` empty; its heap text (if any) now belongs to this.
    void take(ShortText& other) noexcept {
        std::memcpy(bytes_, other.bytes_, sizeof bytes_);
        size_ = other.size_;
        other.size_ = 0;
    }

    char bytes_[kInlineCapacity]{};  // the text, or the heap text's pointer
    std::uint32_t size_ = 0;
};

static_assert(sizeof(ShortText) == 40);

std::ostream& operator<<(std::ostream& out, const ShortText& text);

}  // namespace qs

template <>
struct std::hash<qs::ShortText> {
    std::size_t operator()(const qs::ShortText& text) const noexcept {
        return std::hash<std::string_view>{}(text.view());
    }
};
