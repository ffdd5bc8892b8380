#include "analysis/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "analysis/html_text.h"

namespace qs::analysis {

double niceStep(double range, int targetTicks) {
    if (!(range > 0) || targetTicks < 1) {
        return 1;
    }
    const double raw = range / targetTicks;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0}) {
        if (m * power >= raw) {
            return m * power;
        }
    }
    return 10 * power;
}

namespace {

std::string num(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", v);
    return text;
}

// A tick label: no trailing ".0", up to three decimals for small steps.
std::string tickText(double v, double step) {
    char text[32];
    const int decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : step >= 0.01 ? 2 : 3;
    std::snprintf(text, sizeof text, "%.*f", decimals, v);
    return text;
}

std::string legend(const std::vector<std::pair<std::string, std::string>>& entries, double x,
                   double y) {
    std::string out;
    for (const auto& [name, colour] : entries) {
        out += "<rect x=\"" + num(x) + "\" y=\"" + num(y - 9) +
               "\" width=\"12\" height=\"10\" fill=\"" + htmlEscape(colour) +
               "\" stroke=\"#555\" stroke-width=\"0.5\"/>";
        out +=
            "<text x=\"" + num(x + 16) + "\" y=\"" + num(y) + "\">" + htmlEscape(name) + "</text>";
        x += 28 + 7.0 * static_cast<double>(name.size());
    }
    return out;
}

}  // namespace

std::string stepChartSvg(const StepChart& c) {
    const double left = 56;
    const double right = 16;
    const double top = 30;
    const double bottom = 34;
    const double w = c.width - left - right;
    const double h = c.height - top - bottom;
    double yMax = 1;
    for (const ChartSeries& s : c.series) {
        for (const auto& p : s.points) {
            yMax = std::max(yMax, p.second);
        }
    }
    const double xMax = c.xMax > 0 ? c.xMax : 1;
    const double yStep = std::max(1.0, niceStep(yMax, 4));
    yMax = std::ceil(yMax / yStep) * yStep;
    const double xStep = niceStep(xMax, 8);
    auto X = [&](double x) { return left + w * std::clamp(x / xMax, 0.0, 1.0); };
    auto Y = [&](double y) { return top + h - h * (y / yMax); };

    std::string out =
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" role=\"img\" "
        "viewBox=\"0 0 " +
        std::to_string(c.width) + " " + std::to_string(c.height) + "\" aria-label=\"" +
        htmlEscape(c.title) + "\">";
    out += "<title>" + htmlEscape(c.title) + "</title>";
    out += "<g class=\"grid\">";
    for (double y = 0; y <= yMax + yStep / 2; y += yStep) {
        out += "<line x1=\"" + num(left) + "\" x2=\"" + num(left + w) + "\" y1=\"" + num(Y(y)) +
               "\" y2=\"" + num(Y(y)) + "\"/>";
        out += "<text class=\"ytick\" x=\"" + num(left - 6) + "\" y=\"" + num(Y(y) + 4) + "\">" +
               tickText(y, yStep) + "</text>";
    }
    for (double x = 0; x <= xMax + xStep / 1000; x += xStep) {
        out += "<text class=\"xtick\" x=\"" + num(X(x)) + "\" y=\"" + num(top + h + 16) + "\">" +
               tickText(x, xStep) + "</text>";
    }
    out += "<text class=\"xtick\" x=\"" + num(left + w) + "\" y=\"" + num(top + h + 30) + "\">" +
           htmlEscape(c.xUnit) + "</text>";
    out += "</g><rect class=\"frame\" x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" +
           num(w) + "\" height=\"" + num(h) + "\"/>";
    for (std::size_t i = 0; i < c.markers.size(); ++i) {
        const ChartMarker& m = c.markers[i];
        out += "<line class=\"marker\" x1=\"" + num(X(m.x)) + "\" x2=\"" + num(X(m.x)) +
               "\" y1=\"" + num(top) + "\" y2=\"" + num(top + h) + "\"><title>" +
               htmlEscape(m.label) + "</title></line>";
        if (i < 12) {  // labels for the first few; every line keeps its tooltip
            out += "<text class=\"marker-label\" x=\"" + num(X(m.x) + 3) + "\" y=\"" +
                   num(top + 12 + 12.0 * static_cast<double>(i % 3)) + "\">" + htmlEscape(m.label) +
                   "</text>";
        }
    }
    for (const ChartSeries& s : c.series) {
        if (s.points.empty()) {
            continue;
        }
        std::string d =
            "M" + num(X(s.points.front().first)) + " " + num(Y(s.points.front().second));
        for (std::size_t i = 1; i < s.points.size(); ++i) {
            d += "H" + num(X(s.points[i].first)) + "V" + num(Y(s.points[i].second));
        }
        d += "H" + num(X(xMax));
        out += "<path class=\"series\" d=\"" + d + "\" stroke=\"" + htmlEscape(s.colour) +
               "\"><title>" + htmlEscape(s.name) + "</title></path>";
    }
    std::vector<std::pair<std::string, std::string>> entries;
    for (const ChartSeries& s : c.series) {
        entries.emplace_back(s.name, s.colour);
    }
    out += "<g class=\"legend\">" + legend(entries, left, 16) + "</g></svg>";
    return out;
}

