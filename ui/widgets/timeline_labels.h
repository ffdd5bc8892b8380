#pragma once

#include <QFontMetricsF>
#include <QRectF>
#include <QString>
#include <cstdint>
#include <vector>

// Where the timeline paints its text: the time axis labels and the
// configuration markers' labels. Pure functions of the geometry and the font,
// so a test can check that no two labels overlap and every one lies inside
// the widget (a painted label is invisible to a QLabel-based layout check).
// A label that does not fit is left out (axis) or thinned out (markers; the
// marker's line stays and its tooltip says the text), never drawn over
// another one. Safe from any thread.
namespace qs::ui {

struct PlacedLabel {
    QRectF rect;       // widget coordinates
    QString text;      // as drawn (elided when longer than the label's width limit)
    QString fullText;  // for the tooltip
    std::int64_t timeNs = 0;
};

struct AxisLayout {
    std::int64_t stepNs = 0;
    std::vector<std::int64_t> ticks;  // grid lines, t0 < tick <= t1
    std::vector<PlacedLabel> labels;  // the ticks that got a label
};

struct AxisRequest {
    std::int64_t t0 = 0, t1 = 0;    // the visible time window (monotonic ns)
    double left = 0, right = 0;     // the plot's x range the window maps onto
    double labelRight = 0;          // labels end before this x (the LIVE badge)
    double top = 0;                 // the labels' top
    std::int64_t wallOffsetNs = 0;  // monotonic + this = Unix time (ticks fall on round times)
};

// A "nice" step (0.1 s … 30 min) with at most 8 ticks in the window and room
// between two ticks for the widest label plus a gap; labels are formatClock().
AxisLayout layoutTimeAxis(const AxisRequest& request, const QFontMetricsF& fm);

struct MarkerRequest {
    double x = 0;
    QString text;
    std::int64_t timeNs = 0;
};

// Labels beside their marker line, in rows from `area.top()`: a label goes in
// the first row where it overlaps no other; with no free row among those that
// fit in `area` (at most 3) it is thinned out. Labels are at most
// kMaxMarkerLabelWidth wide (elided; fullText is whole) and kept inside `area`.
inline constexpr double kMaxMarkerLabelWidth = 220;
std::vector<PlacedLabel> layoutMarkerLabels(const std::vector<MarkerRequest>& markers,
                                            const QRectF& area, const QFontMetricsF& fm);

}  // namespace qs::ui
