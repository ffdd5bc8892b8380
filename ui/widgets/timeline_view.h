#pragma once

#include <QPixmap>
#include <QStringList>
#include <QWidget>
#include <functional>
#include <optional>

#include "models/timeline_model.h"
#include "widgets/timeline_columns.h"
#include "widgets/timeline_geometry.h"
#include "widgets/timeline_labels.h"

// The assignment timeline: one lane per worker, each hand-out a bar from
// assignment to its end coloured by outcome, poll batches bracketed, empty
// polls drawn as waits, configuration changes as vertical markers.
// Follows "now" while live; dragging or the wheel scrubs back in time (and
// pauses following); double-click or goLive() returns to live.
// Painting only reads the model; UI thread only.
namespace qs::ui {

class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);

    void setModel(const TimelineModel* model);
    // Text for a message in tooltips and on wide bars ("#7"); default: none.
    void setLabelFunction(std::function<QString(const QString& key)> fn) { label_ = std::move(fn); }
    // Where "now" is (monotonic ns); default qs::monotonicNanos().
    void setClock(std::function<std::int64_t()> clock) { clock_ = std::move(clock); }

    // The time cursor (docs/ui.md, "Time travel"): a line at t, what comes
    // after it greyed, the view kept around it; nullopt = none (the head).
    void setCursorNs(std::optional<std::int64_t> timeNs);
    std::optional<std::int64_t> cursorNs() const { return cursorNs_; }

    double spanSeconds() const { return spanNs_ / 1e9; }
    // The earliest time the view shows now (its left edge).
    std::int64_t viewStartNs() const { return timelineGeometry().t0; }
    void setSpanSeconds(double seconds);
    bool isLive() const { return live_; }
    const QString& selectedKey() const { return selected_; }
    // The workers whose lanes "Show me" points at (docs/ui.md, "Lessons"):
    // their lanes tinted, their labels marked. A click that selects, Escape or
    // the next call clear or replace them.
    const QStringList& highlightedWorkers() const { return highlighted_; }
    // The lane's index in the model shown, or -1 when it has none.
    int laneOf(const QString& worker) const;
    // Where a lane is painted (its background across the view), in widget coordinates.
    QRectF laneRect(int laneIndex) const;

    // What is under a point (for tooltips and tests): the bar, or null.
    const TimelineBar* barAt(const QPoint& pos, int* lane = nullptr) const;
    QRectF barRect(int lane, const TimelineBar& bar) const;
    // A bar the view paints now, with the end it is drawn to: its own, or for
    // a hand-out still open the head or the time cursor, whichever is shown.
    struct PaintedBar {
        int lane = 0;
        const TimelineBar* bar = nullptr;  // in the model shown; valid until it changes
        std::int64_t drawnEndNs = 0;
        QRectF rect;
    };
    // Every bar paintEvent() draws in the current window (tests read the
    // timeline at a cursor through it, not through pixels).
    std::vector<PaintedBar> paintedBars() const;
    const TimelineModel* model() const { return model_; }

    // Every text the view paints now (axis labels, marker labels, the LIVE
    // badge), where it paints it: for tests that no two overlap.
    std::vector<PlacedLabel> paintedLabels() const;
    // The tooltip text of a marker's label or line at `pos`; empty = none there.
    QString markerTextNear(const QPoint& pos) const;

    QSize sizeHint() const override { return {900, 320}; }
    // Three 16 px lanes and the axis: the transport bar under it needs the rest at 1280x720.
    QSize minimumSizeHint() const override { return {300, 90}; }

public Q_SLOTS:
    void refresh();  // called once per frame by the event pump
    void setLive(bool live);
    void goLive() { setLive(true); }
    void setSelectedKey(const QString& key);
    void setHighlightedWorkers(const QStringList& workers);
    void clearHighlightedWorkers() { setHighlightedWorkers({}); }
    void scrubSeconds(double delta);  // negative = back in time

Q_SIGNALS:
    void messageClicked(const QString& key);
    void liveChanged(bool live);
    void spanChanged(double seconds);  // setSpanSeconds() or Ctrl+wheel
    void viewMoved();                  // dragged, scrolled or zoomed by the user
    void highlightedWorkersChanged(const QStringList& workers);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;

private:
    // Where everything is now (one value per paint or hit test).
    TimelineGeometry timelineGeometry() const;
    int laneCount() const;
    std::int64_t nowNs() const;

    // paintEvent()'s steps, in the order they are drawn over each other.
    void paintNoWorkers(QPainter& p) const;
    void paintLaneBackgrounds(QPainter& p, const TimelineGeometry& g) const;
    // The lanes' backgrounds and labels left of the plot, drawn again only when
    // what they show changes (64 names, dots and fonts cost ~0.3 ms a frame).
    const QPixmap& gutter(const TimelineGeometry& g) const;
    QString gutterKey(const TimelineGeometry& g) const;
    void paintAxis(QPainter& p, const TimelineGeometry& g) const;
    void paintLanes(QPainter& p, const TimelineGeometry& g) const;
    void paintSelectedPath(QPainter& p, const TimelineGeometry& g,
                           std::vector<std::pair<int, const TimelineBar*>> path) const;
    void paintMarkers(QPainter& p, const TimelineGeometry& g) const;
    void paintSummaryEdge(QPainter& p, const TimelineGeometry& g) const;
    QString summaryTooltip() const;
    void paintCursor(QPainter& p, const TimelineGeometry& g) const;
    void paintBadge(QPainter& p) const;

    QString badgeText() const;
    QRectF badgeRectFor(const QString& badge) const;
    AxisLayout axisLayout(const TimelineGeometry& g) const;
    std::vector<PlacedLabel> markerLabels(const TimelineGeometry& g) const;
    QString tooltipFor(int lane, const TimelineBar& bar) const;
    QString laneTooltip(const TimelineLane& lane) const;

    const TimelineModel* model_ = nullptr;
    std::function<QString(const QString&)> label_;
    std::function<std::int64_t()> clock_;
    std::int64_t spanNs_ = 20'000'000'000LL;
    std::int64_t viewEndNs_ = 0;  // when not live
    bool live_ = true;
    std::optional<std::int64_t> cursorNs_;
    QString selected_;
    QStringList highlighted_;
    QPoint pressPos_;
    std::int64_t pressViewEnd_ = 0;
    bool dragging_ = false;
    // The thin bars' pixel columns: buffers kept from one paint to the next.
    mutable TimelineColumns columns_;
    mutable QPixmap gutter_;
    mutable QString gutterKey_;  // what gutter_ shows
};

}  // namespace qs::ui
