#pragma once

#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

namespace qs {

// The names of a small enum's values, for the toString / parse pairs: both
// directions read one table, so a name cannot be spelled two ways. The table
// lists every enumerator once, in declaration order, starting at 0; a table out
// of that order does not compile. Immutable; usable from any thread.
template <typename Enum, std::size_t N>
class EnumNames {
public:
    using Entry = std::pair<Enum, std::string_view>;

    consteval explicit EnumNames(const Entry (&entries)[N]) {
        for (std::size_t i = 0; i < N; ++i) {
            if (static_cast<std::size_t>(entries[i].first) != i)
                throw "EnumNames: entries must follow the enum's declaration order from 0";
            names_[i] = entries[i].second;
        }
    }

    static constexpr std::size_t size() { return N; }

    // `unknown` for a value outside the table (a cast from a bad integer).
    constexpr std::string_view name(Enum value, std::string_view unknown = "unknown") const {
        const auto index = static_cast<std::size_t>(value);
        return index < N ? names_[index] : unknown;
    }

    // Exact, case-sensitive match; *out is left alone when nothing matches.
    constexpr bool parse(std::string_view text, Enum* out) const {
        for (std::size_t i = 0; i < N; ++i) {
            if (names_[i] == text) {
                *out = static_cast<Enum>(i);
                return true;
            }
        }
        return false;
    }

private:
    std::array<std::string_view, N> names_{};
};

// enumNames<Kind>({{Kind::A, "a"}, {Kind::B, "b"}}): the table's size comes
// from the list.
template <typename Enum, std::size_t N>
consteval EnumNames<Enum, N> enumNames(const std::pair<Enum, std::string_view> (&entries)[N]) {
    return EnumNames<Enum, N>(entries);
}

}  // namespace qs
