#include "widgets/timeline_view.h"

#include <QHelpEvent>
#include <QKeyEvent>
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
#include "widgets/timeline_lane_painter.h"

namespace qs::ui {

namespace {
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

int TimelineView::laneCount() const {
    return model_ ? static_cast<int>(model_->lanes().size()) : 0;
}

TimelineGeometry TimelineView::timelineGeometry() const {
    return TimelineGeometry::compute(size(), QFontMetrics(font()), laneCount(),
                                     live_ ? nowNs() : viewEndNs_, spanNs_, cursorNs_);
}

QRectF TimelineView::barRect(int laneIndex, const TimelineBar& bar) const {
    if (laneIndex < 0 || laneIndex >= laneCount()) {
        return {};
    }
    return timelineGeometry().barRect(laneIndex,
                                      model_->lanes()[static_cast<std::size_t>(laneIndex)], bar);
}

int TimelineView::laneOf(const QString& worker) const {
    return model_ ? model_->laneOf(worker) : -1;
}

QRectF TimelineView::laneRect(int laneIndex) const {
    if (laneIndex < 0 || laneIndex >= laneCount()) {
        return {};
    }
    const TimelineGeometry g = timelineGeometry();
    return {0, g.laneTop(laneIndex), static_cast<double>(width()), g.laneHeight};
}

void TimelineView::setHighlightedWorkers(const QStringList& workers) {
    if (highlighted_ == workers) {
        return;
    }
    highlighted_ = workers;
    update();
    Q_EMIT highlightedWorkersChanged(highlighted_);
}

// Each step paints over the ones before it: lanes over their backgrounds,
// markers over the lanes, the cursor's veil over both, the badge on top.
void TimelineView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), Theme::current().panel);
    if (laneCount() == 0) {
        paintNoWorkers(p);
        return;
    }
    const TimelineGeometry g = timelineGeometry();
    paintLaneBackgrounds(p, g);
    paintAxis(p, g);
    paintLanes(p, g);
    paintSummaryEdge(p, g);
    paintMarkers(p, g);
    paintCursor(p, g);
    paintBadge(p);
}

void TimelineView::paintNoWorkers(QPainter& p) const {
    p.setPen(Theme::current().mutedText);
    p.drawText(rect(), Qt::AlignCenter,
               QStringLiteral("No workers yet.\nStart a worker pool and send tasks to see "
                              "who gets which task."));
}

void TimelineView::paintLaneBackgrounds(QPainter& p, const TimelineGeometry& g) const {
    const TimelineLanePainter painter(p, g, font(), width());
    const auto& lanes = model_->lanes();
    for (int li = 0; li < static_cast<int>(lanes.size()) && g.laneTop(li) <= height(); ++li) {
        painter.paintBackgroundOnly(
            li, highlighted_.contains(lanes[static_cast<std::size_t>(li)].worker));
    }
    p.drawPixmap(0, 0, gutter(g));
}

// Drawn as the lanes' backgrounds and labels were, on the view's own
// background: the same pixels, copied.
const QPixmap& TimelineView::gutter(const TimelineGeometry& g) const {
    QString key = gutterKey(g);
    if (key == gutterKey_) {
        return gutter_;
    }
    const double dpr = devicePixelRatioF();
    const QSizeF size(std::ceil(g.plot.left()), height());
    QPixmap pixmap((size * dpr).toSize());
    pixmap.setDevicePixelRatio(dpr);
    QPainter p(&pixmap);
    p.fillRect(QRectF(QPointF(0, 0), size), Theme::current().panel);
    const TimelineLanePainter painter(p, g, font(), size.width());
    const auto& lanes = model_->lanes();
    for (int li = 0; li < static_cast<int>(lanes.size()) && g.laneTop(li) <= height(); ++li) {
        const TimelineLane& lane = lanes[static_cast<std::size_t>(li)];
        painter.paintBackground(li, lane, highlighted_.contains(lane.worker));
    }
    p.end();
    gutter_ = std::move(pixmap);
    gutterKey_ = std::move(key);
    return gutter_;
}

