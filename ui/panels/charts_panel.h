#pragma once

#include <QWidget>
#include <array>
#include <optional>
#include <vector>

#include "models/charts_model.h"
#include "widgets/share_legend.h"

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QLineSeries;
class QAreaSeries;
class QPieSeries;
class QBarSet;
class QBarSeries;
class QValueAxis;
class QCategoryAxis;
class QLabel;
QT_END_NAMESPACE

// Four QtCharts views over a ChartsModel: throughput, queue depth, share of
// tasks per worker, latency histogram. Redraws at most a few times per second
// (charts are costly) and only when the model changed. UI thread only.
namespace qs::ui {

class ChartsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartsPanel(const ChartsModel* model, QWidget* parent = nullptr);

    // The model shown (not owned): the live one, or the charts at a time cursor.
    void setModel(const ChartsModel* model);
    const ChartsModel* model() const { return model_; }
    void setWindowSeconds(int seconds);  // x range of the time charts
    void applyTheme();
    // Saves one chart (0..3) or all four (-1) as PNG.
    bool savePng(const QString& path, int which = -1);
    QChartView* chartView(int which) const { return views_[static_cast<std::size_t>(which)]; }
    // The share chart's legend as plain text ("worker-1 50%" per line).
    QString shareLegendText() const;
    // The time cursor: a line on the throughput and depth charts at t
    // (monotonic ns, as events); nullopt = none (the head).
    void setCursorNs(std::optional<std::int64_t> timeNs);
    // The cursor line's x on the time charts (seconds before the newest); nullopt = not drawn.
    std::optional<double> cursorLineX() const;

public Q_SLOTS:
    void refresh();  // re-reads the model now, all four charts
    // Brings one chart (in turn) up to date with the model; a chart repaint is costly,
    // so the live console spreads them over frames (4 calls = every chart once).
    void refreshNext();

private:
    enum Chart { Throughput, Depth, Share, Latency, ChartCount };
    void refreshChart(int chart);
    void refreshTimeSeries(bool throughput, bool depth);
    void refreshShare();
    static std::vector<ShareLegend::Row> shareLegendRows(const QMap<QString, qint64>& perWorker,
                                                         qint64 total);
    void refreshLatency();
    // `shift` converts marker times (seconds since origin) to the x axis (seconds before now).
    void refreshMarkers(QChart* chart, std::vector<QLineSeries*>& pool, QValueAxis* x,
                        QValueAxis* y, double from, double to, double shift);
    // Fits ranges and tick spacing to the current plot areas so no label is elided.
    void fitAxes();
    void fitLatencyAxis();
    // Short line charts show their legend beside the plot: under it, the legend
    // takes the height the time axis needs and Qt elides its labels to "...".
    void fitLegends();
    void refreshCursorLines(double last);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    const ChartsModel* model_;
    std::array<std::uint64_t, 4> shownVersion_{~0ULL, ~0ULL, ~0ULL, ~0ULL};
    int nextChart_ = 0;
    int windowSeconds_ = 60;
    std::vector<QChartView*> views_;
    QLineSeries* sent_ = nullptr;
    QLineSeries* acked_ = nullptr;
    QLineSeries* redelivered_ = nullptr;
    QLineSeries* emptyPolls_ = nullptr;
    QValueAxis* tpX_ = nullptr;
    QValueAxis* tpY_ = nullptr;
    QLineSeries* waiting_ = nullptr;
    QLineSeries* inFlight_ = nullptr;
    QValueAxis* depthX_ = nullptr;
    QValueAxis* depthY_ = nullptr;
    QPieSeries* share_ = nullptr;
    // Our own legend beside the pie: QtCharts elides worker names in a narrow chart.
    ShareLegend* shareLegend_ = nullptr;
    QLabel* shareTitle_ = nullptr;
    QWidget* shareBox_ = nullptr;
    // The line charts with their side legends (indexed by Chart; only the first two used).
    std::array<QWidget*, 2> lineBoxes_{};
    std::array<QLabel*, 2> sideLegends_{};
    QBarSet* latencySet_ = nullptr;
    QBarSeries* latencySeries_ = nullptr;
    QValueAxis* latencyY_ = nullptr;
    QCategoryAxis* latencyX_ = nullptr;
    QString latencyTip_;
    int latencyLabelStep_ = 0;  // every n-th bin edge is labelled
    bool fitting_ = false;
    // Data extents from the last refresh, kept for refits on resize.
    double span_ = 10;  // seconds shown on the time charts
    double maxRate_ = 1;
    double maxDepth_ = 1;
    double maxBin_ = 1;
    std::vector<QLineSeries*> tpMarkers_;
    std::vector<QLineSeries*> depthMarkers_;
    std::optional<std::int64_t> cursorNs_;
    std::array<QLineSeries*, 2> cursorLines_{};  // throughput, depth
};

}  // namespace qs::ui
