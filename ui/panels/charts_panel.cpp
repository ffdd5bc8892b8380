#include "panels/charts_panel.h"

#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QPieSeries>
#include <QPieSlice>
#include <QResizeEvent>
#include <QSignalBlocker>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "widgets/chart_axes.h"
#include "widgets/theme.h"

namespace qs::ui {

namespace {

// A legend taller than its chart stretches the whole window (64 workers made a
// 1,000 px window 1,600 px tall): past this many workers it lists the busiest
// and sums the others in one line.
constexpr int kShareLegendRows = 12;

QString othersName(int others) {
    return QStringLiteral("%1 others").arg(others);
}

}  // namespace

ChartsPanel::ChartsPanel(const ChartsModel* model, QWidget* parent)
    : QWidget(parent), model_(model) {
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(4);

    // Throughput.
    auto* tp = new QChart;
    tp->setTitle(QStringLiteral("Throughput (tasks / s)"));
    sent_ = addLineSeries(tp, QStringLiteral("sent"));
    acked_ = addLineSeries(tp, QStringLiteral("acked"));
    redelivered_ = addLineSeries(tp, QStringLiteral("redelivered"));
    emptyPolls_ = addLineSeries(tp, QStringLiteral("empty polls"));
    tpX_ = new QValueAxis;
    tpY_ = new QValueAxis;
    tpX_->setLabelFormat(QStringLiteral("%d s"));
    tpY_->setLabelFormat(QStringLiteral("%d"));
    tp->addAxis(tpX_, Qt::AlignBottom);
    tp->addAxis(tpY_, Qt::AlignLeft);
    for (auto* s : {sent_, acked_, redelivered_, emptyPolls_}) {
        s->attachAxis(tpX_);
        s->attachAxis(tpY_);
    }
    views_.push_back(makeChartView(
        tp,
        QStringLiteral(
            "Tasks sent, acked and redelivered per second. With competing consumers the acked "
            "rate\n"
            "is the pool's combined capacity; redeliveries show at-least-once delivery at work.\n"
            "Empty polls per second (dotted) are the cost of short waits on an idle queue.\n"
            "Dashed lines mark configuration changes.")));

    // Queue depth.
    auto* depth = new QChart;
    depth->setTitle(QStringLiteral("Queue depth"));
    waiting_ = addLineSeries(depth, QStringLiteral("waiting"));
    inFlight_ = addLineSeries(depth, QStringLiteral("in flight"));
    depthX_ = new QValueAxis;
    depthY_ = new QValueAxis;
    depthX_->setLabelFormat(QStringLiteral("%d s"));
    depthY_->setLabelFormat(QStringLiteral("%d"));
    depth->addAxis(depthX_, Qt::AlignBottom);
    depth->addAxis(depthY_, Qt::AlignLeft);
    for (auto* s : {waiting_, inFlight_}) {
        s->attachAxis(depthX_);
        s->attachAxis(depthY_);
    }
    views_.push_back(makeChartView(
        depth,
        QStringLiteral(
            "Tasks waiting in the work queue vs. in flight (handed to a worker, not yet "
            "settled).\n"
            "In-flight tasks are invisible to other workers until acked, rejected or returned.\n"
            "Dead-lettered tasks have left the work queue and are not counted.")));

    // Share per worker.
    auto* share = new QChart;
    share->setTitle(QStringLiteral("Acked per worker"));
    share_ = new QPieSeries;
    share_->setHoleSize(0.35);
    share->addSeries(share_);
    share->legend()->setShowToolTips(true);
    const QString shareTip = QStringLiteral(
        "How the work was shared. Competing consumers each take whole batches, so a large\n"
        "batch size can give one worker most of the tasks while others wait.");
    views_.push_back(makeChartView(share, shareTip));
    // QtCharts gives a side legend a fixed share of a small chart and elides the
    // names ("worker..."); this one takes the width its lines need, the pie the rest.
    share->legend()->hide();
    share->setMargins(QMargins(2, 2, 2, 2));
    shareLegend_ = new ShareLegend;
    shareLegend_->setToolTip(shareTip);
    shareLegend_->setObjectName(QStringLiteral("shareLegend"));
    // The title spans pie and legend (the pie alone is too narrow for it at 1280 px).
    share->setTitle(QString());
    shareTitle_ = new QLabel(QStringLiteral("Acked per worker"));
    shareTitle_->setAlignment(Qt::AlignCenter);
    shareTitle_->setAutoFillBackground(true);
    shareTitle_->setContentsMargins(0, 4, 0, 0);
    shareTitle_->setToolTip(shareTip);
    shareBox_ = new QWidget;
    auto* shareColumn = new QVBoxLayout(shareBox_);
    shareColumn->setContentsMargins(0, 0, 0, 0);
    shareColumn->setSpacing(0);
    shareColumn->addWidget(shareTitle_);
    auto* shareLayout = new QHBoxLayout;
    shareLayout->setContentsMargins(0, 0, 0, 0);
    shareLayout->setSpacing(0);
    shareLayout->addWidget(views_.back(), 1);
    shareLayout->addWidget(shareLegend_);
    shareColumn->addLayout(shareLayout, 1);
    views_.back()->setMinimumWidth(120);

    // Latency histogram.
    auto* lat = new QChart;
    lat->setTitle(QStringLiteral("Latency sent → acked"));
    latencySet_ = new QBarSet(QStringLiteral("tasks"));
    latencySeries_ = new QBarSeries;
    latencySeries_->append(latencySet_);
    latencySeries_->setBarWidth(0.9);
    lat->addSeries(latencySeries_);
    for (int i = 0; i < ChartsModel::kLatencyBins; ++i) {
        latencySet_->append(0);
    }
    // Bin i is drawn at x = i; its edges are labelled on the value they stand for, so the
    // uneven bins read as ranges and only as many edges are named as fit.
    latencyX_ = new QCategoryAxis;
    latencyX_->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    latencyX_->setStartValue(-0.5);
    latencyX_->setRange(-0.5, ChartsModel::kLatencyBins - 0.5);
    latencyY_ = new QValueAxis;
    latencyY_->setLabelFormat(QStringLiteral("%d"));
    lat->addAxis(latencyX_, Qt::AlignBottom);
    lat->addAxis(latencyY_, Qt::AlignLeft);
    latencySeries_->attachAxis(latencyX_);
    latencySeries_->attachAxis(latencyY_);
    connect(latencySeries_, &QBarSeries::hovered, this, [this](bool on, int index, QBarSet*) {
        views_[3]->setToolTip(on ? QStringLiteral("%1: %2 task(s)")
                                       .arg(ChartsModel::latencyBinLabel(index))
                                       .arg(static_cast<qint64>(latencySet_->at(index)))
                                 : latencyTip_);
    });
    lat->legend()->hide();
    latencyTip_ = QStringLiteral(
        "How long tasks took from being sent to being acked. Waiting in the queue counts:\n"
        "more workers or bigger batches move this left; redeliveries add a long tail.");
    views_.push_back(makeChartView(lat, latencyTip_));

    // Beside each line chart, a legend shown instead of QtCharts' own when the
    // chart is short (see fitLegends()).
    for (int i : {Throughput, Depth}) {
        auto* legend = new QLabel;
        legend->setTextFormat(Qt::RichText);
        legend->setAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        legend->setAutoFillBackground(true);
        legend->setContentsMargins(0, 0, 6, 0);
        legend->setToolTip(views_[static_cast<std::size_t>(i)]->toolTip());
        legend->setObjectName(i == Throughput ? QStringLiteral("throughputSideLegend")
                                              : QStringLiteral("depthSideLegend"));
        legend->hide();
        auto* box = new QWidget;
        auto* row = new QHBoxLayout(box);
        row->setContentsMargins(0, 0, 0, 0);
        row->setSpacing(0);
        row->addWidget(views_[static_cast<std::size_t>(i)], 1);
        row->addWidget(legend);
        // The box keeps the chart's old minimum; with the side legend shown the
        // plot gives it the room, so the window needs no more width than before.
        box->setMinimumWidth(views_[static_cast<std::size_t>(i)]->minimumWidth());
        views_[static_cast<std::size_t>(i)]->setMinimumWidth(120);
        sideLegends_[static_cast<std::size_t>(i)] = legend;
        lineBoxes_[static_cast<std::size_t>(i)] = box;
    }
    grid->addWidget(lineBoxes_[Throughput], 0, 0);
    grid->addWidget(lineBoxes_[Depth], 0, 1);
    grid->addWidget(shareBox_, 1, 0);
    grid->addWidget(views_[3], 1, 1);
    for (QChartView* v : views_) {
        connect(v->chart(), &QChart::plotAreaChanged, this, [this] { fitAxes(); });
    }
    applyTheme();
    fitLegends();
    refresh();
}

void ChartsPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitLegends();
}

