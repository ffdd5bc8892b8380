#pragma once

#include <QFontMetrics>
#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "models/timeline_model.h"

// Where the assignment timeline puts things at one instant: the plot area
// beside the lane labels and under the time axis, the lane height, and the
// time window shown. A value computed once per paint or hit test, so that
// painting, hit-testing and the tests' queries agree on every position.
namespace qs::ui {

struct TimelineGeometry {
    // Space above and below the axis labels.
    static constexpr int kAxisPad = 8;

    QRectF plot;  // the lanes' drawing area, right of the labels' gutter
    double laneHeight = 0;
    std::int64_t t0 = 0;  // the window's left edge
    std::int64_t t1 = 0;  // its right edge
    std::int64_t spanNs = 1;
    std::int64_t openEnd = 0;  // where what is still open ends: t1, or the time cursor

    // The geometry of a view of `size` in the font of `fm` showing `laneCount`
    // lanes over the `spanNs` that ends at `t1`.
    static TimelineGeometry compute(QSizeF size, const QFontMetrics& fm, int laneCount,
                                    std::int64_t t1, std::int64_t spanNs,
                                    std::optional<std::int64_t> cursorNs);

    double xOf(std::int64_t t) const;
    double laneTop(int laneIndex) const { return plot.top() + laneIndex * laneHeight; }
    // The lane index at y (may be out of range: compare with the lane count).
    int laneAt(double y) const { return static_cast<int>((y - plot.top()) / laneHeight); }
    // Where the last lane ends, or the plot's bottom if the lanes run past it.
    double lanesBottom(int laneCount) const;
    // The height under a lane's bars left for poll brackets.
    double bracketHeight() const { return laneHeight >= 28 ? 6.0 : 2.0; }
    // The height of one sub-row when a lane shares its bars out over `slotsUsed`.
    double slotHeight(int slotsUsed) const;
    // A bar from x, `width` wide, in sub-row `slot` of a lane (at least a pixel either way).
    QRectF slotRect(int laneIndex, int slotsUsed, int slot, double x, double width) const;
    QRectF barRect(int laneIndex, const TimelineLane& lane, const TimelineBar& bar) const;
    // Where a bar is drawn to: its own end, or for an open one openEnd.
    std::int64_t drawnEnd(const TimelineBar& bar) const {
        return bar.endNs == 0 ? openEnd : bar.endNs;
    }

