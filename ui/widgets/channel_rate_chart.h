#pragma once

#include <QList>
#include <QPointF>
#include <QString>
#include <QWidget>
#include <cstdint>
#include <deque>

#include "client/channel_history.h"

class QChart;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

// One server channel's traffic over time (docs/ui.md, "Channels"): sent,
// delivered and expired per second on the left axis, the waiting and delayed
// levels on the right, read from the ChannelHistory of the channel list's
// polls, so it shows any client's traffic, not only this console's. An
// interval in which a counter went down (a server restart) is marked. The
// newest poll is at the right; the last ten minutes are shown.
// UI thread only.
namespace qs::ui {

class ChannelRateChart : public QWidget {
    Q_OBJECT
public:
    static constexpr double kWindowSeconds = 600.0;

    explicit ChannelRateChart(QWidget* parent = nullptr);

    // Plots `points` (oldest first) of `channel`, `nowNs` (the history's
    // monotonic clock) at 0 s. An empty `channel`: nothing selected.
    void showChannel(const QString& channel, const std::deque<client::ChannelRatePoint>& points,
                     std::int64_t nowNs);
    QString channel() const { return channel_; }
    // The line above the chart: the latest rates and levels, or what to do.
    QString summaryText() const;
    // The plotted points of the series named `name` ("sent/s", "delivered/s",
    // "expired/s", "waiting", "delayed", "counter reset"): x in seconds before
    // now, y as plotted.
    QList<QPointF> seriesPoints(const QString& name) const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fitAxes();
    QString describeLatest(const client::ChannelRatePoint& p, int resets) const;

    QString channel_;
    QLabel* summary_;
    QChart* chart_;
    QValueAxis* time_;
    QValueAxis* rates_;
    QValueAxis* levels_;
    QLineSeries* sent_;
    QLineSeries* delivered_;
    QLineSeries* expired_;
    QLineSeries* waiting_;
    QLineSeries* delayed_;
    QScatterSeries* resets_;
    double span_ = 60.0;
    double maxRate_ = 0.0;
    double maxLevel_ = 0.0;
};

}  // namespace qs::ui
