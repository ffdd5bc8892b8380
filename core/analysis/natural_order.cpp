#include "analysis/natural_order.h"

#include <cctype>
#include <cstddef>

namespace qs::analysis {

namespace {

bool isDigit(char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// The run of digits at `i`, without leading zeros.
std::string_view digitsAt(std::string_view s, std::size_t& i) {
    const std::size_t from = i;
    while (i < s.size() && isDigit(s[i])) {
        ++i;
    }
    std::string_view run = s.substr(from, i - from);
    while (run.size() > 1 && run.front() == '0') {
        run.remove_prefix(1);
    }
    return run;
}

}  // namespace

bool naturalLess(std::string_view a, std::string_view b) {
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() && j < b.size()) {
        if (isDigit(a[i]) && isDigit(b[j])) {
            const std::string_view x = digitsAt(a, i);
            const std::string_view y = digitsAt(b, j);
            if (x.size() != y.size()) {
                return x.size() < y.size();
            }
            if (x != y) {
                return x < y;
            }
            continue;
        }
        if (a[i] != b[j]) {
            return a[i] < b[j];
        }
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

}  // namespace qs::analysis
