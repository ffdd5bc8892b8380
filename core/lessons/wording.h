#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

// The few ways the lesson texts write numbers, shared so every sentence says
// them alike. Pure functions; any thread.
namespace qs::lessons {

// "1 task", "3 tasks".
inline std::string plural(std::uint64_t n, std::string_view one, std::string_view many) {
    return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

// A number as a sentence says it (printf "%g": 3, 0.5, 2.25).
inline std::string formatNumber(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

}  // namespace qs::lessons
