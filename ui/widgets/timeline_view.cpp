#include "widgets/timeline_view.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "common/clock.h"
#include "models/event_time.h"
#include "widgets/theme.h"
#include "widgets/timeline_labels.h"

namespace qs::ui {

namespace {
constexpr int kAxisPad = 8;

QString laneMarkText(LaneMarkKind k) {
    switch (k) {
        case LaneMarkKind::Started:
            return QStringLiteral("started");
        case LaneMarkKind::Paused:
            return QStringLiteral("paused");
        case LaneMarkKind::Resumed:
            return QStringLiteral("resumed");
        case LaneMarkKind::Crashed:
            return QStringLiteral("crashed");
        case LaneMarkKind::Reconnected:
            return QStringLiteral("reconnected");
        case LaneMarkKind::Stopped:
            return QStringLiteral("stopped");
    }
    return {};
}
}  // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::StrongFocus);
    setToolTip(QStringLiteral(
        "One lane per worker. Each bar is one hand-out of a task: it starts when the broker\n"
        "assigns the task and ends when the worker settles it (colour = outcome).\n"
        "Brackets under the bars group the tasks of one poll; hatched areas are polls that\n"
        "waited and got nothing. Drag or scroll to go back in time, Ctrl+wheel to zoom,\n"
        "double-click to follow live again. Click a bar to select that task everywhere."));
}

void TimelineView::setModel(const TimelineModel* model) {
    model_ = model;
    update();
}

void TimelineView::setSpanSeconds(double seconds) {
    const auto span = static_cast<std::int64_t>(std::clamp(seconds, 0.5, 3600.0) * 1e9);
    if (span == spanNs_) {
        return;
    }
    spanNs_ = span;
    update();
    Q_EMIT spanChanged(spanSeconds());
    Q_EMIT viewMoved();
}

void TimelineView::setLive(bool live) {
    if (live_ == live) {
        return;
    }
    if (!live) {
        viewEndNs_ = nowNs();
    }
    live_ = live;
    Q_EMIT liveChanged(live_);
    update();
}

void TimelineView::setCursorNs(std::optional<std::int64_t> timeNs) {
    cursorNs_ = timeNs;
    if (timeNs) {
        if (live_) {  // stop following "now" where the view was
            viewEndNs_ = nowNs();
            live_ = false;
            Q_EMIT liveChanged(false);
        }
        // Keep the view still while the cursor is in it; recentre when it leaves.
        if (*timeNs > viewEndNs_ || *timeNs < viewEndNs_ - spanNs_) {
            viewEndNs_ = *timeNs + spanNs_ / 4;
        }
    }
    update();
}

void TimelineView::setSelectedKey(const QString& key) {
    if (selected_ == key) {
        return;
    }
    selected_ = key;
    update();
}

void TimelineView::scrubSeconds(double delta) {
    const std::int64_t end = live_ ? nowNs() : viewEndNs_;
    setLive(false);
    viewEndNs_ = end + static_cast<std::int64_t>(delta * 1e9);
    if (model_ && viewEndNs_ < model_->firstTimeNs() + spanNs_ / 4) {
        viewEndNs_ = model_->firstTimeNs() + spanNs_ / 4;
    }
    update();
    Q_EMIT viewMoved();
}

void TimelineView::refresh() {
    if (live_ && isVisible()) {
        update();
    }
}

std::int64_t TimelineView::nowNs() const {
    if (clock_) {
        return clock_();
    }
    return qs::monotonicNanos();
}

