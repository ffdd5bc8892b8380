#include "common/short_text.h"

#include <cstring>
#include <ostream>

namespace qs {

void ShortText::assign(std::string_view text) {
    if (text.size() <= kInlineCapacity) {
        // memmove: `text` may be a view of this object's own inline text.
        std::memmove(inline_, text.data(), text.size());
        delete[] heap_;
        heap_ = nullptr;
    } else {
        char* copy = new char[text.size()];  // before freeing: `text` may be our own heap text
        std::memcpy(copy, text.data(), text.size());
        delete[] heap_;
        heap_ = copy;
    }
    size_ = text.size();
}

void ShortText::clear() noexcept {
    delete[] heap_;
    heap_ = nullptr;
    size_ = 0;
}

void ShortText::take(ShortText& other) noexcept {
    heap_ = other.heap_;
    size_ = other.size_;
    if (heap_ == nullptr)
        std::memcpy(inline_, other.inline_, size_);
    other.heap_ = nullptr;
    other.size_ = 0;
}

ShortText& ShortText::operator=(const ShortText& other) {
    if (this != &other)
        assign(other.view());
    return *this;
}

ShortText& ShortText::operator=(ShortText&& other) noexcept {
    if (this != &other) {
        delete[] heap_;
        take(other);
    }
    return *this;
}

std::ostream& operator<<(std::ostream& out, const ShortText& text) {
    return out << text.view();
}

}  // namespace qs