std::string stackedBarsSvg(const StackedBars& c) {
    const double labelWidth = 120;
    const double right = 70;
    const double top = 30;
    const double rowHeight = 26;
    const double barHeight = 18;
    const int height = static_cast<int>(top + rowHeight * static_cast<double>(c.rows.size()) + 8);
    std::uint64_t maxTotal = 1;
    std::vector<std::uint64_t> segmentTotals(c.segments.size(), 0);
    for (const BarRow& r : c.rows) {
        std::uint64_t total = 0;
        for (std::size_t i = 0; i < r.values.size() && i < c.segments.size(); ++i) {
            total += r.values[i];
            segmentTotals[i] += r.values[i];
        }
        maxTotal = std::max(maxTotal, total);
    }
    const double w = c.width - labelWidth - right;
    std::string out =
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" role=\"img\" "
        "viewBox=\"0 0 " +
        std::to_string(c.width) + " " + std::to_string(height) + "\" aria-label=\"" +
        htmlEscape(c.title) + "\">";
    out += "<title>" + htmlEscape(c.title) + "</title>";
    for (std::size_t row = 0; row < c.rows.size(); ++row) {
        const BarRow& r = c.rows[row];
        const double y = top + rowHeight * static_cast<double>(row);
        out += "<text class=\"bar-label\" x=\"" + num(labelWidth - 8) + "\" y=\"" +
               num(y + barHeight - 5) + "\">" + htmlEscape(r.label) + "</text>";
        double x = labelWidth;
        std::uint64_t total = 0;
        for (std::size_t i = 0; i < r.values.size() && i < c.segments.size(); ++i) {
            if (r.values[i] == 0) {
                continue;
            }
            const double segment =
                w * static_cast<double>(r.values[i]) / static_cast<double>(maxTotal);
            out += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" +
                   num(std::max(segment, 0.5)) + "\" height=\"" + num(barHeight) + "\" fill=\"" +
                   htmlEscape(c.segments[i].colour) + "\"><title>" + htmlEscape(r.label) + ": " +
                   std::to_string(r.values[i]) + " " + htmlEscape(c.segments[i].name) +
                   "</title></rect>";
            x += segment;
            total += r.values[i];
        }
        out += "<text class=\"bar-total\" x=\"" + num(x + 6) + "\" y=\"" + num(y + barHeight - 5) +
               "\">" + std::to_string(total) + "</text>";
    }
    std::vector<std::pair<std::string, std::string>> entries;
    for (std::size_t i = 0; i < c.segments.size(); ++i) {
        if (segmentTotals[i] > 0) {
            entries.emplace_back(c.segments[i].name, c.segments[i].colour);
        }
    }
    out += "<g class=\"legend\">" + legend(entries, labelWidth, 16) + "</g></svg>";
    return out;
}

}  // namespace qs::analysis
