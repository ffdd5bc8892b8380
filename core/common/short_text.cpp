#include "common/short_text.h"

#include <limits>
#include <ostream>
#include <stdexcept>

namespace qs {

void ShortText::assign(std::string_view text) {
    if (text.size() > std::numeric_limits<std::uint32_t>::max())
        throw std::length_error("ShortText: text longer than 4 GiB");
    // `text` may be a view of this object's own text: copy first, free after.
    char* old = onHeap() ? heapText() : nullptr;
    if (text.size() <= kInlineCapacity) {
        if (!text.empty())  // an empty view may have a null data()
            std::memmove(bytes_, text.data(), text.size());
    } else {
        char* copy = new char[text.size()];
        std::memcpy(copy, text.data(), text.size());
        std::memcpy(bytes_, &copy, sizeof copy);
    }
    delete[] old;
    size_ = static_cast<std::uint32_t>(text.size());
}

std::ostream& operator<<(std::ostream& out, const ShortText& text) {
    return out << text.view();
}

}  // namespace qs