TimelineView::Geometry TimelineView::geometry() const {
    Geometry g;
    const QFontMetrics fm(font());
    const double gutter = std::max(96, fm.horizontalAdvance(QStringLiteral("worker-10  ")) + 24);
    const double axis = fm.height() + kAxisPad * 2;
    g.plot = QRectF(gutter, axis, std::max(10.0, width() - gutter - 8.0),
                    std::max(10.0, height() - axis - 4.0));
    const int lanes = model_ ? static_cast<int>(model_->lanes().size()) : 0;
    g.laneHeight = lanes > 0 ? std::clamp(g.plot.height() / lanes, 16.0, 96.0) : g.plot.height();
    g.t1 = live_ ? nowNs() : viewEndNs_;
    g.t0 = g.t1 - spanNs_;
    // At a time cursor what is still open is drawn up to the cursor, not on.
    g.openEnd = cursorNs_ ? std::min(*cursorNs_, g.t1) : g.t1;
    return g;
}

double TimelineView::xOf(const Geometry& g, std::int64_t t) const {
    return g.plot.left() +
           static_cast<double>(t - g.t0) / static_cast<double>(spanNs_) * g.plot.width();
}

QRectF TimelineView::barRect(int laneIndex, const TimelineBar& bar) const {
    if (!model_ || laneIndex < 0 || laneIndex >= static_cast<int>(model_->lanes().size())) {
        return {};
    }
    const Geometry g = geometry();
    const TimelineLane& lane = model_->lanes()[static_cast<std::size_t>(laneIndex)];
    const double top = g.plot.top() + laneIndex * g.laneHeight;
    const double bracket = g.laneHeight >= 28 ? 6.0 : 2.0;
    const double usable = g.laneHeight - 4.0 - bracket;
    const double slotH = usable / std::max(1, lane.slotsUsed);
    const double x0 = xOf(g, bar.startNs);
    const double x1 = xOf(g, bar.endNs == 0 ? g.openEnd : bar.endNs);
    return QRectF(x0, top + 2.0 + bar.slot * slotH, std::max(1.0, x1 - x0),
                  std::max(1.0, slotH - (slotH > 6 ? 1.5 : 0.0)));
}

