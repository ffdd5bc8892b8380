#pragma once

#include <algorithm>
#include <string>
#include <string_view>

namespace qs {

// `prefix` in front of every line of `text`: ("f: ", "a\nb") -> "f: a\nf: b",
// so that each line of a multi-line message still says where it comes from.
// No newline is added at the end.
inline std::string prefixLines(std::string_view prefix, std::string_view text) {
    std::string out;
    for (std::size_t from = 0; from <= text.size();) {
        const std::size_t end = std::min(text.find('\n', from), text.size());
        if (from != 0)
            out += '\n';
        out += prefix;
        out += text.substr(from, end - from);
        from = end + 1;
    }
    return out;
}

}  // namespace qs
