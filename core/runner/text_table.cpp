#include "runner/text_table.h"

#include <algorithm>

namespace qs::runner {

std::string TextTable::render() const {
    std::vector<std::size_t> width;
    for (const auto& row : rows_) {
        width.resize(std::max(width.size(), row.size()), 0);
        for (std::size_t i = 0; i < row.size(); ++i) {
            width[i] = std::max(width[i], row[i].size());
        }
    }
    std::size_t total = 0;
    for (std::size_t w : width) {
        total += w + 2;
    }
    std::string out;
    for (const auto& row : rows_) {
        if (row.empty()) {
            out += std::string(total > 2 ? total - 2 : 0, '-') + '\n';
            continue;
        }
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i) {
            const std::string pad(width[i] - row[i].size(), ' ');
            line += i == 0 ? row[i] + pad : pad + row[i];
            if (i + 1 < row.size()) {
                line += "  ";
            }
        }
        out += line + '\n';
    }
    return out;
}

}  // namespace qs::runner
