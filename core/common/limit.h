#pragma once

#include <string>
#include <string_view>
#include <type_traits>

// One setting's allowed range and default, with the name and unit its texts
// use. Every check, parser, usage text and console control that needs a range
// reads it from one of these records (common/protocol_limits.h,
// workers/setting_limits.h), so no two of them can disagree. Constant data:
// safe from any thread.
namespace qs {

std::string formatLimitNumber(long long value);
std::string formatLimitNumber(double value);  // 0.5, 3600, 86400000, 1e-07

template <typename T>
struct Limit {
    static_assert(std::is_arithmetic_v<T>);

    std::string_view name;  // as error texts name it: "batch size"
    T min;
    T max;
    T defaultValue;
    std::string_view unit = {};  // written after the numbers: "ms", "s"; empty = none

    // False for NaN and the infinities too.
    constexpr bool contains(T value) const { return min <= value && value <= max; }

    // "1..1024", "0..3600 s".
    std::string range() const { return number(min) + ".." + number(max) + unitSuffix(); }

    // "between 1 and 1024", "between 0 and 3600 s".
    std::string bounds() const {
        return "between " + number(min) + " and " + number(max) + unitSuffix();
    }

    // Empty when `value` is in range; otherwise
    // "batch size must be between 1 and 1024 (got 2000)".
    std::string problem(T value) const {
        if (contains(value)) {
            return {};
        }
        return std::string(name) + " must be " + bounds() + " (got " + number(value) + ")";
    }

    // The same range in another unit, e.g. a record kept in ms shown in seconds.
    template <typename U = double>
    constexpr Limit<U> scaled(double factor, std::string_view newUnit) const {
        return Limit<U>{name, static_cast<U>(min * factor), static_cast<U>(max * factor),
                        static_cast<U>(defaultValue * factor), newUnit};
    }

private:
    std::string unitSuffix() const { return unit.empty() ? "" : " " + std::string(unit); }
    static std::string number(T value) {
        if constexpr (std::is_floating_point_v<T>) {
            return formatLimitNumber(static_cast<double>(value));
        } else {
            return formatLimitNumber(static_cast<long long>(value));
        }
    }
};

}  // namespace qs