// Everything the gutter's pixels depend on.
QString TimelineView::gutterKey(const TimelineGeometry& g) const {
    const Theme& theme = Theme::current();
    QString key = QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8\n")
                      .arg(g.plot.left())
                      .arg(height())
                      .arg(g.laneHeight)
                      .arg(devicePixelRatioF())
                      .arg(font().key())
                      .arg(theme.panel.rgba())
                      .arg(theme.laneAlt.rgba())
                      .arg(theme.text.rgba()) +
                  QStringLiteral("%1 %2 %3 %4\n")
                      .arg(theme.highlight.rgba())
                      .arg(theme.outcome(Outcome::Acked).rgba())
                      .arg(theme.outcome(Outcome::Returned).rgba())
                      .arg(theme.waitingColor().rgba());
    const auto& lanes = model_->lanes();
    for (int li = 0; li < static_cast<int>(lanes.size()) && g.laneTop(li) <= height(); ++li) {
        const TimelineLane& lane = lanes[static_cast<std::size_t>(li)];
        key += lane.worker;
        key += QLatin1Char(lane.crashed ? 'c' : '-');
        key += QLatin1Char(lane.paused ? 'p' : '-');
        key += QLatin1Char(highlighted_.contains(lane.worker) ? 'h' : '-');
        key += QLatin1Char('\n');
    }
    return key;
}

// Grid lines and axis labels (timeline_labels: none overlaps another, nor the badge).
void TimelineView::paintAxis(QPainter& p, const TimelineGeometry& g) const {
    const Theme& theme = Theme::current();
    const double lanesBottom = g.lanesBottom(laneCount());
    p.setPen(theme.grid);
    p.drawLine(QPointF(g.plot.left(), g.plot.top()), QPointF(g.plot.left(), lanesBottom));
    const AxisLayout axis = axisLayout(g);
    for (const std::int64_t t : axis.ticks) {
        const double x = g.xOf(t);
        p.setPen(QPen(theme.grid, 1, Qt::DotLine));
        p.drawLine(QPointF(x, g.plot.top()), QPointF(x, lanesBottom));
    }
    p.setPen(theme.mutedText);
    for (const PlacedLabel& label : axis.labels) {
        p.drawText(label.rect, Qt::AlignCenter, label.text);
    }
}

// Each lane's polls, bars and marks, clipped to the plot; then the selected
// task's path across them.
void TimelineView::paintLanes(QPainter& p, const TimelineGeometry& g) const {
    p.save();
    p.setClipRect(QRectF(g.plot.left() + 1, g.plot.top(), g.plot.width(),
                         g.lanesBottom(laneCount()) - g.plot.top()));
    columns_.begin(g, height(), p.device()->devicePixelRatioF(), Theme::current());
    TimelineLanePainter painter(p, g, font(), width());
    if (label_) {
        painter.setBarLabels([this](const TimelineBar& b) { return label_(model_->keyOf(b)); });
    }
    painter.setSelectedKey(selected_.isEmpty() ? MessageKeyPool::kNone : model_->keyId(selected_));
    painter.setColumns(&columns_);
    painter.setSummaryUntil(model_->detailFromNs());
    const auto& lanes = model_->lanes();
    const auto openBars = model_->openBars();
    int shown = 0;  // lanes that start inside the view
    while (shown < static_cast<int>(lanes.size()) && g.laneTop(shown) <= height()) {
        ++shown;
    }
    // The selected task's visible hand-outs, collected while drawing (never a scan of
    // the whole history).
    std::vector<std::pair<int, const TimelineBar*>> path;
    for (int li = 0; li < shown; ++li) {
        painter.paintContents(li, lanes[static_cast<std::size_t>(li)], openBars, &path);
    }
    if (!selected_.isEmpty()) {
        paintSelectedPath(p, g, std::move(path));
    }
    p.restore();
}

// A redelivery jumps between workers: a dashed line joins its hand-outs in time order.
void TimelineView::paintSelectedPath(QPainter& p, const TimelineGeometry& g,
                                     std::vector<std::pair<int, const TimelineBar*>> path) const {
    std::sort(path.begin(), path.end(),
              [](const auto& a, const auto& b) { return a.second->startNs < b.second->startNs; });
    const auto rectOf = [&](const std::pair<int, const TimelineBar*>& laneBar) {
        return g.barRect(laneBar.first, model_->lanes()[static_cast<std::size_t>(laneBar.first)],
                         *laneBar.second);
    };
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(Theme::current().selection, 1.5, Qt::DashLine));
    for (std::size_t i = 1; i < path.size(); ++i) {
        const QRectF a = rectOf(path[i - 1]);
        const QRectF b = rectOf(path[i]);
        p.drawLine(QPointF(a.right(), a.center().y()), QPointF(b.left(), b.center().y()));
    }
    p.setRenderHint(QPainter::Antialiasing, false);
}

