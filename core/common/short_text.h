#pragma once

#include <compare>
#include <cstddef>
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
    static constexpr std::size_t kInlineCapacity = 40;

    ShortText() noexcept = default;
    ShortText(std::string_view text) { assign(text); }  // NOLINT(google-explicit-constructor)
    ShortText(const std::string& text) : ShortText(std::string_view(text)) {}  // NOLINT
    ShortText(const char* text) : ShortText(std::string_view(text)) {}         // NOLINT
    ShortText(const ShortText& other) { assign(other.view()); }
    ShortText(ShortText&& other) noexcept { take(other); }
    ~ShortText() { delete[] heap_; }

    ShortText& operator=(const ShortText& other);
    ShortText& operator=(ShortText&& other) noexcept;
    ShortText& operator=(std::string_view text) {
        assign(text);
        return *this;
    }
    ShortText& operator=(const std::string& text) { return *this = std::string_view(text); }
    ShortText& operator=(const char* text) { return *this = std::string_view(text); }

    void assign(std::string_view text);
    void clear() noexcept;

    const char* data() const noexcept { return heap_ != nullptr ? heap_ : inline_; }
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
    void take(ShortText& other) noexcept;

    char* heap_ = nullptr;  // owned; null while the text fits inline_
    std::size_t size_ = 0;
    char inline_[kInlineCapacity]{};
};

std::ostream& operator<<(std::ostream& out, const ShortText& text);

}  // namespace qs

template <>
struct std::hash<qs::ShortText> {
    std::size_t operator()(const qs::ShortText& text) const noexcept {
        return std::hash<std::string_view>{}(text.view());
    }
};
