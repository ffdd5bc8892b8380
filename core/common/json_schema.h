#pragma once

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>

// Reading a JSON document against a schema written in code (scenarios,
// lessons): each reader checks one value and, on a mismatch, throws a
// SchemaError naming where it is ("steps[0].run.workers.batch") and what is
// wrong. Parsers catch SchemaError at their entry point and turn it into their
// caller's error string; it never leaves a parser. Header-only: a target that
// includes it links nlohmann_json. Pure functions; any thread.
namespace qs::json_schema {

using json = nlohmann::json;

struct SchemaError {
    std::string message;  // "where: what"
    std::string where;    // the path alone, for lineOfJsonPath (common/json_path_line.h)
};

[[noreturn]] inline void fail(const std::string& where, const std::string& what) {
    throw SchemaError{where + ": " + what, where};
}

// The error as a file's reader says it: "line N: where: what".
inline std::string withLine(const SchemaError& e, int line) {
    return "line " + std::to_string(line) + ": " + e.message;
}

// "workers" + "batch" -> "workers.batch"; at the root just "batch".
inline std::string joinPath(const std::string& where, std::string_view key) {
    return where.empty() ? std::string(key) : where + "." + std::string(key);
}

// "steps" + 2 -> "steps[2]".
inline std::string indexPath(const std::string& where, std::size_t i) {
    return where + "[" + std::to_string(i) + "]";
}

// The first key of `object` that is not in `allowed`; nullopt when all are.
inline std::optional<std::string> unknownKey(const json& object,
                                             std::span<const std::string_view> allowed) {
    for (const auto& item : object.items()) {
        if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end())
            return item.key();
    }
    return std::nullopt;
}

// `object` must be an object whose keys are all in `allowed`. `root` names the
// document when `where` is empty ("scenario: must be a JSON object").
inline void checkKeys(const json& object, const std::string& where,
                      std::span<const std::string_view> allowed, std::string_view root,
                      std::string_view problem = "unknown key") {
    if (!object.is_object())
        fail(where.empty() ? std::string(root) : where, "must be a JSON object");
    if (const auto key = unknownKey(object, allowed))
        fail(joinPath(where, *key), std::string(problem));
}

// The value under `key`; `what` says what belongs there when it is missing.
inline const json& need(const json& object, const std::string& where, std::string_view key,
                        std::string_view what) {
    if (!object.contains(key))
        fail(joinPath(where, key), "missing (" + std::string(what) + ")");
    return object[std::string(key)];
}

inline std::string getString(const json& v, const std::string& where) {
    if (!v.is_string())
        fail(where, "must be a string");
    return v.get<std::string>();
}

inline std::string getNonEmptyString(const json& v, const std::string& where) {
    if (!v.is_string() || v.get<std::string>().empty())
        fail(where, "must be a non-empty string");
    return v.get<std::string>();
}

inline bool getBool(const json& v, const std::string& where) {
    if (!v.is_boolean())
        fail(where, "must be true or false");
    return v.get<bool>();
}

inline double getNumber(const json& v, const std::string& where) {
    if (!v.is_number())
        fail(where, "must be a number");
    const double d = v.get<double>();
    if (!std::isfinite(d))
        fail(where, "must be a finite number");
    return d;
}

// A whole number in [min, max]; a huge unsigned one counts as out of range.
inline int getInt(const json& v, const std::string& where, long long min, long long max) {
    if (!v.is_number_integer())
        fail(where, "must be a whole number");
    long long n = v.get<long long>();
    if (v.is_number_unsigned() &&
        v.get<unsigned long long>() >
            static_cast<unsigned long long>(std::numeric_limits<long long>::max()))
        n = std::numeric_limits<long long>::max();
    if (n < min || n > max)
        fail(where, "must be between " + std::to_string(min) + " and " + std::to_string(max));
    return static_cast<int>(n);
}

// A string naming one value of an enum, read with that enum's parse function;
// `choices` lists the names for the error.
template <typename Enum>
Enum getEnum(const json& v, const std::string& where, bool (*parse)(std::string_view, Enum*),
             std::string_view choices) {
    const std::string text = getString(v, where);
    Enum value{};
    if (!parse(text, &value))
        fail(where, "'" + text + "' is not one of " + std::string(choices));
    return value;
}

}  // namespace qs::json_schema
