#pragma once

#include <QString>

class QChart;
class QChartView;
class QFont;
class QLineSeries;
class QValueAxis;

// The look and the axis rules every QtCharts view of the console shares (the
// Charts dock, the Channels tab's rate chart), so they read alike. UI thread only.
namespace qs::ui {

// A view over `chart` (which it owns) with the console's margins, no
// animation and the legend at the bottom.
QChartView* makeChartView(QChart* chart, const QString& tip);

// A line series named `name`, added to `chart` (which owns it).
QLineSeries* addLineSeries(QChart* chart, const QString& name);

// A count axis from 0 with round ticks and headroom above `maxValue`, with as
// many ticks as `plotHeight` holds without Qt eliding their labels.
void fitCountAxis(QValueAxis* axis, double maxValue, double plotHeight, const QFont& font);

// Seconds before now ("-30 s" … "0 s") over `span`, ticks on round seconds
// anchored at now, as many as `plotWidth` holds.
void fitTimeAxis(QValueAxis* axis, double span, double plotWidth, const QFont& font);

}  // namespace qs::ui