    // The bars of a lane that reach into the window: a binary search from the
    // window's left edge plus the open bars (`openBars`, every lane's) that
    // started before it.
    std::vector<const TimelineBar*> barsInView(
        const TimelineLane& lane, int laneIndex,
        const std::vector<std::pair<int, const TimelineBar*>>& openBars) const;
    // The same bars as `visit(span, i)`, their packed spans and their index in
    // lane.bars, in place: the paint's walk reads only the spans, and the bar
    // itself (lane.bars[i]) only for what it draws one by one.
    template <typename Visit>
    void forEachBarInView(const TimelineLane& lane, int laneIndex,
                          const std::vector<std::pair<int, const TimelineBar*>>& openBars,
                          Visit&& visit) const;
    // The polls of a lane that may reach into the window, each handed to
    // `visit`: no poll lasts longer than longestPollNs, except the open one.
    template <typename Visit>
    void forEachPollInView(const TimelineLane& lane, Visit&& visit) const;
    // What forEachPollInView() visits, in the same order, less the polls that
    // draw nothing: a poll that returned tasks draws only its batch bracket,
    // from 4 px long, so in a block of polls whose longest bracket is under
    // 3 px at this span (TimelineLane::bracketBlocks) only the waits
    // (lane.waitPolls) and the open poll are visited. A lane whose polls are
    // not regular (TimelineLane::pollsIrregular) is walked poll by poll.
    template <typename Visit>
    void forEachPollThatMayDraw(const TimelineLane& lane, Visit&& visit) const;
    // The bar of a lane at `pos` (2 px of slack either side), or null.
    const TimelineBar* barAt(const TimelineLane& lane, int laneIndex, QPointF pos) const;
};

template <typename Visit>
void TimelineGeometry::forEachBarInView(
    const TimelineLane& lane, int laneIndex,
    const std::vector<std::pair<int, const TimelineBar*>>& openBars, Visit&& visit) const {
    const auto inView = [&](const TimelineSpan& s) {
        return (s.endNs == 0 ? openEnd : s.endNs) >= t0 && s.startNs <= openEnd;
    };
    const auto firstFrom = [&](std::int64_t t) {
        return std::partition_point(lane.spans.begin(), lane.spans.end(),
                                    [&](const TimelineSpan& s) { return s.startNs < t; });
    };
    // Binary search for the first bar that can still be visible; open bars
    // that started before the search window still reach into view.
    const std::int64_t from = t0 - std::max<std::int64_t>(lane.longestClosedNs, 1);
    for (const auto& [openLane, bar] : openBars) {
        if (openLane != laneIndex || bar->startNs >= from) {
            continue;
        }
        for (const TimelineSpan* s = firstFrom(bar->startNs);
             s != lane.spans.end() && s->startNs == bar->startNs; ++s) {
            const auto i = static_cast<std::size_t>(s - lane.spans.begin());
            if (&lane.bars[i] == bar && inView(*s)) {
                visit(*s, i);
            }
        }
    }
    const TimelineSpan* const begin = lane.spans.begin();
    for (const TimelineSpan* s = firstFrom(from); s != lane.spans.end() && s->startNs <= t1; ++s) {
        if (inView(*s)) {
            visit(*s, static_cast<std::size_t>(s - begin));
        }
    }
}

template <typename Visit>
void TimelineGeometry::forEachPollInView(const TimelineLane& lane, Visit&& visit) const {
    const std::int64_t from = t0 - std::max<std::int64_t>(lane.longestPollNs, 1);
    if (!lane.polls.empty() && lane.polls.back().endNs == 0 && lane.polls.back().startNs < from) {
        visit(lane.polls.back());
    }
    for (auto it = std::partition_point(lane.polls.begin(), lane.polls.end(),
                                        [&](const TimelinePoll& q) { return q.startNs < from; });
         it != lane.polls.end() && it->startNs <= t1; ++it) {
        visit(*it);
    }
}

template <typename Visit>
void TimelineGeometry::forEachPollThatMayDraw(const TimelineLane& lane, Visit&& visit) const {
    if (lane.pollsIrregular) {
        forEachPollInView(lane, visit);
        return;
    }
    if (lane.polls.empty()) {
        return;
    }
    const std::int64_t from = t0 - std::max<std::int64_t>(lane.longestPollNs, 1);
    const TimelinePoll& last = lane.polls.back();
    const bool lastOpen = last.endNs == 0;  // regular polls: no other is open
    if (lastOpen && last.startNs < from) {
        visit(last);
    }
    // The polls forEachPollInView() walks, [first, end): sorted by start, their
    // batch numbers running on by one from the front poll's.
    const auto first = std::partition_point(
        lane.polls.begin(), lane.polls.end(), [&](const TimelinePoll& q) { return q.startNs < from; });
    const auto end = std::partition_point(first, lane.polls.end(),
                                          [&](const TimelinePoll& q) { return q.startNs <= t1; });
    const std::uint64_t base = lane.polls.front().batch;
    const std::uint64_t endBatch = base + static_cast<std::uint64_t>(end - lane.polls.begin());
    const double pxPerNs = plot.width() / static_cast<double>(spanNs);
    auto wait = lane.waitPolls.begin();
    for (auto it = first; it != end;) {
        const std::uint64_t batch = base + static_cast<std::uint64_t>(it - lane.polls.begin());
        const std::uint64_t block = batch / kPollBlock;
        const std::uint64_t blockEnd = std::min((block + 1) * kPollBlock, endBatch);
        const auto next = it + static_cast<std::ptrdiff_t>(blockEnd - batch);
        const std::size_t b = static_cast<std::size_t>(block - lane.firstBracketBlock);
        const std::int64_t longest = block >= lane.firstBracketBlock && b < lane.bracketBlocks.size()
                                         ? lane.bracketBlocks[b]
                                         : 0;
        if (static_cast<double>(longest) * pxPerNs < 3.0) {
            wait = std::lower_bound(wait, lane.waitPolls.end(), batch);
            for (; wait != lane.waitPolls.end() && *wait < blockEnd; ++wait) {
                visit(lane.polls[static_cast<std::size_t>(*wait - base)]);
            }
            if (lastOpen && last.batch >= batch && last.batch < blockEnd) {
                visit(last);
            }
        } else {
            for (auto q = it; q != next; ++q) {
                visit(*q);
            }
        }
        it = next;
    }
}

}  // namespace qs::ui
