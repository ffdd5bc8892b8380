#include "workers/task_template.h"

namespace qs::workers {

std::string expandTaskTemplate(std::string_view text, std::int64_t n, std::int64_t total) {
    static constexpr std::string_view kN = "{n}";
    static constexpr std::string_view kTotal = "{total}";
    std::string out;
    out.reserve(text.size() + 8);
    std::size_t i = 0;
    while (i < text.size()) {
        std::string_view rest = text.substr(i);
        if (rest.starts_with(kN)) {
            out += std::to_string(n);
            i += kN.size();
        } else if (rest.starts_with(kTotal)) {
            out += std::to_string(total);
            i += kTotal.size();
        } else {
            out += text[i];
            ++i;
        }
    }
    return out;
}

}  // namespace qs::workers
