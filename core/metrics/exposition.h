#pragma once

#include <string>
#include <string_view>
#include <vector>

// The Prometheus text exposition format, version 0.0.4: metric families in,
// the text a scraper reads out. Plain values, no registry and no threads: the
// caller gathers a consistent set of figures and renders them in one call.
namespace qs::metrics {

// The Content-Type of a 0.0.4 exposition.
inline constexpr std::string_view kExpositionContentType =
    "text/plain; version=0.0.4; charset=utf-8";

enum class MetricType { Counter, Gauge };

struct Label {
    std::string name;   // [a-zA-Z_][a-zA-Z0-9_]*, not starting with "__"
    std::string value;  // any text; escaped (and invalid UTF-8 replaced) when rendered
};

struct Sample {
    std::vector<Label> labels;  // no name twice
    double value = 0;           // integers up to 2^53 are written exactly
};

struct MetricFamily {
    std::string name;  // [a-zA-Z_:][a-zA-Z0-9_:]*; a counter's ends in "_total"
    std::string help;  // one line of text; escaped when rendered
    MetricType type = MetricType::Counter;
    std::vector<Sample> samples;  // none: only HELP and TYPE are written
};

bool isValidMetricName(std::string_view name);
bool isValidLabelName(std::string_view name);

// A label value as it goes between the quotes: backslash, double quote and
// line feed escaped; bytes that are not UTF-8 become U+FFFD.
std::string escapeLabelValue(std::string_view value);
// HELP text: backslash and line feed escaped; invalid UTF-8 replaced.
std::string escapeHelp(std::string_view help);
// A sample value: integers in plain decimal, "+Inf", "-Inf", "NaN", else the
// shortest text that reads back as the same double.
std::string formatValue(double value);

// The exposition of `families` in the given order: "# HELP", "# TYPE", then
// one line per sample. Throws std::invalid_argument for a programming error
// (an invalid or repeated metric or label name, a counter without "_total",
// a repeated label set, a negative or NaN counter), naming what is wrong.
std::string renderExposition(const std::vector<MetricFamily>& families);

}  // namespace qs::metrics
