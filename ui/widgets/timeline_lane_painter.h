#pragma once

#include <QBrush>
#include <QFont>
#include <QFontMetrics>
#include <QString>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "models/timeline_model.h"
#include "widgets/timeline_columns.h"
#include "widgets/timeline_geometry.h"

class QPainter;

// Paints one worker's lane of the assignment timeline (TimelineView): in the
// gutter its label (state dot, name, "crashed" / "paused") on the lane's
// background; in the plot its polls (waits hatched, batch brackets), its bars
// coloured by outcome, and its life-cycle marks (crash, pause, start). Holds
// the painter, geometry and style of one paint event; UI thread only.
namespace qs::ui {

struct Theme;

class TimelineLanePainter {
public:
    // A hand-out of the selected task, with its lane (for the path across lanes).
    using LaneBar = std::pair<int, const TimelineBar*>;

    TimelineLanePainter(QPainter& painter, const TimelineGeometry& geometry, const QFont& font,
                        double viewWidth);

    // Text on bars wide enough for it ("#7"); none by default.
    void setBarLabels(std::function<QString(const TimelineBar&)> labelOf) {
        labelOf_ = std::move(labelOf);
    }
    // The task whose bars are outlined (and never merged into a pixel column):
    // its id in the model (TimelineModel::keyId), kNone for none.
    void setSelectedKey(MessageKeyPool::Id key) { selected_ = key; }

    // The lane's background across the view and its label in the gutter;
    // a highlighted lane (Show me) is tinted, with a bar at its left edge.
    void paintBackground(int laneIndex, const TimelineLane& lane, bool highlighted) const;
    // The same without the label (the view keeps its labels' gutter drawn).
    void paintBackgroundOnly(int laneIndex, bool highlighted) const;
    // Its polls, the bars in view and its marks; the selected task's bars are
    // added to `selectedPath`. Bars narrower than 2 px go through `columns`
    // (set before): counted into pixel columns, drawn as one strip.
    void paintContents(int laneIndex, const TimelineLane& lane,
                       const std::vector<std::pair<int, const TimelineBar*>>& openBars,
                       std::vector<LaneBar>* selectedPath);
    void setColumns(TimelineColumns* columns) { columns_ = columns; }
    // Before this time lanes show their summaries (TimelineModel::detailFromNs; 0: none).
    void setSummaryUntil(std::int64_t ns) { summaryUntil_ = ns; }

private:
    void paintLabel(const QRectF& laneRect, const TimelineLane& lane) const;
    void paintPolls(int laneIndex, const TimelineLane& lane) const;
    void paintWait(const QRectF& wait, bool open) const;
    void paintBatchBracket(double x0, double x1, double laneBottom) const;
    // Bars wider than 2 px (and the selected task's) one by one; the rest
    // counted into pixel columns.
    void paintBars(int laneIndex, const TimelineLane& lane,
                   const std::vector<std::pair<int, const TimelineBar*>>& openBars,
                   std::vector<LaneBar>* selectedPath);
    // lane.bars[i] from x0 to x1, filled on its own; added to `selectedPath` if given.
    // The lane's summary in view, counted into the pixel columns as its bars
    // were: a bucket wider than a pixel fills each column it covers.
    void countSummary(const TimelineLane& lane, const TimelineColumns::LaneTally& tally,
                      int& first, int& last) const;
    void countFoldedSummary(const TimelineLane& lane, std::int64_t until,
                            const TimelineColumns::LaneTally& tally, int& first, int& last) const;
    [[gnu::noinline]] void paintBarAlone(int laneIndex, const TimelineLane& lane, std::size_t i,
                                         double x0, double x1,
                                         std::vector<LaneBar>* selectedPath) const;
    void paintWideBar(const QRectF& r, const TimelineBar& bar) const;
    void paintMarks(int laneIndex, const TimelineLane& lane) const;
    void paintCrashMark(double x, double top) const;

    QPainter& p_;
    const TimelineGeometry& g_;
    const Theme& theme_;
    QFont font_;
    QFontMetrics fm_;
    double viewWidth_;
    QBrush hatch_;
    std::function<QString(const TimelineBar&)> labelOf_;
    MessageKeyPool::Id selected_ = MessageKeyPool::kNone;
    std::int64_t summaryUntil_ = 0;
    TimelineColumns* columns_ = nullptr;
};

}  // namespace qs::ui
