#pragma once

#include <string_view>

namespace qs::analysis {

// "worker-2" before "worker-10": runs of digits compare as numbers, the rest
// as bytes. Workers are listed in this order everywhere in the analysis.
bool naturalLess(std::string_view a, std::string_view b);

}  // namespace qs::analysis
