#include "exposition_parser.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <set>

namespace qs::test {

namespace {

bool isLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

bool validUtf8(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        const auto lead = static_cast<unsigned char>(text[i]);
        std::size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3
                                          : (lead >> 3) == 0x1E    ? 4
                                                                   : 0;
        if (length == 0 || i + length > text.size())
            return false;
        std::uint32_t code = length == 1 ? lead : lead & (0x7F >> length);
        for (std::size_t k = 1; k < length; ++k) {
            const auto next = static_cast<unsigned char>(text[i + k]);
            if ((next & 0xC0) != 0x80)
                return false;
            code = (code << 6) | (next & 0x3F);
        }
        static constexpr std::uint32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
        if (code < kSmallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
            return false;
        i += length;
    }
    return true;
}

// Reads text from `line` at `pos` while the characters fit a name; empty if none.
std::string readName(std::string_view line, std::size_t& pos, bool colonAllowed) {
    const std::size_t start = pos;
    while (pos < line.size()) {
        const char c = line[pos];
        const bool fits = isLetter(c) || c == '_' || (colonAllowed && c == ':') ||
                          (isDigit(c) && pos > start);
        if (!fits)
            break;
        ++pos;
    }
    return std::string(line.substr(start, pos - start));
}

// A Go ParseFloat-style value as Prometheus writes it.
std::optional<double> parseValue(std::string_view text) {
    if (text == "NaN")
        return std::nan("");
    if (text == "+Inf")
        return HUGE_VAL;
    if (text == "-Inf")
        return -HUGE_VAL;
    if (text.empty())
        return std::nullopt;
    for (char c : text) {
        if (!isDigit(c) && c != '.' && c != 'e' && c != 'E' && c != '+' && c != '-')
            return std::nullopt;
    }
    const std::string copy(text);
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size() || errno == ERANGE)
        return std::nullopt;
    return value;
}

// Unescapes HELP text (\\ and \n) or a label value (also \"); nullopt on any
// other escape.
std::optional<std::string> unescape(std::string_view text, bool quoteAllowed) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\\') {
            out += text[i];
            continue;
        }
        if (++i == text.size())
            return std::nullopt;
        if (text[i] == '\\')
            out += '\\';
        else if (text[i] == 'n')
            out += '\n';
        else if (text[i] == '"' && quoteAllowed)
            out += '"';
        else
            return std::nullopt;
    }
    return out;
}

class Parser {
public:
    std::optional<ParsedExposition> parse(std::string_view text, std::string* error) {
        if (!validUtf8(text))
            return fail(error, "the text is not UTF-8");
        if (!text.empty() && text.back() != '\n')
            return fail(error, "the last line does not end with a line feed");
        std::size_t start = 0;
        while (start < text.size()) {
            const std::size_t end = text.find('\n', start);
            ++lineNumber_;
            if (!parseLine(text.substr(start, end - start)))
                return fail(error, "line " + std::to_string(lineNumber_) + ": " + problem_);
            start = end + 1;
        }
        for (const auto& [name, family] : result_.families) {
            if (family.type.empty() || !helped_.contains(name))
                return fail(error, "family " + name + " lacks a HELP or TYPE line");
        }
        return result_;
    }

private:
    std::optional<ParsedExposition> fail(std::string* error, const std::string& what) {
        if (error != nullptr)
            *error = what;
        return std::nullopt;
    }

    bool refuse(const std::string& what) {
        problem_ = what;
        return false;
    }

    bool parseLine(std::string_view line) {
        if (line.empty())
            return refuse("empty line");
        if (line.starts_with("# HELP ") || line.starts_with("# TYPE "))
            return parseDescriptor(line.substr(2, 4), line.substr(7));
        if (line.front() == '#')
            return refuse("a comment that is neither HELP nor TYPE");
        return parseSample(line);
    }

    // Opens family `name` for a HELP or TYPE line, or checks it is the open one.
    bool openFamily(const std::string& name) {
        if (name == current_)
            return true;
        if (!result_.families.try_emplace(name).second || closed_.contains(name))
            return refuse("family " + name + " is described apart from its samples");
        if (!current_.empty())
            closed_.insert(current_);
        current_ = name;
        return true;
    }

