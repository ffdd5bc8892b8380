#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// A strict reader of the Prometheus text exposition format 0.0.4, written for
// the tests from the format's description (not from the renderer in
// core/metrics), so a mistake in one is not hidden by the same one in the
// other. Beyond the format it insists on what a well-behaved exporter does:
// every family has exactly one HELP and one TYPE line before its samples, its
// samples are contiguous, no series appears twice, the text is UTF-8 and ends
// with a line feed. Only counter and gauge families are accepted.
namespace qs::test {

struct ParsedSeries {
    std::map<std::string, std::string> labels;  // unescaped
    double value = 0;
};

struct ParsedFamily {
    std::string help;  // unescaped
    std::string type;  // "counter" or "gauge"
    std::vector<ParsedSeries> series;
};

struct ParsedExposition {
    std::map<std::string, ParsedFamily> families;

    // The value of one series, or nullopt when it is not there.
    std::optional<double> value(const std::string& name,
                                const std::map<std::string, std::string>& labels = {}) const;
};

// The parsed text, or nullopt with *error naming the line and what is wrong.
std::optional<ParsedExposition> parseExposition(std::string_view text, std::string* error);

}  // namespace qs::test