// Configuration markers across all lanes; only the labels with room of their
// own (timeline_labels), the hidden ones' text is in the tooltip of their line.
void TimelineView::paintMarkers(QPainter& p, const TimelineGeometry& g) const {
    const Theme& theme = Theme::current();
    const double lanesBottom = g.lanesBottom(laneCount());
    for (const TimelineMarker& m : model_->markers()) {
        if (m.timeNs < g.t0 || m.timeNs > g.t1) {
            continue;
        }
        const double x = g.xOf(m.timeNs);
        p.setPen(QPen(theme.marker, 1.5, Qt::DashLine));
        p.drawLine(QPointF(x, g.plot.top()), QPointF(x, lanesBottom));
    }
    for (const PlacedLabel& label : markerLabels(g)) {
        QColor bg = theme.panel;
        bg.setAlpha(220);
        p.fillRect(label.rect, bg);
        p.setPen(theme.marker);
        p.drawText(label.rect, Qt::AlignCenter, label.text);
    }
}

// Where the lanes' summaries end and each hand-out is a bar again: a dotted
// line, "summary" left of it (the tooltip says more).
void TimelineView::paintSummaryEdge(QPainter& p, const TimelineGeometry& g) const {
    const std::int64_t edge = model_->detailFromNs();
    if (edge <= g.t0 || edge > g.t1) {
        return;
    }
    const Theme& theme = Theme::current();
    const double x = g.xOf(edge);
    p.setPen(QPen(theme.mutedText, 1, Qt::DotLine));
    p.drawLine(QPointF(x, g.plot.top()), QPointF(x, g.lanesBottom(laneCount())));
    const QString text = QStringLiteral("summary");
    const QFontMetrics fm(font());
    const QRectF label(x - fm.horizontalAdvance(text) - 8, g.plot.top() + 1,
                       fm.horizontalAdvance(text) + 6, fm.height());
    if (label.left() > g.plot.left()) {
        QColor bg = theme.panel;
        bg.setAlpha(220);
        p.fillRect(label, bg);
        p.setPen(theme.mutedText);
        p.drawText(label, Qt::AlignCenter, text);
    }
}

QString TimelineView::summaryTooltip() const {
    return QStringLiteral(
               "<b>Summary</b><br>Before %1 the live timeline keeps, per worker and per 10 ms,"
               " only the colour of the hand-outs that started then (a problem over an ack),"
               " so that its memory stays bounded: it holds the newest %2 hand-outs one by one."
               "<br>Move the time cursor there to see each hand-out.")
        .arg(formatClock(model_->detailFromNs(), true))
        .arg(model_->detailBudget());
}

// What has not happened yet at the cursor is greyed; the cursor is a line.
void TimelineView::paintCursor(QPainter& p, const TimelineGeometry& g) const {
    if (!cursorNs_ || *cursorNs_ < g.t0 || *cursorNs_ > g.t1) {
        return;
    }
    const Theme& theme = Theme::current();
    const double bottom = g.lanesBottom(laneCount());
    const double x = g.xOf(*cursorNs_);
    QColor veil = theme.panel;
    veil.setAlpha(170);
    p.fillRect(QRectF(x, g.plot.top(), g.plot.right() - x, bottom - g.plot.top()), veil);
    p.setPen(QPen(theme.selection, 2));
    p.drawLine(QPointF(x, g.plot.top() - 4), QPointF(x, bottom));
}

// Live / paused / time cursor, drawn last so nothing covers it.
void TimelineView::paintBadge(QPainter& p) const {
    const QString badge = badgeText();
    const QRectF badgeRect = badgeRectFor(badge);
    p.fillRect(badgeRect,
               live_ ? Theme::current().outcome(Outcome::Returned) : Theme::current().mutedText);
    p.setPen(Qt::white);
    p.drawText(badgeRect, Qt::AlignCenter, badge);
}