void ChartsPanel::fitLegends() {
    // Title, legend and axis labels take a line each; the plot needs a few lines
    // more to be worth reading. A short chart shows its legend beside the plot
    // instead: QtCharts would take the line from the time axis (its labels turn
    // into "...") and, at the side, elide the series names ("redeliv...").
    const QFontMetrics fm(font());
    const int needed = fm.height() * 7 + 16;
    for (int i : {Throughput, Depth}) {
        QChartView* v = views_[static_cast<std::size_t>(i)];
        QLabel* side = sideLegends_[static_cast<std::size_t>(i)];
        const bool compact = lineBoxes_[static_cast<std::size_t>(i)]->height() < needed;
        if (side->isHidden() != compact) {
            continue;  // already in that mode (isHidden(): also right before the first show)
        }
        v->chart()->legend()->setVisible(!compact);
        // The plot gives the legend its width: a shorter title, or Qt elides it.
        if (i == Throughput) {
            v->chart()->setTitle(compact ? QStringLiteral("Throughput / s")
                                         : QStringLiteral("Throughput (tasks / s)"));
        }
        side->setVisible(compact);
    }
}

void ChartsPanel::setWindowSeconds(int seconds) {
    windowSeconds_ = std::max(10, seconds);
    shownVersion_.fill(~0ULL);
    refresh();
}