    bool parseDescriptor(std::string_view keyword, std::string_view rest) {
        std::size_t pos = 0;
        const std::string name = readName(rest, pos, true);
        if (name.empty() || pos >= rest.size() || rest[pos] != ' ')
            return refuse("a " + std::string(keyword) + " line without a valid metric name");
        if (!openFamily(name))
            return false;
        ParsedFamily& family = result_.families[name];
        const std::string_view value = rest.substr(pos + 1);
        if (keyword == "HELP") {
            if (!helped_.insert(name).second)
                return refuse("a second HELP for " + name);
            const auto help = unescape(value, false);
            if (!help)
                return refuse("an invalid escape in the HELP of " + name);
            family.help = *help;
            return true;
        }
        if (!family.type.empty())
            return refuse("a second TYPE for " + name);
        if (!family.series.empty())
            return refuse("the TYPE of " + name + " after its samples");
        if (value != "counter" && value != "gauge")
            return refuse("type '" + std::string(value) + "' of " + name +
                          " (only counter and gauge are expected)");
        family.type = std::string(value);
        return true;
    }

    bool parseLabels(std::string_view line, std::size_t& pos,
                     std::map<std::string, std::string>& labels) {
        ++pos;  // '{'
        while (pos < line.size() && line[pos] != '}') {
            const std::string name = readName(line, pos, false);
            if (name.empty() || name.starts_with("__"))
                return refuse("an invalid label name");
            if (line.substr(pos, 2) != "=\"")
                return refuse("label " + name + " without =\"");
            pos += 2;
            const std::size_t start = pos;
            while (pos < line.size() && line[pos] != '"')
                pos += line[pos] == '\\' ? 2 : 1;
            if (pos >= line.size())
                return refuse("an unterminated value of label " + name);
            const auto value = unescape(line.substr(start, pos - start), true);
            if (!value)
                return refuse("an invalid escape in label " + name);
            if (!labels.emplace(name, *value).second)
                return refuse("label " + name + " twice");
            ++pos;  // closing quote
            if (pos < line.size() && line[pos] == ',')
                ++pos;
            else if (pos < line.size() && line[pos] != '}')
                return refuse("labels not separated by a comma");
        }
        if (pos >= line.size())
            return refuse("labels without a closing brace");
        ++pos;  // '}'
        return true;
    }

    bool parseSample(std::string_view line) {
        std::size_t pos = 0;
        const std::string name = readName(line, pos, true);
        if (name.empty())
            return refuse("a sample without a valid metric name");
        if (name != current_)
            return refuse("sample " + name + " outside its family's HELP / TYPE block");
        ParsedFamily& family = result_.families[name];
        if (family.type.empty())
            return refuse("sample " + name + " before its TYPE");
        ParsedSeries series;
        if (pos < line.size() && line[pos] == '{' && !parseLabels(line, pos, series.labels))
            return false;
        if (pos >= line.size() || line[pos] != ' ')
            return refuse("no space before the value of " + name);
        std::string_view rest = line.substr(pos + 1);
        const std::size_t space = rest.find(' ');
        if (space != std::string_view::npos) {  // an optional timestamp: an integer
            const std::string_view stamp = rest.substr(space + 1);
            std::size_t digits = stamp.starts_with('-') ? 1 : 0;
            if (stamp.size() == digits)
                return refuse("an empty timestamp");
            for (; digits < stamp.size(); ++digits) {
                if (!isDigit(stamp[digits]))
                    return refuse("an invalid timestamp");
            }
            rest = rest.substr(0, space);
        }
        const auto value = parseValue(rest);
        if (!value)
            return refuse("an invalid value '" + std::string(rest) + "'");
        if (family.type == "counter" && !(*value >= 0))
            return refuse("counter " + name + " is negative or NaN");
        series.value = *value;
        for (const ParsedSeries& other : family.series) {
            if (other.labels == series.labels)
                return refuse("a repeated series of " + name);
        }
        family.series.push_back(std::move(series));
        return true;
    }

    ParsedExposition result_;
    std::string current_;          // the family whose lines are being read
    std::set<std::string> closed_;  // families already left
    std::set<std::string> helped_;
    std::string problem_;
    int lineNumber_ = 0;
};

}  // namespace

std::optional<double> ParsedExposition::value(
    const std::string& name, const std::map<std::string, std::string>& labels) const {
    const auto family = families.find(name);
    if (family == families.end())
        return std::nullopt;
    for (const ParsedSeries& series : family->second.series) {
        if (series.labels == labels)
            return series.value;
    }
    return std::nullopt;
}

std::optional<ParsedExposition> parseExposition(std::string_view text, std::string* error) {
    return Parser().parse(text, error);
}

}  // namespace qs::test
