#include "metrics/exposition.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <set>
#include <stdexcept>

namespace qs::metrics {

namespace {

constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

bool isAsciiLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool isAsciiDigit(char c) {
    return c >= '0' && c <= '9';
}

// Length of the well-formed UTF-8 sequence starting at text[i] (RFC 3629:
// no overlong forms, no surrogates, nothing above U+10FFFF), or 0.
std::size_t utf8SequenceLength(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    if (lead < 0x80)
        return 1;
    std::size_t length = 0;
    unsigned char low = 0x80;
    unsigned char high = 0xBF;  // allowed range of the second byte
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        low = lead == 0xE0 ? 0xA0 : 0x80;
        high = lead == 0xED ? 0x9F : 0xBF;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        low = lead == 0xF0 ? 0x90 : 0x80;
        high = lead == 0xF4 ? 0x8F : 0xBF;
    } else {
        return 0;
    }
    if (i + length > text.size() || byte(i + 1) < low || byte(i + 1) > high)
        return 0;
    for (std::size_t k = 2; k < length; ++k) {
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF)
            return 0;
    }
    return length;
}

// Escapes backslash and line feed, and the double quote when `quote` is set.
std::string escape(std::string_view text, bool quote) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (c == '\\') {
            out += "\\\\";
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '"' && quote) {
            out += "\\\"";
        } else {
            const std::size_t length = utf8SequenceLength(text, i);
            if (length == 0) {
                out += kReplacementCharacter;
                ++i;
                continue;
            }
            out.append(text.substr(i, length));
            i += length;
            continue;
        }
        ++i;
    }
    return out;
}

[[noreturn]] void refuse(const std::string& what) {
    throw std::invalid_argument("metrics exposition: " + what);
}

void checkFamily(const MetricFamily& family) {
    if (!isValidMetricName(family.name))
        refuse("invalid metric name '" + family.name + "'");
    if (family.type == MetricType::Counter && !family.name.ends_with("_total"))
        refuse("counter '" + family.name + "' does not end in _total");
    std::set<std::vector<std::pair<std::string, std::string>>> labelSets;
    for (const Sample& sample : family.samples) {
        std::set<std::string_view> names;
        std::vector<std::pair<std::string, std::string>> labelSet;
        for (const Label& label : sample.labels) {
            if (!isValidLabelName(label.name))
                refuse("invalid label name '" + label.name + "' in '" + family.name + "'");
            if (!names.insert(label.name).second)
                refuse("label '" + label.name + "' twice in one sample of '" + family.name + "'");
            labelSet.emplace_back(label.name, label.value);
        }
        std::sort(labelSet.begin(), labelSet.end());
        if (!labelSets.insert(std::move(labelSet)).second)
            refuse("two samples of '" + family.name + "' with the same labels");
        if (family.type == MetricType::Counter && !(sample.value >= 0))
            refuse("counter '" + family.name + "' has a negative or NaN value");
    }
}

void appendSample(std::string& out, const std::string& name, const Sample& sample) {
    out += name;
    if (!sample.labels.empty()) {
        out += '{';
        for (std::size_t i = 0; i < sample.labels.size(); ++i) {
            if (i > 0)
                out += ',';
            out += sample.labels[i].name;
            out += "=\"";
            out += escapeLabelValue(sample.labels[i].value);
            out += '"';
        }
        out += '}';
    }
    out += ' ';
    out += formatValue(sample.value);
    out += '\n';
}

}  // namespace

bool isValidMetricName(std::string_view name) {
    if (name.empty() || isAsciiDigit(name.front()))
        return false;
    for (char c : name) {
        if (!isAsciiLetter(c) && !isAsciiDigit(c) && c != '_' && c != ':')
            return false;
    }
    return true;
}

bool isValidLabelName(std::string_view name) {
    if (name.empty() || isAsciiDigit(name.front()) || name.starts_with("__"))
        return false;
    for (char c : name) {
        if (!isAsciiLetter(c) && !isAsciiDigit(c) && c != '_')
            return false;
    }
    return true;
}

std::string escapeLabelValue(std::string_view value) {
    return escape(value, true);
}

std::string escapeHelp(std::string_view help) {
    return escape(help, false);
}

std::string formatValue(double value) {
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "+Inf" : "-Inf";
    constexpr double kExactIntegers = 9007199254740992.0;  // 2^53
    if (value == std::trunc(value) && std::fabs(value) <= kExactIntegers)
        return std::to_string(static_cast<std::int64_t>(value));
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
    return std::string(buffer, result.ptr);
}

std::string renderExposition(const std::vector<MetricFamily>& families) {
    std::set<std::string_view> names;
    std::string out;
    for (const MetricFamily& family : families) {
        checkFamily(family);
        if (!names.insert(family.name).second)
            refuse("metric '" + family.name + "' twice");
        out += "# HELP " + family.name + ' ' + escapeHelp(family.help) + '\n';
        out += "# TYPE " + family.name +
               (family.type == MetricType::Counter ? " counter\n" : " gauge\n");
        for (const Sample& sample : family.samples)
            appendSample(out, family.name, sample);
    }
    return out;
}

}  // namespace qs::metrics