std::vector<TimelineView::PaintedBar> TimelineView::paintedBars() const {
    std::vector<PaintedBar> out;
    if (!model_) {
        return out;
    }
    const TimelineGeometry g = timelineGeometry();
    const auto openBars = model_->openBars();
    for (int li = 0; li < laneCount(); ++li) {
        const TimelineLane& lane = model_->lanes()[static_cast<std::size_t>(li)];
        for (const TimelineBar* b : g.barsInView(lane, li, openBars)) {
            out.push_back({li, b, g.drawnEnd(*b), g.barRect(li, lane, *b)});
        }
    }
    return out;
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

AxisLayout TimelineView::axisLayout(const TimelineGeometry& g) const {
    AxisRequest r;
    r.t0 = g.t0;
    r.t1 = g.t1;
    r.left = g.plot.left();
    r.right = g.plot.right();
    r.labelRight = badgeRectFor(badgeText()).left() - 4;
    r.top = TimelineGeometry::kAxisPad;
    // Ticks align to the wall clock so labels read as round times.
    r.wallOffsetNs = monoToUnixMs(0) * 1'000'000;
    return layoutTimeAxis(r, QFontMetricsF(font()));
}

std::vector<PlacedLabel> TimelineView::markerLabels(const TimelineGeometry& g) const {
    std::vector<MarkerRequest> markers;
    if (model_) {
        for (const TimelineMarker& m : model_->markers()) {
            if (m.timeNs >= g.t0 && m.timeNs <= g.t1) {
                markers.push_back({g.xOf(m.timeNs), m.text, m.timeNs});
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
    const TimelineGeometry g = timelineGeometry();
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
    const TimelineGeometry g = timelineGeometry();
    for (const PlacedLabel& label : markerLabels(g)) {
        if (label.rect.contains(pos)) {
            return label.fullText;
        }
    }
    QStringList texts;
    for (const TimelineMarker& m : model_->markers()) {
        if (m.timeNs >= g.t0 && m.timeNs <= g.t1 && std::abs(g.xOf(m.timeNs) - pos.x()) <= 3 &&
            pos.y() >= g.plot.top()) {
            texts << QStringLiteral("%1 %2").arg(formatClock(m.timeNs), m.text.toHtmlEscaped());
        }
    }
    return texts.join(QStringLiteral("<br>"));
}

const TimelineBar* TimelineView::barAt(const QPoint& pos, int* laneOut) const {
    const TimelineGeometry g = timelineGeometry();
    const int li = g.laneAt(pos.y());
    if (!g.plot.contains(pos) || li < 0 || li >= laneCount()) {
        return nullptr;
    }
    const TimelineBar* bar = g.barAt(model_->lanes()[static_cast<std::size_t>(li)], li, pos);
    if (bar && laneOut) {
        *laneOut = li;
    }
    return bar;
}

QString TimelineView::tooltipFor(int laneIndex, const TimelineBar& b) const {
    const TimelineLane& lane = model_->lanes()[static_cast<std::size_t>(laneIndex)];
    const QString key = model_->keyOf(b);
    const QString label = label_ ? label_(key) : QString();
    const QString id = key.section(QLatin1Char('\n'), 1);
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

// A worker's name, what was summarised of its history, and its last life-cycle mark.
QString TimelineView::laneTooltip(const TimelineLane& lane) const {
    QString text = QStringLiteral("<b>%1</b>").arg(lane.worker);
    qint64 pruned = 0;
    for (auto n : lane.pruned) {
        pruned += n;
    }
    if (pruned > 0) {
        text += QStringLiteral("<br>%1 older hand-outs summarised:").arg(pruned);
        for (int o = 0; o < static_cast<int>(Outcome::Count); ++o) {
            if (lane.pruned[static_cast<std::size_t>(o)] > 0) {
                text += QStringLiteral("<br>&nbsp;&nbsp;%1 %2")
                            .arg(lane.pruned[static_cast<std::size_t>(o)])
                            .arg(outcomeName(static_cast<Outcome>(o)));
            }
        }
    }
    if (!lane.marks.empty()) {
        text +=
            QStringLiteral("<br>last: %1 at %2")
                .arg(laneMarkText(lane.marks.back().kind), formatClock(lane.marks.back().timeNs));
    }
    return text;
}

// Tooltips: a marker's text, else the bar under the pointer, else the lane's label.
bool TimelineView::event(QEvent* e) {
    if (e->type() != QEvent::ToolTip || !model_) {
        return QWidget::event(e);
    }
    auto* help = static_cast<QHelpEvent*>(e);
    QString text = markerTextNear(help->pos());
    int li = -1;
    if (text.isEmpty()) {
        if (const TimelineBar* b = barAt(help->pos(), &li)) {
            text = tooltipFor(li, *b);
        }
    }
    const TimelineGeometry g = timelineGeometry();
    li = g.laneAt(help->pos().y());
    if (text.isEmpty() && help->pos().x() < g.plot.left() && li >= 0 && li < laneCount()) {
        text = laneTooltip(model_->lanes()[static_cast<std::size_t>(li)]);
    }
    if (text.isEmpty() && g.plot.contains(help->pos()) && li >= 0 && li < laneCount() &&
        help->pos().x() < g.xOf(model_->detailFromNs())) {
        text = summaryTooltip();
    }
    if (text.isEmpty()) {
        return QWidget::event(e);
    }
    QToolTip::showText(help->globalPos(), text, this);
    return true;
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
    const TimelineGeometry g = timelineGeometry();
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
    setSelectedKey(b ? model_->keyOf(*b) : QString());
    clearHighlightedWorkers();  // the user points at something else now
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

void TimelineView::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Escape && !highlighted_.isEmpty()) {
        clearHighlightedWorkers();
        event->accept();
        return;
    }
    QWidget::keyPressEvent(event);
}

}  // namespace qs::ui
