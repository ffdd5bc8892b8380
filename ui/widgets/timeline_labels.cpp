#include "widgets/timeline_labels.h"

#include <algorithm>
#include <iterator>

#include "models/event_time.h"

namespace qs::ui {

namespace {
constexpr double kLabelGap = 12;  // between two axis labels
constexpr double kRowGap = 2;     // between two rows of marker labels
constexpr int kMaxMarkerRows = 3;
}  // namespace

AxisLayout layoutTimeAxis(const AxisRequest& r, const QFontMetricsF& fm) {
    static const double steps[] = {0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800};
    AxisLayout out;
    const double spanS = static_cast<double>(r.t1 - r.t0) / 1e9;
    const double width = r.right - r.left;
    if (spanS <= 0 || width <= 0) {
        return out;
    }
    double step = steps[std::size(steps) - 1];
    for (const double s : steps) {
        // Sub-second steps print milliseconds: their labels are wider.
        const double label = fm.horizontalAdvance(s < 1.0 ? QStringLiteral("00:00:00.000")
                                                          : QStringLiteral("00:00:00"));
        if (spanS / s <= 8.0 && s / spanS * width >= label + kLabelGap) {
            step = s;
            break;
        }
    }
    out.stepNs = static_cast<std::int64_t>(step * 1e9);
    std::int64_t tick = ((r.t0 + r.wallOffsetNs) / out.stepNs + 1) * out.stepNs - r.wallOffsetNs;
    double lastRight = -1e9;
    for (; tick <= r.t1; tick += out.stepNs) {
        out.ticks.push_back(tick);
        const double x = r.left + static_cast<double>(tick - r.t0) / (r.t1 - r.t0) * width;
        const QString text = formatClock(tick, step < 1.0);
        const double w = fm.horizontalAdvance(text);
        const QRectF rect(x - w / 2, r.top, w, fm.height());
        if (rect.left() <= r.left || rect.right() >= r.labelRight ||
            rect.left() < lastRight + kLabelGap) {
            continue;  // would stick out, or touch its neighbour
        }
        lastRight = rect.right();
        out.labels.push_back({rect, text, text, tick});
    }
    return out;
}

std::vector<PlacedLabel> layoutMarkerLabels(const std::vector<MarkerRequest>& markers,
                                            const QRectF& area, const QFontMetricsF& fm) {
    std::vector<PlacedLabel> out;
    const double rowHeight = fm.height() + 2;
    const int rows = std::min<int>(
        kMaxMarkerRows, static_cast<int>((area.height() + kRowGap) / (rowHeight + kRowGap)));
    std::vector<std::vector<QRectF>> taken(static_cast<std::size_t>(std::max(rows, 0)));
    for (const MarkerRequest& m : markers) {
        const double limit = std::min(kMaxMarkerLabelWidth, area.width() - 4);
        if (limit <= 10) {
            break;
        }
        const QString text = fm.elidedText(m.text, Qt::ElideRight, limit - 10);
        const double w = std::min(limit, fm.horizontalAdvance(text) + 10);
        double left = m.x + 2;
        if (left + w > area.right()) {
            left = m.x - 2 - w;  // the line's left side near the right edge
        }
        left = std::clamp(left, area.left(), area.right() - w);
        for (int row = 0; row < rows; ++row) {
            const QRectF rect(left, area.top() + row * (rowHeight + kRowGap), w, rowHeight);
            auto& inRow = taken[static_cast<std::size_t>(row)];
            const bool free = std::none_of(inRow.begin(), inRow.end(), [&](const QRectF& other) {
                return other.adjusted(-2, 0, 2, 0).intersects(rect);
            });
            if (free) {
                inRow.push_back(rect);
                out.push_back({rect, text, m.text, m.timeNs});
                break;
            }
        }
    }
    return out;
}

}  // namespace qs::ui
