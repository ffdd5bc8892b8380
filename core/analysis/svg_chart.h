#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

// Inline SVG charts for the HTML report: drawn as text, no script, no
// external resource. Every label is escaped (analysis/html_text.h).
namespace qs::analysis {

struct ChartSeries {
    std::string name;
    std::string colour;                             // CSS colour
    std::vector<std::pair<double, double>> points;  // (x, y), x ascending; drawn as steps
};

struct ChartMarker {
    double x = 0;
    std::string label;
};

// A step chart: each series holds its value until its next point.
struct StepChart {
    std::string title;  // the SVG's accessible name
    std::string xUnit = "s";
    double xMax = 1;
    std::vector<ChartSeries> series;
    std::vector<ChartMarker> markers;  // vertical dashed lines (crashes)
    int width = 960;
    int height = 240;
};
std::string stepChartSvg(const StepChart& chart);

struct BarSegment {
    std::string name;
    std::string colour;
};
struct BarRow {
    std::string label;
    std::vector<std::uint64_t> values;  // one per segment
};
// Horizontal bars, one per row, split into segments.
struct StackedBars {
    std::string title;
    std::vector<BarSegment> segments;
    std::vector<BarRow> rows;
    int width = 960;
};
std::string stackedBarsSvg(const StackedBars& chart);

// 1, 2 or 5 times a power of ten, about range / targetTicks.
double niceStep(double range, int targetTicks);

}  // namespace qs::analysis
