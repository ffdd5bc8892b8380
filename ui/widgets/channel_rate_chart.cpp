#include "widgets/channel_rate_chart.h"

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>

#include "widgets/chart_axes.h"
#include "widgets/theme.h"

namespace qs::ui {

namespace {

QLineSeries* rateSeries(QChart* chart, const QString& name, const QColor& colour,
                        Qt::PenStyle style = Qt::SolidLine) {
    QLineSeries* s = addLineSeries(chart, name);
    QPen pen(colour);
    pen.setWidthF(2.0);
    pen.setStyle(style);
    s->setPen(pen);
    return s;
}

void attach(QLineSeries* series, QValueAxis* x, QValueAxis* y) {
    series->attachAxis(x);
    series->attachAxis(y);
}

QString rate(double perSecond) {
    return QString::number(perSecond, 'f', 1);
}

}  // namespace

ChannelRateChart::ChannelRateChart(QWidget* parent)
    : QWidget(parent),
      summary_(new QLabel(this)),
      chart_(new QChart),
      time_(new QValueAxis),
      rates_(new QValueAxis),
      levels_(new QValueAxis) {
    const Theme& theme = Theme::current();
    sent_ = rateSeries(chart_, QStringLiteral("sent/s"), theme.sentColor());
    delivered_ = rateSeries(chart_, QStringLiteral("delivered/s"), theme.inFlightColor());
    expired_ = rateSeries(chart_, QStringLiteral("expired/s"), theme.outcome(Outcome::Expired));
    waiting_ = rateSeries(chart_, QStringLiteral("waiting"), theme.waitingColor(), Qt::DashLine);
    delayed_ = rateSeries(chart_, QStringLiteral("delayed"), theme.mutedText, Qt::DotLine);
    resets_ = new QScatterSeries;
    resets_->setName(QStringLiteral("counter reset"));
    resets_->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    resets_->setMarkerSize(9);
    resets_->setColor(theme.outcome(Outcome::Returned));
    chart_->addSeries(resets_);

    // No axis titles: a dock is short, and the legend and the line above say
    // which series is what.
    time_->setLabelFormat(QStringLiteral("%.0f s"));
    rates_->setLabelFormat(QStringLiteral("%.0f"));
    levels_->setLabelFormat(QStringLiteral("%.0f"));
    chart_->addAxis(time_, Qt::AlignBottom);
    chart_->addAxis(rates_, Qt::AlignLeft);
    chart_->addAxis(levels_, Qt::AlignRight);
    for (QLineSeries* s : {sent_, delivered_, expired_}) {
        attach(s, time_, rates_);
    }
    attach(waiting_, time_, levels_);
    attach(delayed_, time_, levels_);
    resets_->attachAxis(time_);
    resets_->attachAxis(rates_);

    QChartView* view = makeChartView(
        chart_, QStringLiteral("The selected channel's counters as the server reports them at\n"
                               "each poll of the channel list (every 2 s), any client's traffic:\n"
                               "rates per second (solid, left axis) and the waiting and delayed\n"
                               "messages (dashed, right axis). A square marks an interval in\n"
                               "which a counter went down (a server restart): it counts from 0."));
    view->setAccessibleName(QStringLiteral("Channel rates over time"));
    // Short as the peek pane it shares the tab with, so that the window still
    // fits 1280x720; the splitter above gives it room when there is some.
    view->setMinimumHeight(50);
    // The ticks depend on the plot's size, known only once the chart is laid out.
    connect(chart_, &QChart::plotAreaChanged, this, [this] { fitAxes(); });
    summary_->setObjectName(QStringLiteral("channelRateSummary"));
    summary_->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(summary_);
    layout->addWidget(view, 1);
    showChannel({}, {}, 0);
}

void ChannelRateChart::showChannel(const QString& channel,
                                   const std::deque<client::ChannelRatePoint>& points,
                                   std::int64_t nowNs) {
    channel_ = channel;
    QList<QPointF> sent, delivered, expired, waiting, delayed, resets;
    maxRate_ = maxLevel_ = 0.0;
    double oldest = 0.0;
    for (const client::ChannelRatePoint& p : points) {
        const double x = -static_cast<double>(nowNs - p.timeNs) / 1e9;
        if (x < -kWindowSeconds) {
            continue;
        }
        oldest = std::min(oldest, x);
        sent.append({x, p.sentPerSecond});
        delivered.append({x, p.deliveredPerSecond});
        expired.append({x, p.expiredPerSecond});
        waiting.append({x, static_cast<double>(p.waiting)});
        delayed.append({x, static_cast<double>(p.delayed)});
        if (p.counterReset) {
            resets.append({x, p.sentPerSecond});
        }
        maxRate_ = std::max({maxRate_, p.sentPerSecond, p.deliveredPerSecond, p.expiredPerSecond});
        maxLevel_ =
            std::max({maxLevel_, static_cast<double>(p.waiting), static_cast<double>(p.delayed)});
    }
    sent_->replace(sent);
    delivered_->replace(delivered);
    expired_->replace(expired);
    waiting_->replace(waiting);
    delayed_->replace(delayed);
    resets_->replace(resets);
    span_ = std::clamp(-oldest, 10.0, kWindowSeconds);
    if (channel.isEmpty()) {
        summary_->setText(QStringLiteral("Select a channel to see its rates over time."));
    } else if (points.empty()) {
        summary_->setText(QStringLiteral("%1: the rates appear after the second poll of the "
                                         "server's counters (every 2 s).")
                              .arg(channel));
    } else {
        summary_->setText(describeLatest(points.back(), static_cast<int>(resets.size())));
    }
    fitAxes();
}

QString ChannelRateChart::describeLatest(const client::ChannelRatePoint& p, int resets) const {
    QString text = QStringLiteral(
                       "%1 at the last poll: %2 sent/s · %3 delivered/s · %4 "
                       "expired/s · %5 waiting · %6 delayed")
                       .arg(channel_, rate(p.sentPerSecond), rate(p.deliveredPerSecond),
                            rate(p.expiredPerSecond))
                       .arg(p.waiting)
                       .arg(p.delayed);
    if (p.clients >= 0) {
        text += QStringLiteral(" · %1 client(s) polling").arg(p.clients);
    }
    if (resets > 0) {
        text += QStringLiteral(" · %1 counter reset(s) in view").arg(resets);
    }
    return text;
}

QString ChannelRateChart::summaryText() const {
    return summary_->text();
}

QList<QPointF> ChannelRateChart::seriesPoints(const QString& name) const {
    for (QXYSeries* s : std::initializer_list<QXYSeries*>{sent_, delivered_, expired_, waiting_,
                                                          delayed_, resets_}) {
        if (s->name() == name) {
            return s->points();
        }
    }
    return {};
}

void ChannelRateChart::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitAxes();
}

void ChannelRateChart::fitAxes() {
    const QRectF plot = chart_->plotArea();
    const QFont font = time_->labelsFont();
    fitTimeAxis(time_, span_, plot.width() > 0 ? plot.width() : width(), font);
    fitCountAxis(rates_, maxRate_, plot.height() > 0 ? plot.height() : height(), font);
    fitCountAxis(levels_, maxLevel_, plot.height() > 0 ? plot.height() : height(), font);
}

}  // namespace qs::ui
