#include "widgets/timeline_geometry.h"

#include <QString>
#include <algorithm>

namespace qs::ui {

TimelineGeometry TimelineGeometry::compute(QSizeF size, const QFontMetrics& fm, int laneCount,
                                           std::int64_t t1, std::int64_t spanNs,
                                           std::optional<std::int64_t> cursorNs) {
    TimelineGeometry g;
    // The gutter fits a two-digit worker's name beside its dot.
    const double gutter = std::max(96, fm.horizontalAdvance(QStringLiteral("worker-10  ")) + 24);
    const double axis = fm.height() + kAxisPad * 2;
    g.plot = QRectF(gutter, axis, std::max(10.0, size.width() - gutter - 8.0),
                    std::max(10.0, size.height() - axis - 4.0));
    // Lanes of 16 to 96 px; more lanes than that fits (a short window, a big
    // pool) are thinner rather than cut off at the bottom.
    g.laneHeight = laneCount > 0 ? std::min(g.plot.height() / laneCount, 96.0) : g.plot.height();
    g.t1 = t1;
    g.spanNs = spanNs;
    g.t0 = t1 - spanNs;
    // At a time cursor what is still open is drawn up to the cursor, not on.
    g.openEnd = cursorNs ? std::min(*cursorNs, t1) : t1;
    return g;
}

double TimelineGeometry::xOf(std::int64_t t) const {
    return plot.left() + static_cast<double>(t - t0) / static_cast<double>(spanNs) * plot.width();
}

double TimelineGeometry::lanesBottom(int laneCount) const {
    return std::min(plot.bottom(), plot.top() + laneCount * laneHeight);
}

double TimelineGeometry::slotHeight(int slotsUsed) const {
    const double usable = laneHeight - 4.0 - bracketHeight();
    return usable / std::max(1, slotsUsed);
}

QRectF TimelineGeometry::slotRect(int laneIndex, int slotsUsed, int slot, double x,
                                  double width) const {
    const double slotH = slotHeight(slotsUsed);
    // A gap between sub-rows once they are tall enough to spare one.
    return QRectF(x, laneTop(laneIndex) + 2.0 + slot * slotH, std::max(1.0, width),
                  std::max(1.0, slotH - (slotH > 6 ? 1.5 : 0.0)));
}

QRectF TimelineGeometry::barRect(int laneIndex, const TimelineLane& lane,
                                 const TimelineBar& bar) const {
    const double x0 = xOf(bar.startNs);
    return slotRect(laneIndex, lane.slotsUsed, bar.slot, x0, xOf(drawnEnd(bar)) - x0);
}

std::vector<const TimelineBar*> TimelineGeometry::barsInView(
    const TimelineLane& lane, int laneIndex,
    const std::vector<std::pair<int, const TimelineBar*>>& openBars) const {
    std::vector<const TimelineBar*> out;
    forEachBarInView(lane, laneIndex, openBars,
                     [&](const TimelineSpan&, std::size_t i) { out.push_back(&lane.bars[i]); });
    return out;
}

const TimelineBar* TimelineGeometry::barAt(const TimelineLane& lane, int laneIndex,
                                           QPointF pos) const {
    const double nsPerPx = static_cast<double>(spanNs) / plot.width();
    const auto t = static_cast<std::int64_t>(t0 + (pos.x() - plot.left()) * nsPerPx);
    const auto slack = static_cast<std::int64_t>(2 * nsPerPx);
    const TimelineBar* best = nullptr;
    const std::int64_t from = t - std::max<std::int64_t>(lane.longestClosedNs, 1) - slack;
    auto it = std::partition_point(lane.bars.begin(), lane.bars.end(),
                                   [&](const TimelineBar& b) { return b.startNs < from; });
    for (; it != lane.bars.end() && it->startNs <= t + slack; ++it) {
        if (barRect(laneIndex, lane, *it).adjusted(-2, 0, 2, 0).contains(pos)) {
            best = &*it;  // the latest bar under the point is the one drawn on top
        }
    }
    return best;
}

}  // namespace qs::ui
