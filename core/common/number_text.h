#pragma once

#include <cstdio>
#include <string>

// Numbers as text for tables, reports and progress lines. Pure; any thread.
namespace qs {

// `v` with exactly `decimals` digits after the point ("%.*f"): 1.5, 2 -> "1.50".
inline std::string fixedPoint(double v, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, v);
    return text;
}

}  // namespace qs