void ChartsPanel::applyTheme() {
    const Theme& t = Theme::current();
    for (QChartView* v : views_) {
        QChart* c = v->chart();
        c->setTheme(t.kind == ThemeKind::Dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
        c->setBackgroundBrush(t.panel);
        c->setTitleBrush(t.text);
        QFont f = font();
        f.setBold(true);
        c->setTitleFont(f);
        c->legend()->setLabelColor(t.text);
        c->legend()->setFont(font());
        for (QAbstractAxis* a : c->axes()) {
            a->setLabelsColor(t.mutedText);
            a->setLabelsFont(font());
            a->setTitleBrush(t.mutedText);
            a->setGridLineColor(t.grid);
            a->setLinePenColor(t.grid);
            QFont small = font();
            small.setPointSizeF(small.pointSizeF() * 0.9);
            a->setTitleFont(small);
        }
        v->setBackgroundBrush(t.panel);
    }
    auto pen = [](QColor c, qreal w) {
        QPen p(c);
        p.setWidthF(w);
        return p;
    };
    QPalette legendPalette = shareLegend_->palette();
    legendPalette.setColor(QPalette::Window, t.panel);
    legendPalette.setColor(QPalette::WindowText, t.text);
    shareLegend_->setPalette(legendPalette);
    shareTitle_->setPalette(legendPalette);
    QFont titleFont = font();
    titleFont.setBold(true);
    shareTitle_->setFont(titleFont);
    sent_->setPen(pen(t.sentColor(), 2));
    acked_->setPen(pen(t.outcome(Outcome::Acked), 2.5));
    redelivered_->setPen(pen(t.outcome(Outcome::Returned), 2));
    QPen emptyPen = pen(t.mutedText, 1.5);
    emptyPen.setStyle(Qt::DotLine);
    emptyPolls_->setPen(emptyPen);
    waiting_->setPen(pen(t.waitingColor(), 2.5));
    inFlight_->setPen(pen(t.outcome(Outcome::InFlight), 2.5));
    // Two entries a row: a short chart's side legend must not be taller than
    // the chart, or the window's minimum height grows (1280x720).
    auto legendHtml = [](std::initializer_list<const QLineSeries*> series) -> QString {
        QString html = QStringLiteral("<table cellspacing=1><tr>");
        int column = 0;
        for (const QLineSeries* s : series) {
            if (column++ == 2) {
                html += QStringLiteral("</tr><tr>");
                column = 1;
            }
            html += QStringLiteral("<td style='color:%1'>■</td><td>&nbsp;%2&nbsp;</td>")
                        .arg(s->pen().color().name(), s->name().toHtmlEscaped());
        }
        return html + QStringLiteral("</tr></table>");
    };
    for (QLabel* side : sideLegends_) {
        side->setPalette(legendPalette);
    }

    sideLegends_[Throughput]->setText(legendHtml({sent_, acked_, redelivered_, emptyPolls_}));
    sideLegends_[Depth]->setText(legendHtml({waiting_, inFlight_}));
    latencySet_->setColor(t.outcome(Outcome::InFlight));
    latencySet_->setBorderColor(t.outcome(Outcome::InFlight));
    shownVersion_.fill(~0ULL);
    refresh();
}

void ChartsPanel::refreshMarkers(QChart* chart, std::vector<QLineSeries*>& pool, QValueAxis* x,
                                 QValueAxis* y, double from, double to, double shift) {
    std::size_t used = 0;
    const QColor color = Theme::current().marker;
    for (const auto& [markerAt, text] : model_->markers()) {
        const double at = markerAt - shift;
        if (at < from || at > to) {
            continue;
        }
        if (used == pool.size()) {
            if (pool.size() >= 16) {
                break;
            }
            auto* s = new QLineSeries;
            chart->addSeries(s);
            s->attachAxis(x);
            s->attachAxis(y);
            QPen p(color);
            p.setStyle(Qt::DashLine);
            p.setWidthF(1.5);
            s->setPen(p);
            for (QLegendMarker* m : chart->legend()->markers(s)) {
                m->setVisible(false);
            }
            pool.push_back(s);
        }
        QLineSeries* s = pool[used++];
        s->setName(text);
        s->replace(QList<QPointF>{{at, y->min()}, {at, y->max()}});
        if (!s->isVisible()) {
            s->setVisible(true);
            // Showing a series shows its legend entry again: a marker's text is
            // no series of the chart's legend (#17 item 4).
            for (QLegendMarker* m : chart->legend()->markers(s)) {
                m->setVisible(false);
            }
        }
    }
    for (std::size_t i = used; i < pool.size(); ++i) {
        pool[i]->setVisible(false);
    }
}

void ChartsPanel::setModel(const ChartsModel* model) {
    if (model == model_) {
        return;
    }
    model_ = model;
    shownVersion_.fill(~0ULL);  // another model's versions say nothing about this one
    refresh();
}

void ChartsPanel::setCursorNs(std::optional<std::int64_t> timeNs) {
    cursorNs_ = timeNs;
    fitAxes();
}

std::optional<double> ChartsPanel::cursorLineX() const {
    const QLineSeries* line = cursorLines_[0];
    if (line == nullptr || !line->isVisible() || line->count() == 0) {
        return std::nullopt;
    }
    return line->at(0).x();
}

// A solid line across the chart at the cursor, when it is in the charts' window.
void ChartsPanel::refreshCursorLines(double last) {
    const std::array<QValueAxis*, 2> xs{tpX_, depthX_};
    const std::array<QValueAxis*, 2> ys{tpY_, depthY_};
    // x is the start of a second's bucket: in the newest second (still
    // filling up, x 0 to 1) the line stands at its bucket, 0.
    std::optional<double> x;
    if (cursorNs_ && model_->originNs() != 0) {
        x = std::min(0.0, static_cast<double>(*cursorNs_ - model_->originNs()) / 1e9 - last);
    }
    for (std::size_t i = 0; i < cursorLines_.size(); ++i) {
        QLineSeries*& line = cursorLines_[i];
        if (!x || *x < -span_) {
            if (line != nullptr) {
                line->setVisible(false);
            }
            continue;
        }
        const double at = *x;
        QChart* chart = views_[i]->chart();
        if (line == nullptr) {
            line = new QLineSeries;
            line->setName(QStringLiteral("time cursor"));
            chart->addSeries(line);
            line->attachAxis(xs[i]);
            line->attachAxis(ys[i]);
            line->setPen(QPen(Theme::current().selection, 2));
        }
        line->replace(QList<QPointF>{{at, ys[i]->min()}, {at, ys[i]->max()}});
        line->setVisible(true);
        for (QLegendMarker* m : chart->legend()->markers(line)) {
            m->setVisible(false);  // a line, not a series of the chart
        }
    }
}

void ChartsPanel::refresh() {
    const bool times =
        shownVersion_[Throughput] != model_->version() || shownVersion_[Depth] != model_->version();
    if (times) {
        refreshTimeSeries(true, true);
    }
    if (shownVersion_[Share] != model_->version()) {
        refreshShare();
    }
    if (shownVersion_[Latency] != model_->version()) {
        refreshLatency();
    }
    fitAxes();
}

void ChartsPanel::refreshNext() {
    // The first chart (in turn) the model changed for; at most one per call.
    for (int i = 0; i < ChartCount; ++i) {
        const int chart = nextChart_;
        nextChart_ = (nextChart_ + 1) % ChartCount;
        if (shownVersion_[static_cast<std::size_t>(chart)] != model_->version()) {
            refreshChart(chart);
            fitAxes();
            return;
        }
    }
}

void ChartsPanel::refreshChart(int chart) {
    switch (chart) {
        case Throughput:
            refreshTimeSeries(true, false);
            break;
        case Depth:
            refreshTimeSeries(false, true);
            break;
        case Share:
            refreshShare();
            break;
        case Latency:
            refreshLatency();
            break;
        default:
            break;
    }
}

void ChartsPanel::refreshTimeSeries(bool throughput, bool depth) {
    if (throughput) {
        shownVersion_[Throughput] = model_->version();
    }
    if (depth) {
        shownVersion_[Depth] = model_->version();
    }
    const auto& buckets = model_->buckets();
    QList<QPointF> s, a, r, e, w, f;
    double maxRate = 1, maxDepth = 1;
    const std::int64_t last = buckets.empty() ? 0 : buckets.back().second;
    // Show the run so far, up to the window; a short run fills the chart.
    const std::int64_t origin = buckets.empty() ? 0 : buckets.front().second;
    const std::int64_t first = std::max<std::int64_t>(origin, last - windowSeconds_ + 1);
    qint64 lastWaiting = 0, lastInFlight = 0;
    for (const SecondBucket& b : buckets) {
        if (b.second < first) {
            if (b.waiting >= 0) {
                lastWaiting = b.waiting;
                lastInFlight = b.inFlight;
            }
            continue;
        }
        // x is seconds before the newest bucket, so the axis labels stay put while data scrolls.
        const double x = static_cast<double>(b.second - last);
        // The current second is still filling up; drawing it would dip every frame.
        if (b.second < last || buckets.size() == 1) {
            s << QPointF(x, b.sent);
            a << QPointF(x, b.acked);
            r << QPointF(x, b.redelivered);
            e << QPointF(x, b.emptyPolls);
            maxRate = std::max({maxRate, double(b.sent), double(b.acked), double(b.redelivered),
                                double(b.emptyPolls)});
        }
        if (b.waiting >= 0) {
            lastWaiting = b.waiting;
            lastInFlight = b.inFlight;
        }
        w << QPointF(x, static_cast<double>(lastWaiting));
        f << QPointF(x, static_cast<double>(lastInFlight));
        maxDepth = std::max({maxDepth, double(lastWaiting), double(lastInFlight)});
    }
    span_ = static_cast<double>(std::max<std::int64_t>(10, last - first));
    if (throughput) {
        sent_->replace(s);
        acked_->replace(a);
        redelivered_->replace(r);
        emptyPolls_->replace(e);
        maxRate_ = maxRate;
    }
    if (depth) {
        waiting_->replace(w);
        inFlight_->replace(f);
        maxDepth_ = maxDepth;
    }
}

void ChartsPanel::refreshShare() {
    shownVersion_[Share] = model_->version();
    // Share per worker: one slice per worker, coloured like its lane. Unchanged
    // slices are left alone (each change re-lays out the legend).
    const auto& perWorker = model_->ackedPerWorker();
    qint64 total = 0;
    for (auto v : perWorker) {
        total += v;
    }
    const QList<QPieSlice*> slices = share_->slices();
    int i = 0;
    const Theme& theme = Theme::current();
    // Each slice's new value, set with its signals blocked but for the last one:
    // the series lays every slice out again on each value it hears of, which with
    // 64 workers was 64 layouts of 64 slices per refresh; told once, it lays out once.
    QPieSlice* lastChanged = nullptr;
    double lastValue = 0;
    for (auto it = perWorker.constBegin(); it != perWorker.constEnd(); ++it, ++i) {
        QPieSlice* slice = i < slices.size() ? slices[i] : share_->append(it.key(), 0);
        if (slice->value() != static_cast<double>(it.value())) {
            if (lastChanged != nullptr) {
                const QSignalBlocker quiet(lastChanged);
                lastChanged->setValue(lastValue);
            }
            lastChanged = slice;
            lastValue = static_cast<double>(it.value());
        }
        const int pct = total > 0 ? static_cast<int>(100.0 * it.value() / total + 0.5) : 0;
        const QString label = QStringLiteral("%1  %2%").arg(it.key()).arg(pct);
        if (slice->label() != label) {
            slice->setLabel(label);
        }
        if (slice->color() != theme.workerColor(i)) {
            slice->setColor(theme.workerColor(i));
        }
        if (slice->borderColor() != theme.panel) {
            slice->setBorderColor(theme.panel);
        }
    }
    if (lastChanged != nullptr) {
        lastChanged->setValue(lastValue);  // the series recomputes every slice's share from here
    }
    for (int k = static_cast<int>(slices.size()) - 1; k >= i; --k) {
        share_->remove(slices[k]);
    }
    // The legend's width follows the names it may list, never its figures.
    QStringList names = perWorker.keys();
    if (perWorker.size() > kShareLegendRows) {
        names << othersName(static_cast<int>(perWorker.size()) - (kShareLegendRows - 1));
    }
    shareLegend_->setWidthNames(names);
    shareLegend_->setRows(shareLegendRows(perWorker, total));
}

// One line per worker, coloured like its slice, in the workers' order; with
// more than kShareLegendRows workers the busiest (kShareLegendRows - 1) and
// "N others" with their share.
std::vector<ShareLegend::Row> ChartsPanel::shareLegendRows(const QMap<QString, qint64>& perWorker,
                                                           qint64 total) {
    struct Row {
        QString name;
        qint64 acked = 0;
        int colour = 0;
    };
    std::vector<Row> rows;
    for (auto it = perWorker.constBegin(); it != perWorker.constEnd(); ++it) {
        rows.push_back({it.key(), it.value(), static_cast<int>(rows.size())});
    }
    qint64 othersAcked = 0;
    const int others = static_cast<int>(rows.size()) - (kShareLegendRows - 1);
    if (others > 1) {
        std::stable_sort(rows.begin(), rows.end(),
                         [](const Row& a, const Row& b) { return a.acked > b.acked; });
        for (auto it = rows.begin() + (kShareLegendRows - 1); it != rows.end(); ++it) {
            othersAcked += it->acked;
        }
        rows.resize(kShareLegendRows - 1);
    }
    const auto percent = [total](qint64 n) {
        return total > 0 ? static_cast<int>(100.0 * static_cast<double>(n) / total + 0.5) : 0;
    };
    const Theme& theme = Theme::current();
    std::vector<ShareLegend::Row> lines;
    for (const Row& r : rows) {
        lines.push_back({theme.workerColor(r.colour), r.name, percent(r.acked)});
    }
    if (others > 1) {
        lines.push_back({QColor(), othersName(others), percent(othersAcked)});
    }
    return lines;
}

QString ChartsPanel::shareLegendText() const {
    QString text;
    for (const QPieSlice* slice : share_->slices()) {
        text += slice->label() + QLatin1Char('\n');
    }
    return text;
}

void ChartsPanel::refreshLatency() {
    shownVersion_[Latency] = model_->version();
    const auto& bins = model_->latencyBins();
    double maxBin = 1;
    for (int b = 0; b < ChartsModel::kLatencyBins; ++b) {
        const auto v = static_cast<double>(bins[static_cast<std::size_t>(b)]);
        if (latencySet_->at(b) != v) {
            latencySet_->replace(b, v);
        }
        maxBin = std::max(maxBin, v);
    }
    maxBin_ = maxBin;
}

void ChartsPanel::fitAxes() {
    if (fitting_) {
        return;  // axis changes re-layout the chart, which reports a new plot area
    }
    fitting_ = true;
    // Before the first layout the plot area is empty; estimate from the view size.
    auto plot = [this](int i) {
        const QChartView* v = views_[static_cast<std::size_t>(i)];
        const QRectF r = v->chart()->plotArea();
        return r.isEmpty() ? QRectF(0, 0, v->width() * 0.8, v->height() * 0.5) : r;
    };
    const QFont f = tpY_->labelsFont();
    fitTimeAxis(tpX_, span_, plot(0).width(), f);
    fitTimeAxis(depthX_, span_, plot(1).width(), f);
    fitCountAxis(tpY_, maxRate_, plot(0).height(), f);
    fitCountAxis(depthY_, maxDepth_, plot(1).height(), f);
    fitCountAxis(latencyY_, maxBin_, plot(3).height(), f);
    // Markers span the y range, so they follow it. The x axis is "seconds before now".
    const std::int64_t last = model_->buckets().empty() ? 0 : model_->buckets().back().second;
    refreshMarkers(views_[0]->chart(), tpMarkers_, tpX_, tpY_, -span_, 0,
                   static_cast<double>(last));
    refreshMarkers(views_[1]->chart(), depthMarkers_, depthX_, depthY_, -span_, 0,
                   static_cast<double>(last));
    refreshCursorLines(static_cast<double>(last));
    fitLatencyAxis();
    fitting_ = false;
}

void ChartsPanel::fitLatencyAxis() {
    QRectF r = views_[3]->chart()->plotArea();
    if (r.isEmpty()) {
        r = QRectF(0, 0, views_[3]->width() * 0.8, 1);
    }
    const QFontMetricsF fm(latencyX_->labelsFont());
    double widest = 0;
    for (int i = 0; i < ChartsModel::kLatencyBins - 1; ++i) {
        widest = std::max(widest, fm.horizontalAdvance(ChartsModel::latencyEdgeLabel(i)));
    }
    // Qt elides a label wider than (axis width / labels); name every n-th edge so they fit.
    const double binWidth = r.width() / ChartsModel::kLatencyBins;
    int step = 1;
    while (step < ChartsModel::kLatencyBins - 1 &&
           (binWidth * step < widest + 14 ||
            r.width() / ((ChartsModel::kLatencyBins - 1) / step + 1) < widest + 14)) {
        ++step;
    }
    if (step == latencyLabelStep_) {
        return;
    }
    latencyLabelStep_ = step;
    for (const QString& label : latencyX_->categoriesLabels()) {
        latencyX_->remove(label);
    }
    // Edges counted from the right so the 10 s edge (start of the open bin) is always named.
    QList<int> named;
    for (int edge = ChartsModel::kLatencyBins - 2; edge >= 0; edge -= step) {
        named.prepend(edge);
    }
    for (int edge : named) {
        latencyX_->append(ChartsModel::latencyEdgeLabel(edge), edge + 0.5);
    }
}

bool ChartsPanel::savePng(const QString& path, int which) {
    if (which == Share) {
        return shareBox_->grab().save(path, "PNG");  // the pie with its legend
    }
    if (which == Throughput || which == Depth) {
        return lineBoxes_[static_cast<std::size_t>(which)]->grab().save(path, "PNG");
    }
    if (which >= 0 && which < static_cast<int>(views_.size())) {
        return views_[static_cast<std::size_t>(which)]->grab().save(path, "PNG");
    }
    return grab().save(path, "PNG");
}

}  // namespace qs::ui