void TimelineView::paintEvent(QPaintEvent*) {
    const Theme& theme = Theme::current();
    QPainter p(this);
    p.fillRect(rect(), theme.panel);
    const Geometry g = geometry();
    const QFontMetrics fm(font());

    if (!model_ || model_->lanes().empty()) {
        p.setPen(theme.mutedText);
        p.drawText(rect(), Qt::AlignCenter,
                   QStringLiteral("No workers yet.\nStart a worker pool and send tasks to see "
                                  "who gets which task."));
        return;
    }
    const auto& lanes = model_->lanes();

    // Lane backgrounds and labels.
    for (int li = 0; li < static_cast<int>(lanes.size()); ++li) {
        const TimelineLane& lane = lanes[static_cast<std::size_t>(li)];
        const QRectF laneRect(0, g.plot.top() + li * g.laneHeight, width(), g.laneHeight);
        if (laneRect.top() > height()) {
            break;
        }
        p.fillRect(laneRect, li % 2 ? theme.laneAlt : theme.panel);
        const QRectF label(8, laneRect.top(), g.plot.left() - 16, laneRect.height());
        QColor dot = theme.outcome(Outcome::Acked);
        QString state;
        if (lane.crashed) {
            dot = theme.outcome(Outcome::Returned);
            state = QStringLiteral("crashed");
        } else if (lane.paused) {
            dot = theme.waitingColor();
            state = QStringLiteral("paused");
        }
        p.setRenderHint(QPainter::Antialiasing, true);
        p.setPen(Qt::NoPen);
        p.setBrush(dot);
        const double r = std::min(4.0, laneRect.height() / 5);
        p.drawEllipse(QPointF(label.left() + r, label.center().y()), r, r);
        p.setRenderHint(QPainter::Antialiasing, false);
        p.setPen(theme.text);
        QFont f = font();
        f.setBold(true);
        p.setFont(f);
        const QRectF nameRect = label.adjusted(2 * r + 6, 0, 0, 0);
        if (!state.isEmpty() && laneRect.height() >= 2.2 * fm.height()) {
            p.drawText(nameRect.adjusted(0, 0, 0, -fm.height() / 2.0),
                       Qt::AlignLeft | Qt::AlignVCenter, lane.worker);
            p.setFont(font());
            p.setPen(dot);
            p.drawText(nameRect.adjusted(0, fm.height(), 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                       state);
        } else {
            p.drawText(nameRect, Qt::AlignLeft | Qt::AlignVCenter, lane.worker);
        }
        p.setFont(font());
    }
    const double lanesBottom =
        std::min(g.plot.bottom(), g.plot.top() + lanes.size() * g.laneHeight);

    // Live / paused badge (drawn last, on top); axis labels stop short of it
    // rather than peek out from under it.
    const QString badge = badgeText();
    const QRectF badgeRect = badgeRectFor(badge);

    // Grid lines and axis labels (timeline_labels: none overlaps another).
    p.setPen(theme.grid);
    p.drawLine(QPointF(g.plot.left(), g.plot.top()), QPointF(g.plot.left(), lanesBottom));
    const AxisLayout axis = axisLayout(g);
    for (const std::int64_t t : axis.ticks) {
        const double x = xOf(g, t);
        p.setPen(QPen(theme.grid, 1, Qt::DotLine));
        p.drawLine(QPointF(x, g.plot.top()), QPointF(x, lanesBottom));
    }
    p.setPen(theme.mutedText);
    for (const PlacedLabel& label : axis.labels) {
        p.drawText(label.rect, Qt::AlignCenter, label.text);
    }

    p.save();
    p.setClipRect(
        QRectF(g.plot.left() + 1, g.plot.top(), g.plot.width(), lanesBottom - g.plot.top()));

    const int plotW = static_cast<int>(g.plot.width()) + 2;
    std::vector<std::int8_t> columns;  // per-pixel outcome for bars too thin to draw one by one
    QBrush hatch(theme.mutedText, Qt::BDiagPattern);
    QColor hatchColor = theme.mutedText;
    hatchColor.setAlpha(90);
    hatch.setColor(hatchColor);

    const auto openBars = model_->openBars();
    // The selected task's visible hand-outs, collected while drawing (never a scan of
    // the whole history).
    std::vector<std::pair<int, const TimelineBar*>> path;
    for (int li = 0; li < static_cast<int>(lanes.size()); ++li) {
        const TimelineLane& lane = lanes[static_cast<std::size_t>(li)];
        const double top = g.plot.top() + li * g.laneHeight;
        if (top > height()) {
            break;
        }
        const double bracket = g.laneHeight >= 28 ? 6.0 : 2.0;
        const double bottom = top + g.laneHeight - 2.0;

        // Polls: waits (hatched) and batch brackets. Only the visible window is
        // searched: no poll lasts longer than longestPollNs, except the open one.
        const std::int64_t pollFrom = g.t0 - std::max<std::int64_t>(lane.longestPollNs, 1);
        std::vector<const TimelinePoll*> polls;
        if (!lane.polls.empty() && lane.polls.back().endNs == 0 &&
            lane.polls.back().startNs < pollFrom) {
            polls.push_back(&lane.polls.back());
        }
        for (auto pit =
                 std::partition_point(lane.polls.begin(), lane.polls.end(),
                                      [&](const TimelinePoll& q) { return q.startNs < pollFrom; });
             pit != lane.polls.end() && pit->startNs <= g.t1; ++pit) {
            polls.push_back(&*pit);
        }
        for (const TimelinePoll* qp : polls) {
            const TimelinePoll& q = *qp;
            const std::int64_t end = q.endNs == 0 ? g.openEnd : q.endNs;
            if (std::max(end, q.lastSettleNs) < g.t0) {
                continue;
            }
            const double x0 = xOf(g, q.startNs);
            const double x1 = xOf(g, end);
            if (q.endNs == 0 || q.received == 0) {
                const QRectF wait(x0, top + 2, std::max(1.0, x1 - x0), g.laneHeight - 4);
                p.fillRect(wait, theme.waitFill);
                p.fillRect(wait, hatch);
                if (wait.width() > fm.horizontalAdvance(QStringLiteral("polling…")) + 8 &&
                    g.laneHeight >= fm.height() + 4) {
                    p.setPen(theme.mutedText);
                    p.drawText(
                        wait, Qt::AlignCenter,
                        q.endNs == 0 ? QStringLiteral("polling…") : QStringLiteral("empty poll"));
                }
            } else if (q.received > 0 && q.lastSettleNs > q.endNs) {
                const double bx1 = xOf(g, q.lastSettleNs);
                if (bx1 - x1 >= 4) {
                    p.setPen(QPen(theme.mutedText, 1));
                    const double y = bottom - bracket / 2;
                    p.drawLine(QPointF(x1, y), QPointF(bx1, y));
                    p.drawLine(QPointF(x1, y - bracket / 2), QPointF(x1, y + bracket / 2));
                    p.drawLine(QPointF(bx1, y - bracket / 2), QPointF(bx1, y + bracket / 2));
                }
            }
        }

        const double usable = g.laneHeight - 4.0 - bracket;
        const double slotH = usable / std::max(1, lane.slotsUsed);
        columns.assign(static_cast<std::size_t>(plotW) * static_cast<std::size_t>(lane.slotsUsed),
                       -1);
        bool anyColumns = false;
        // Tens of thousands of bars are in view at 20,000 events/s: the common case (a bar
        // narrower than 2 px) is only counted into its pixel column, with no colour, rect
        // or string work.
        const double left = g.plot.left();
        const double pxPerNs = g.plot.width() / static_cast<double>(spanNs_);
        const bool anySelected = !selected_.isEmpty();
        auto drawBar = [&](const TimelineBar& b) {
            const std::int64_t end = b.endNs == 0 ? g.openEnd : b.endNs;
            const double x0 = left + static_cast<double>(b.startNs - g.t0) * pxPerNs;
            const double x1 = left + static_cast<double>(end - g.t0) * pxPerNs;
            if (x1 - x0 < 2.0 && !(anySelected && b.key == selected_)) {
                const int col = static_cast<int>(x0 - left);
                if (col >= 0 && col < plotW) {
                    std::int8_t& c = columns[static_cast<std::size_t>(b.slot) * plotW + col];
                    // Problems win over acks so a lone redelivery stays visible.
                    if (c < 0 || c == static_cast<std::int8_t>(Outcome::Acked)) {
                        c = static_cast<std::int8_t>(b.outcome);
                    }
                    anyColumns = true;
                }
                return;
            }
            const QColor color = theme.outcome(b.outcome);
            const QRectF r(x0, top + 2.0 + b.slot * slotH, std::max(1.0, x1 - x0),
                           std::max(1.0, slotH - (slotH > 6 ? 1.5 : 0.0)));
            if (b.endNs == 0) {
                QColor open = color;
                open.setAlpha(150);
                p.fillRect(r, open);
            } else {
                p.fillRect(r, color);
            }
            if (b.redelivery && r.width() > 4) {
                // Redelivered hand-outs carry a dark notch on their left edge.
                p.fillRect(QRectF(r.left(), r.top(), std::min(4.0, r.width() / 3), r.height()),
                           theme.outcome(Outcome::Returned).darker(140));
            }
            if (anySelected && b.key == selected_) {
                path.emplace_back(li, &b);
                p.setPen(QPen(theme.selection, 2));
                p.setBrush(Qt::NoBrush);
                p.drawRect(r.adjusted(-1, -1, 1, 1));
            }
            if (label_ && r.height() >= fm.height() - 2) {
                const QString text = label_(b.key);
                if (!text.isEmpty() && r.width() > fm.horizontalAdvance(text) + 8) {
                    p.setPen(Qt::white);
                    p.drawText(r, Qt::AlignCenter, text);
                }
            }
        };
        for (const TimelineBar* bar : barsInView(g, li, openBars)) {
            drawBar(*bar);
        }
        if (anyColumns) {
            for (int s = 0; s < lane.slotsUsed; ++s) {
                const double y = top + 2.0 + s * slotH;
                const double h = std::max(1.0, slotH - (slotH > 6 ? 1.5 : 0.0));
                int x = 0;
                while (x < plotW) {
                    const std::int8_t c = columns[static_cast<std::size_t>(s) * plotW + x];
                    if (c < 0) {
                        ++x;
                        continue;
                    }
                    int run = x + 1;
                    while (run < plotW && columns[static_cast<std::size_t>(s) * plotW + run] == c) {
                        ++run;
                    }
                    p.fillRect(QRectF(g.plot.left() + x, y, run - x, h),
                               theme.outcome(static_cast<Outcome>(c)));
                    x = run;
                }
            }
        }

        // Worker life-cycle marks.
        for (const LaneMark& m : lane.marks) {
            if (m.timeNs < g.t0 || m.timeNs > g.t1) {
                continue;
            }
            const double x = xOf(g, m.timeNs);
            if (m.kind == LaneMarkKind::Crashed) {
                p.setPen(QPen(theme.outcome(Outcome::Returned), 2));
                p.drawLine(QPointF(x, top + 1), QPointF(x, top + g.laneHeight - 1));
                p.setRenderHint(QPainter::Antialiasing, true);
                const double s = std::min(5.0, g.laneHeight / 5);
                const QPointF c(x, top + s + 3);
                p.drawLine(c + QPointF(-s, -s), c + QPointF(s, s));
                p.drawLine(c + QPointF(-s, s), c + QPointF(s, -s));
                p.setRenderHint(QPainter::Antialiasing, false);
                if (g.laneHeight >= fm.height() + 4) {
                    p.drawText(QPointF(x + s + 4, top + fm.ascent() + 2), QStringLiteral("crash"));
                }
            } else if (m.kind == LaneMarkKind::Paused || m.kind == LaneMarkKind::Stopped) {
                p.setPen(QPen(theme.waitingColor(), 2));
                p.drawLine(QPointF(x, top + 2), QPointF(x, top + g.laneHeight - 2));
            } else {
                p.setPen(QPen(theme.outcome(Outcome::Acked), 1, Qt::DashLine));
                p.drawLine(QPointF(x, top + 2), QPointF(x, top + g.laneHeight - 2));
            }
        }
    }

    // The selected task's path across lanes (a redelivery jumps between workers).
    if (!selected_.isEmpty()) {
        std::sort(path.begin(), path.end(), [](const auto& a, const auto& b) {
            return a.second->startNs < b.second->startNs;
        });
        p.setRenderHint(QPainter::Antialiasing, true);
        p.setPen(QPen(theme.selection, 1.5, Qt::DashLine));
        for (std::size_t i = 1; i < path.size(); ++i) {
            const QRectF a = barRect(path[i - 1].first, *path[i - 1].second);
            const QRectF b = barRect(path[i].first, *path[i].second);
            p.drawLine(QPointF(a.right(), a.center().y()), QPointF(b.left(), b.center().y()));
        }
        p.setRenderHint(QPainter::Antialiasing, false);
    }

    // Configuration markers across all lanes.
    p.restore();
    for (const TimelineMarker& m : model_->markers()) {
        if (m.timeNs < g.t0 || m.timeNs > g.t1) {
            continue;
        }
        const double x = xOf(g, m.timeNs);
        p.setPen(QPen(theme.marker, 1.5, Qt::DashLine));
        p.drawLine(QPointF(x, g.plot.top()), QPointF(x, lanesBottom));
    }
    // Only the labels with room of their own (timeline_labels); the hidden ones'
    // text is in the tooltip of their line.
    for (const PlacedLabel& label : markerLabels(g)) {
        QColor bg = theme.panel;
        bg.setAlpha(220);
        p.fillRect(label.rect, bg);
        p.setPen(theme.marker);
        p.drawText(label.rect, Qt::AlignCenter, label.text);
    }

    paintCursor(p, g, lanesBottom);
    p.fillRect(badgeRect, live_ ? theme.outcome(Outcome::Returned) : theme.mutedText);
    p.setPen(Qt::white);
    p.drawText(badgeRect, Qt::AlignCenter, badge);
}

std::vector<const TimelineBar*> TimelineView::barsInView(
    const Geometry& g, int laneIndex,
    const std::vector<std::pair<int, const TimelineBar*>>& openBars) const {
    const TimelineLane& lane = model_->lanes()[static_cast<std::size_t>(laneIndex)];
    std::vector<const TimelineBar*> out;
    auto add = [&](const TimelineBar& b) {
        if ((b.endNs == 0 ? g.openEnd : b.endNs) >= g.t0 && b.startNs <= g.openEnd) {
            out.push_back(&b);
        }
    };
    // Binary search for the first bar that can still be visible; open bars
    // that started before the search window still reach into view.
    const std::int64_t from = g.t0 - std::max<std::int64_t>(lane.longestClosedNs, 1);
    for (const auto& [openLane, bar] : openBars) {
        if (openLane == laneIndex && bar->startNs < from) {
            add(*bar);
        }
    }
    for (auto it = std::partition_point(lane.bars.begin(), lane.bars.end(),
                                        [&](const TimelineBar& b) { return b.startNs < from; });
         it != lane.bars.end() && it->startNs <= g.t1; ++it) {
        add(*it);
    }
    return out;
}

std::vector<TimelineView::PaintedBar> TimelineView::paintedBars() const {
    std::vector<PaintedBar> out;
    if (!model_) {
        return out;
    }
    const Geometry g = geometry();
    const auto openBars = model_->openBars();
    for (int li = 0; li < static_cast<int>(model_->lanes().size()); ++li) {
        for (const TimelineBar* b : barsInView(g, li, openBars)) {
            out.push_back({li, b, b->endNs == 0 ? g.openEnd : b->endNs, barRect(li, *b)});
        }
    }
    return out;
}

// What has not happened yet at the cursor is greyed; the cursor is a line.
void TimelineView::paintCursor(QPainter& p, const Geometry& g, double bottom) const {
    if (!cursorNs_ || *cursorNs_ < g.t0 || *cursorNs_ > g.t1) {
        return;
    }
    const Theme& theme = Theme::current();
    const double x = xOf(g, *cursorNs_);
    QColor veil = theme.panel;
    veil.setAlpha(170);
    p.fillRect(QRectF(x, g.plot.top(), g.plot.right() - x, bottom - g.plot.top()), veil);
    p.setPen(QPen(theme.selection, 2));
    p.drawLine(QPointF(x, g.plot.top() - 4), QPointF(x, bottom));
}

QString TimelineView::badgeText() const {
    if (cursorNs_) {
        return QStringLiteral("❚❚ TIME CURSOR — Live (Ctrl+L) returns");
    }
    return live_ ? QStringLiteral("● LIVE") : QStringLiteral("❚❚ PAUSED — double-click for live");
}

QRectF TimelineView::badgeRectFor(const QString& badge) const {
    const QFontMetricsF fm(font());
    const double bw = fm.horizontalAdvance(badge) + 14;
    return {width() - bw - 8, 4, bw, fm.height() + 4};
}

AxisLayout TimelineView::axisLayout(const Geometry& g) const {
    AxisRequest r;
    r.t0 = g.t0;
    r.t1 = g.t1;
    r.left = g.plot.left();
    r.right = g.plot.right();
    r.labelRight = badgeRectFor(badgeText()).left() - 4;
    r.top = kAxisPad;
    // Ticks align to the wall clock so labels read as round times.
    r.wallOffsetNs = monoToUnixMs(0) * 1'000'000;
    return layoutTimeAxis(r, QFontMetricsF(font()));
}

std::vector<PlacedLabel> TimelineView::markerLabels(const Geometry& g) const {
    std::vector<MarkerRequest> markers;
    if (model_) {
        for (const TimelineMarker& m : model_->markers()) {
            if (m.timeNs >= g.t0 && m.timeNs <= g.t1) {
                markers.push_back({xOf(g, m.timeNs), m.text, m.timeNs});
            }
        }
    }
    const QRectF area(
        g.plot.left() + 1, g.plot.top() + 2, width() - g.plot.left() - 3,
        std::max(0.0, std::min<double>(g.plot.height(), height() - g.plot.top()) - 4));
    return layoutMarkerLabels(markers, area, QFontMetricsF(font()));
}

std::vector<PlacedLabel> TimelineView::paintedLabels() const {
    if (!model_ || model_->lanes().empty()) {
        return {};
    }
    const Geometry g = geometry();
    std::vector<PlacedLabel> all = axisLayout(g).labels;
    for (PlacedLabel& label : markerLabels(g)) {
        all.push_back(std::move(label));
    }
    const QString badge = badgeText();
    all.push_back({badgeRectFor(badge), badge, badge, 0});
    return all;
}

QString TimelineView::markerTextNear(const QPoint& pos) const {
    if (!model_) {
        return {};
    }
    const Geometry g = geometry();
    for (const PlacedLabel& label : markerLabels(g)) {
        if (label.rect.contains(pos)) {
            return label.fullText;
        }
    }
    QStringList texts;
    for (const TimelineMarker& m : model_->markers()) {
        if (m.timeNs >= g.t0 && m.timeNs <= g.t1 && std::abs(xOf(g, m.timeNs) - pos.x()) <= 3 &&
            pos.y() >= g.plot.top()) {
            texts << QStringLiteral("%1 %2").arg(formatClock(m.timeNs), m.text.toHtmlEscaped());
        }
    }
    return texts.join(QStringLiteral("<br>"));
}

const TimelineBar* TimelineView::barAt(const QPoint& pos, int* laneOut) const {
    if (!model_) {
        return nullptr;
    }
    const Geometry g = geometry();
    if (!g.plot.contains(pos)) {
        return nullptr;
    }
    const int li = static_cast<int>((pos.y() - g.plot.top()) / g.laneHeight);
    if (li < 0 || li >= static_cast<int>(model_->lanes().size())) {
        return nullptr;
    }
    const TimelineLane& lane = model_->lanes()[static_cast<std::size_t>(li)];
    const double nsPerPx = static_cast<double>(spanNs_) / g.plot.width();
    const auto t = static_cast<std::int64_t>(g.t0 + (pos.x() - g.plot.left()) * nsPerPx);
    const auto slack = static_cast<std::int64_t>(2 * nsPerPx);
    const TimelineBar* best = nullptr;
    const std::int64_t from = t - std::max<std::int64_t>(lane.longestClosedNs, 1) - slack;
    auto it = std::partition_point(lane.bars.begin(), lane.bars.end(),
                                   [&](const TimelineBar& b) { return b.startNs < from; });
    for (; it != lane.bars.end() && it->startNs <= t + slack; ++it) {
        const QRectF r = barRect(li, *it).adjusted(-2, 0, 2, 0);
        if (r.contains(pos)) {
            best = &*it;
        }
    }
    if (best && laneOut) {
        *laneOut = li;
    }
    return best;
}

QString TimelineView::tooltipFor(int laneIndex, const TimelineBar& b) const {
    const TimelineLane& lane = model_->lanes()[static_cast<std::size_t>(laneIndex)];
    const QString label = label_ ? label_(b.key) : QString();
    const QString id = b.key.section(QLatin1Char('\n'), 1);
    QString text =
        QStringLiteral("<b>%1</b> %2<br>")
            .arg(label.isEmpty() ? QStringLiteral("Message") : label, id.toHtmlEscaped());
    text += QStringLiteral("worker: %1 · poll #%2<br>").arg(lane.worker).arg(b.batch);
    text += QStringLiteral("assigned %1").arg(formatClock(b.startNs, true));
    if (b.endNs != 0) {
        text += QStringLiteral(", ended %1 (%2)")
                    .arg(formatClock(b.endNs, true), formatDurationNs(b.endNs - b.startNs));
    }
    text += QStringLiteral("<br>outcome: <b>%1</b>").arg(outcomeName(b.outcome));
    text += QStringLiteral("<br>receive count %1, sequence %2").arg(b.receiveCount).arg(b.sequence);
    if (b.redelivery) {
        text += QStringLiteral("<br><i>redelivery: this task was handed out before</i>");
    }
    return text;
}

bool TimelineView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip && model_) {
        auto* help = static_cast<QHelpEvent*>(e);
        if (const QString marker = markerTextNear(help->pos()); !marker.isEmpty()) {
            QToolTip::showText(help->globalPos(), marker, this);
            return true;
        }
        int li = -1;
        if (const TimelineBar* b = barAt(help->pos(), &li)) {
            QToolTip::showText(help->globalPos(), tooltipFor(li, *b), this);
            return true;
        }
        const Geometry g = geometry();
        if (help->pos().x() < g.plot.left()) {
            const int lane = static_cast<int>((help->pos().y() - g.plot.top()) / g.laneHeight);
            if (lane >= 0 && lane < static_cast<int>(model_->lanes().size())) {
                const TimelineLane& l = model_->lanes()[static_cast<std::size_t>(lane)];
                QString text = QStringLiteral("<b>%1</b>").arg(l.worker);
                qint64 pruned = 0;
                for (auto n : l.pruned) {
                    pruned += n;
                }
                if (pruned > 0) {
                    text += QStringLiteral("<br>%1 older hand-outs summarised:").arg(pruned);
                    for (int o = 0; o < static_cast<int>(Outcome::Count); ++o) {
                        if (l.pruned[static_cast<std::size_t>(o)] > 0) {
                            text += QStringLiteral("<br>&nbsp;&nbsp;%1 %2")
                                        .arg(l.pruned[static_cast<std::size_t>(o)])
                                        .arg(outcomeName(static_cast<Outcome>(o)));
                        }
                    }
                }
                if (!l.marks.empty()) {
                    text += QStringLiteral("<br>last: %1 at %2")
                                .arg(laneMarkText(l.marks.back().kind),
                                     formatClock(l.marks.back().timeNs));
                }
                QToolTip::showText(help->globalPos(), text, this);
                return true;
            }
        }
    }
    return QWidget::event(e);
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        pressPos_ = event->position().toPoint();
        pressViewEnd_ = live_ ? nowNs() : viewEndNs_;
        dragging_ = false;
    }
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    if (!(event->buttons() & Qt::LeftButton)) {
        return;
    }
    const int dx = event->position().toPoint().x() - pressPos_.x();
    if (!dragging_ && std::abs(dx) < 4) {
        return;
    }
    dragging_ = true;
    const Geometry g = geometry();
    setLive(false);
    viewEndNs_ = pressViewEnd_ - static_cast<std::int64_t>(dx / g.plot.width() * spanNs_);
    update();
    Q_EMIT viewMoved();
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || dragging_) {
        dragging_ = false;
        return;
    }
    const TimelineBar* b = barAt(event->position().toPoint());
    setSelectedKey(b ? b->key : QString());
    Q_EMIT messageClicked(selected_);
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent*) {
    setLive(true);
}

void TimelineView::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    if (event->modifiers() & Qt::ControlModifier) {
        setSpanSeconds(spanSeconds() * std::pow(0.8, steps));
    } else {
        scrubSeconds(-steps * spanSeconds() / 10.0);
    }
    event->accept();
}

}  // namespace qs::ui
