#include "widgets/timeline_lane_painter.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

#include "widgets/theme.h"

namespace qs::ui {

TimelineLanePainter::TimelineLanePainter(QPainter& painter, const TimelineGeometry& geometry,
                                         const QFont& font, double viewWidth)
    : p_(painter),
      g_(geometry),
      theme_(Theme::current()),
      font_(font),
      fm_(font),
      viewWidth_(viewWidth),
      hatch_(theme_.mutedText, Qt::BDiagPattern) {
    QColor hatchColor = theme_.mutedText;
    hatchColor.setAlpha(90);
    hatch_.setColor(hatchColor);
}

void TimelineLanePainter::paintBackground(int laneIndex, const TimelineLane& lane,
                                          bool highlighted) const {
    paintBackgroundOnly(laneIndex, highlighted);
    const QRectF laneRect(0, g_.laneTop(laneIndex), viewWidth_, g_.laneHeight);
    // Thin lanes (many workers, a short window): a smaller name; below a
    // readable size, only every few lanes is named, so names never overlap.
    const int nameEvery = static_cast<int>(std::ceil(9.0 / std::max(1.0, g_.laneHeight - 2)));
    if (laneIndex % nameEvery == 0) {
        paintLabel(laneRect, lane);
    }
}

void TimelineLanePainter::paintBackgroundOnly(int laneIndex, bool highlighted) const {
    const QRectF laneRect(0, g_.laneTop(laneIndex), viewWidth_, g_.laneHeight);
    p_.fillRect(laneRect, laneIndex % 2 ? theme_.laneAlt : theme_.panel);
    if (highlighted) {
        QColor tint = theme_.highlight;
        tint.setAlpha(60);
        p_.fillRect(laneRect, tint);
        p_.fillRect(QRectF(0, laneRect.top(), 4, laneRect.height()), theme_.highlight);
    }
}

// The state dot and the worker's name; its state under it when the lane is tall enough.
void TimelineLanePainter::paintLabel(const QRectF& laneRect, const TimelineLane& lane) const {
    const QRectF label(8, laneRect.top(), g_.plot.left() - 16, laneRect.height());
    QColor dot = theme_.outcome(Outcome::Acked);
    QString state;
    if (lane.crashed) {
        dot = theme_.outcome(Outcome::Returned);
        state = QStringLiteral("crashed");
    } else if (lane.paused) {
        dot = theme_.waitingColor();
        state = QStringLiteral("paused");
    }
    p_.setRenderHint(QPainter::Antialiasing, true);
    p_.setPen(Qt::NoPen);
    p_.setBrush(dot);
    const double r = std::min(4.0, laneRect.height() / 5);
    p_.drawEllipse(QPointF(label.left() + r, label.center().y()), r, r);
    p_.setRenderHint(QPainter::Antialiasing, false);
    p_.setPen(theme_.text);
    QFont bold = font_;
    bold.setBold(true);
    if (laneRect.height() < fm_.height() + 2) {
        bold.setPixelSize(std::max(7, static_cast<int>(laneRect.height()) - 2));
    }
    p_.setFont(bold);
    const QRectF nameRect = label.adjusted(2 * r + 6, 0, 0, 0);
    if (!state.isEmpty() && laneRect.height() >= 2.2 * fm_.height()) {
        p_.drawText(nameRect.adjusted(0, 0, 0, -fm_.height() / 2.0),
                    Qt::AlignLeft | Qt::AlignVCenter, lane.worker);
        p_.setFont(font_);
        p_.setPen(dot);
        p_.drawText(nameRect.adjusted(0, fm_.height(), 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                    state);
    } else {
        p_.drawText(nameRect, Qt::AlignLeft | Qt::AlignVCenter, lane.worker);
    }
    p_.setFont(font_);
}

void TimelineLanePainter::paintContents(
    int laneIndex, const TimelineLane& lane,
    const std::vector<std::pair<int, const TimelineBar*>>& openBars,
    std::vector<LaneBar>* selectedPath) {
    paintPolls(laneIndex, lane);
    paintBars(laneIndex, lane, openBars, selectedPath);
    paintMarks(laneIndex, lane);
}

// Polls that got nothing (or still wait) as hatched waits; a batch whose
// tasks were settled after the poll returned as a bracket under its bars.
void TimelineLanePainter::paintPolls(int laneIndex, const TimelineLane& lane) const {
    const double laneBottom = g_.laneTop(laneIndex) + g_.laneHeight - 2.0;
    const auto paintPoll = [&](const TimelinePoll& q) {
        const std::int64_t end = q.endNs == 0 ? g_.openEnd : q.endNs;
        if (std::max(end, q.lastSettleNs) < g_.t0) {
            return;
        }
        const double x0 = g_.xOf(q.startNs);
        const double x1 = g_.xOf(end);
        if (q.endNs == 0 || q.received == 0) {
            paintWait(
                QRectF(x0, g_.laneTop(laneIndex) + 2, std::max(1.0, x1 - x0), g_.laneHeight - 4),
                q.endNs == 0);
        } else if (q.received > 0 && q.lastSettleNs > q.endNs) {
            paintBatchBracket(x1, g_.xOf(q.lastSettleNs), laneBottom);
        }
    };
    // At 64 workers tens of thousands of polls are in view, nearly all with
    // brackets too short to draw: those are not visited.
    g_.forEachPollThatMayDraw(lane, paintPoll);
}

void TimelineLanePainter::paintWait(const QRectF& wait, bool open) const {
    p_.fillRect(wait, theme_.waitFill);
    p_.fillRect(wait, hatch_);
    if (wait.width() > fm_.horizontalAdvance(QStringLiteral("polling…")) + 8 &&
        g_.laneHeight >= fm_.height() + 4) {
        p_.setPen(theme_.mutedText);
        p_.drawText(wait, Qt::AlignCenter,
                    open ? QStringLiteral("polling…") : QStringLiteral("empty poll"));
    }
}

void TimelineLanePainter::paintBatchBracket(double x0, double x1, double laneBottom) const {
    if (x1 - x0 < 4) {
        return;  // too short to read as a bracket
    }
    const double bracket = g_.bracketHeight();
    p_.setPen(QPen(theme_.mutedText, 1));
    const double y = laneBottom - bracket / 2;
    p_.drawLine(QPointF(x0, y), QPointF(x1, y));
    p_.drawLine(QPointF(x0, y - bracket / 2), QPointF(x0, y + bracket / 2));
    p_.drawLine(QPointF(x1, y - bracket / 2), QPointF(x1, y + bracket / 2));
}

void TimelineLanePainter::paintBars(int laneIndex, const TimelineLane& lane,
                                    const std::vector<std::pair<int, const TimelineBar*>>& openBars,
                                    std::vector<LaneBar>* selectedPath) {
    const TimelineColumns::LaneTally tally = columns_->beginLane(lane.slotsUsed);
    int first = tally.columns;  // the columns counted
    int last = -1;
    countSummary(lane, tally, first, last);
    // Hundreds of thousands of bars are in view at 100,000 events/s: the common
    // case (a bar narrower than 2 px) is only counted into its pixel column, with
    // no colour, rect or string work. The visit is inlined into the walk, and
    // what it reads is in locals (no member read per bar); a bar drawn on its
    // own is a call.
    const double left = g_.plot.left();
    const double pxPerNs = g_.plot.width() / static_cast<double>(g_.spanNs);
    const double thinNs = 2.0 / pxPerNs;  // a bar shorter than this is under 2 px
    const std::int64_t t0 = g_.t0;
    const std::int64_t openEnd = g_.openEnd;
    const MessageKeyPool::Id selected = selected_;
    // (GCC left it out of line once it also kept the first and last column.)
    const auto visit = [&](const TimelineSpan& s, std::size_t i) __attribute__((always_inline)) {
        const std::int64_t end = s.endNs == 0 ? openEnd : s.endNs;
        const double x0 = left + static_cast<double>(s.startNs - t0) * pxPerNs;
        const bool isSelected = s.key == selected;
        if (static_cast<double>(end - s.startNs) < thinNs && !isSelected) {
            const int col = tally.count(s.slot, x0, static_cast<Outcome>(s.outcome));
            if (col >= 0) {
                first = std::min(first, col);
                last = std::max(last, col);
            }
            return;
        }
        paintBarAlone(laneIndex, lane, i, x0, left + static_cast<double>(end - t0) * pxPerNs,
                      isSelected ? selectedPath : nullptr);
    };
    g_.forEachBarInView(lane, laneIndex, openBars, visit);
    columns_->endLane(first, last, laneIndex, p_);
}

void TimelineLanePainter::countSummary(const TimelineLane& lane,
                                       const TimelineColumns::LaneTally& tally, int& first,
                                       int& last) const {
    const std::int64_t until = std::min(g_.t1, summaryUntil_);
    if (until <= g_.t0 || lane.summary.empty()) {
        return;
    }
    const double pxPerNs = g_.plot.width() / static_cast<double>(g_.spanNs);
    if (static_cast<double>(TimelineSummary::kBucketNs) * pxPerNs <= 1.0) {
        countFoldedSummary(lane, until, tally, first, last);
        return;
    }
    // Zoomed in: hundreds of buckets per lane, each over one or more columns.
    const int slots = lane.slotsUsed;
    const std::int64_t t0 = g_.t0;
    lane.summary.forEachIn(t0, until, [&](std::int64_t start, std::uint32_t cell) {
        const double from = static_cast<double>(start - t0) * pxPerNs;  // from the plot's left
        const std::int64_t end = std::min(start + TimelineSummary::kBucketNs, until);
        const int span = std::max(1, static_cast<int>(std::ceil(static_cast<double>(end - start) *
                                                                pxPerNs)));
        for (int i = 0; i < span; ++i) {
            const int col = static_cast<int>(from + i);
            if (col < 0 || col >= tally.columns) {
                continue;
            }
            first = std::min(first, col);
            last = std::max(last, col);
            std::uint32_t slotsLeft = cell;
            for (int slot = 0; slotsLeft != 0 && slot < slots; ++slot, slotsLeft >>= 4) {
                if ((slotsLeft & 0xF) != 0) {
                    tally.countIn(slot, col, static_cast<Outcome>((slotsLeft & 0xF) - 1));
                }
            }
        }
    });
}

// Zoomed out every bucket falls in one column, and a column takes one or
// more: the buckets of a column are folded into one cell (combineCells) and
// set into the column at once, which nothing was counted into before.
void TimelineLanePainter::countFoldedSummary(const TimelineLane& lane, std::int64_t until,
                                             const TimelineColumns::LaneTally& tally, int& first,
                                             int& last) const {
    const int slots = lane.slotsUsed;
    const double pxPerNs = g_.plot.width() / static_cast<double>(g_.spanNs);
    const std::int64_t t0 = g_.t0;
    const auto setColumn = [&](int col, std::uint32_t cell) {
        if (col < 0 || col >= tally.columns) {
            return;
        }
        first = std::min(first, col);
        last = std::max(last, col);
        for (int slot = 0; cell != 0 && slot < slots; ++slot, cell >>= 4) {
            if ((cell & 0xF) != 0) {
                tally.setFresh(slot, col, static_cast<Outcome>((cell & 0xF) - 1));
            }
        }
    };
    int col = -1;
    std::uint32_t folded = 0;
    lane.summary.forEachIn(t0, until, [&](std::int64_t start, std::uint32_t cell) {
        const int c = static_cast<int>(static_cast<double>(start - t0) * pxPerNs);
        if (c != col) {
            setColumn(col, folded);
            col = c;
            folded = 0;
        }
        folded = combineCells(folded, cell);
    });
    setColumn(col, folded);
}

void TimelineLanePainter::paintBarAlone(int laneIndex, const TimelineLane& lane, std::size_t i,
                                        double x0, double x1,
                                        std::vector<LaneBar>* selectedPath) const {
    const TimelineBar& b = lane.bars[i];
    const QRectF r = g_.slotRect(laneIndex, lane.slotsUsed, b.slot, x0, x1 - x0);
    paintWideBar(r, b);
    if (selectedPath != nullptr) {
        selectedPath->emplace_back(laneIndex, &b);
    }
}

void TimelineLanePainter::paintWideBar(const QRectF& r, const TimelineBar& b) const {
    const QColor color = theme_.outcome(b.outcome);
    if (b.endNs == 0) {
        QColor open = color;
        open.setAlpha(150);
        p_.fillRect(r, open);
    } else {
        p_.fillRect(r, color);
    }
    if (b.redelivery && r.width() > 4) {
        // Redelivered hand-outs carry a dark notch on their left edge.
        p_.fillRect(QRectF(r.left(), r.top(), std::min(4.0, r.width() / 3), r.height()),
                    theme_.outcome(Outcome::Returned).darker(140));
    }
    if (b.key == selected_) {
        p_.setPen(QPen(theme_.selection, 2));
        p_.setBrush(Qt::NoBrush);
        p_.drawRect(r.adjusted(-1, -1, 1, 1));
    }
    if (labelOf_ && r.height() >= fm_.height() - 2) {
        const QString text = labelOf_(b);
        if (!text.isEmpty() && r.width() > fm_.horizontalAdvance(text) + 8) {
            p_.setPen(Qt::white);
            p_.drawText(r, Qt::AlignCenter, text);
        }
    }
}

// Worker life-cycle marks: a crash as a red line with a cross, a pause or
// stop as a line in the waiting colour, the others dashed.
void TimelineLanePainter::paintMarks(int laneIndex, const TimelineLane& lane) const {
    const double top = g_.laneTop(laneIndex);
    for (const LaneMark& m : lane.marks) {
        if (m.timeNs < g_.t0 || m.timeNs > g_.t1) {
            continue;
        }
        const double x = g_.xOf(m.timeNs);
        if (m.kind == LaneMarkKind::Crashed) {
            paintCrashMark(x, top);
        } else if (m.kind == LaneMarkKind::Paused || m.kind == LaneMarkKind::Stopped) {
            p_.setPen(QPen(theme_.waitingColor(), 2));
            p_.drawLine(QPointF(x, top + 2), QPointF(x, top + g_.laneHeight - 2));
        } else {
            p_.setPen(QPen(theme_.outcome(Outcome::Acked), 1, Qt::DashLine));
            p_.drawLine(QPointF(x, top + 2), QPointF(x, top + g_.laneHeight - 2));
        }
    }
}

// The line is a 2 px fill (a stroke of a wide pen under the lanes' clip cost
// ~30 us a mark); the cross only where it can be read (a lane from 10 px: a
// smaller one is a smudge, and each switch of antialiasing replays the clip).
void TimelineLanePainter::paintCrashMark(double x, double top) const {
    const QColor red = theme_.outcome(Outcome::Returned);
    p_.fillRect(QRectF(x - 1, top + 1, 2, g_.laneHeight - 2), red);
    const double s = std::min(5.0, g_.laneHeight / 5);
    if (s < 2) {
        return;
    }
    p_.setPen(QPen(red, 2));
    p_.setRenderHint(QPainter::Antialiasing, true);
    const QPointF c(x, top + s + 3);
    p_.drawLine(c + QPointF(-s, -s), c + QPointF(s, s));
    p_.drawLine(c + QPointF(-s, s), c + QPointF(s, -s));
    p_.setRenderHint(QPainter::Antialiasing, false);
    if (g_.laneHeight >= fm_.height() + 4) {
        p_.drawText(QPointF(x + s + 4, top + fm_.ascent() + 2), QStringLiteral("crash"));
    }
}

}  // namespace qs::ui
