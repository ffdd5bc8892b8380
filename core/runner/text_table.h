#pragma once

#include <string>
#include <vector>

namespace qs::runner {

// A plain-text table: the first column left-aligned, the others
// right-aligned, each as wide as its widest cell, two spaces apart; an empty
// row is a dashed separator. Used by the run summary and `queuescope compare`.
class TextTable {
public:
    explicit TextTable(std::vector<std::string> header) { rows_.push_back(std::move(header)); }
    void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
    void separator() { rows_.push_back({}); }
    std::string render() const;

private:
    std::vector<std::vector<std::string>> rows_;
};

}  // namespace qs::runner
