#include "common/limit.h"

#include <cstdio>

namespace qs {

std::string formatLimitNumber(long long value) {
    return std::to_string(value);
}

std::string formatLimitNumber(double value) {
    char buffer[32];
    // 15 significant digits: whole numbers print in full, 0.1 stays 0.1.
    std::snprintf(buffer, sizeof buffer, "%.15g", value);
    return buffer;
}

}  // namespace qs
