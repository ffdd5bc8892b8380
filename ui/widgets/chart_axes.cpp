#include "widgets/chart_axes.h"

#include <QChart>
#include <QChartView>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLineSeries>
#include <QPainter>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace qs::ui {

QChartView* makeChartView(QChart* chart, const QString& tip) {
    auto* view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing, true);
    view->setMinimumSize(240, 100);  // 2 rows still fit a 1280×720 window
    view->setToolTip(tip);
    // The default layout padding and rounded frame cost ~20 px of a small plot.
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    chart->setMargins(QMargins(4, 2, 12, 2));
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setAnimationOptions(QChart::NoAnimation);
    return view;
}

QLineSeries* addLineSeries(QChart* chart, const QString& name) {
    auto* s = new QLineSeries;
    s->setName(name);
    s->setUseOpenGL(false);
    chart->addSeries(s);
    return s;
}

namespace {

// Smallest step from `steps` that needs at most `maxIntervals` intervals for `extent`.
double pickStep(double extent, int maxIntervals, std::initializer_list<double> steps) {
    maxIntervals = std::max(1, maxIntervals);
    double last = 1;
    for (double st : steps) {
        last = st;
        if (extent / st <= maxIntervals) {
            return st;
        }
    }
    // Beyond the table: keep going in 1-2-5 decades.
    for (double decade = 10;; decade *= 10) {
        for (double m : {1.0, 2.0, 5.0}) {
            const double st = last * decade * m;
            if (extent / st <= maxIntervals) {
                return st;
            }
        }
    }
}

}  // namespace

// A count axis from 0 with whole-number ticks; headroom so the peak is not on the frame.
void fitCountAxis(QValueAxis* axis, double maxValue, double plotHeight, const QFont& font) {
    const double lineHeight = QFontMetricsF(font).height();
    // Qt elides a vertical label taller than its share of the axis (height / ticks - padding).
    const int maxIntervals = std::clamp(static_cast<int>(plotHeight / (lineHeight + 5)) - 1, 1, 6);
    const double want = std::max(1.0, maxValue * 1.08);
    const double step = pickStep(want, maxIntervals, {1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500});
    const double top = step * std::ceil(want / step);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
    axis->setRange(0, top);
}

// Seconds before now ("-30 s" … "0 s"), ticks on round seconds anchored at now.
void fitTimeAxis(QValueAxis* axis, double span, double plotWidth, const QFont& font) {
    const double labelWidth = QFontMetricsF(font).horizontalAdvance(QStringLiteral("-000 s"));
    // Same rule across: a label wider than (axis width / ticks - padding) is elided.
    const int maxIntervals = std::max(1, static_cast<int>(plotWidth / (labelWidth + 12)) - 1);
    const double step = pickStep(span, maxIntervals, {1, 2, 5, 10, 15, 30, 60, 120, 300, 600});
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
    axis->setRange(-span, 0);
}

}  // namespace qs::ui
