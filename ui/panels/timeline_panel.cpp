#include "panels/timeline_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <iterator>
#include <vector>

#include "controllers/save_location.h"
#include "widgets/theme.h"
#include "widgets/timeline_view.h"

namespace qs::ui {

namespace {
struct LegendEntry {
    Outcome outcome;
    bool emptyPoll;  // the hatched "waited, got nothing" pattern, not an outcome colour
    const char* text;
    const char* tip;
};
constexpr LegendEntry kEntries[] = {
    {Outcome::InFlight, false, "in flight", "Handed to a worker, not yet settled."},
    {Outcome::Acked, false, "acked", "The worker acknowledged it: done."},
    {Outcome::Rejected, false, "rejected",
     "NAcked: back to the queue as a new copy (receive count + 1)."},
    {Outcome::Returned, false, "returned (crash)",
     "Its worker crashed before settling it:\n"
     "the broker gives the same copy to another worker."},
    {Outcome::ReturnedClosed, false, "returned (closed)",
     "Its worker stopped or closed its client without settling it (nothing crashed):\n"
     "the broker gives the same copy to another worker."},
    {Outcome::Requeued, false, "re-queued", "Moved to another channel."},
    {Outcome::DeadLettered, false, "dead-lettered",
     "Gave up after MaxReceiveCount: moved to the dead-letter channel\n"
     "(or dropped when the task has none)."},
    {Outcome::InFlight, true, "empty poll",
     "A poll that waited its whole wait timeout and got nothing."},
};
constexpr int kZoomedRole = Qt::UserRole + 1;  // a span box entry made for a zoomed span
constexpr int kEntryCount = static_cast<int>(std::size(kEntries));
constexpr int kSwatchGap = 4;   // swatch to text
constexpr int kColumnGap = 10;  // between entries on a row

int swatchHeight(const QFontMetrics& fm) {
    return fm.height() - 4;
}
int rowHeight(const QFontMetrics& fm) {
    return fm.height() + 4;
}
int entryWidth(const QFontMetrics& fm, const LegendEntry& e) {
    return swatchHeight(fm) * 2 + kSwatchGap + fm.horizontalAdvance(QString::fromLatin1(e.text));
}
// Entries fill rows left to right; with `rows` rows every column is as wide
// as its widest entry, so the rows line up.
std::vector<int> columnWidths(const QFontMetrics& fm, int rows) {
    const int columns = (kEntryCount + rows - 1) / rows;
    std::vector<int> widths(static_cast<std::size_t>(columns), 0);
    for (int i = 0; i < kEntryCount; ++i) {
        auto& w = widths[static_cast<std::size_t>(i % columns)];
        w = std::max(w, entryWidth(fm, kEntries[i]));
    }
    return widths;
}
int totalWidth(const std::vector<int>& widths) {
    int w = 0;
    for (int c : widths) {
        w += c;
    }
    return w + kColumnGap * (static_cast<int>(widths.size()) - 1);
}
}  // namespace

LegendWidget::LegendWidget(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("timelineLegend"));
    setToolTip(QStringLiteral(
        "Bar colours: in flight = handed to a worker, not yet settled; acked = done;\n"
        "rejected = NAcked back to the queue; returned = its worker crashed (or, closed, stopped\n"
        "without settling it), the broker gives it to someone else; re-queued = moved to another "
        "channel; dead-lettered = gave up after\n"
        "MaxReceiveCount. Hatched = a poll that waited and got nothing. A dark notch marks a "
        "redelivery."));
    // Not Fixed vertically: that would cap the height at one row (sizeHint).
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

int LegendWidget::rowsFor(int width) const {
    const QFontMetrics fm(font());
    for (int rows = 1; rows < kEntryCount; ++rows) {
        if (totalWidth(columnWidths(fm, rows)) <= width) {
            return rows;
        }
    }
    return kEntryCount;
}

QList<LegendWidget::Entry> LegendWidget::entries(int width) const {
    const QFontMetrics fm(font());
    const int rows = rowsFor(width);
    const std::vector<int> widths = columnWidths(fm, rows);
    const int columns = static_cast<int>(widths.size());
    const int box = swatchHeight(fm);
    const int rowH = rowHeight(fm);
    QList<Entry> out;
    out.reserve(kEntryCount);
    int x = 0;
    for (int i = 0; i < kEntryCount; ++i) {
        const int column = i % columns;
        if (column == 0) {
            x = 0;
        }
        const int y = (i / columns) * rowH;
        const QString text = QString::fromLatin1(kEntries[i].text);
        Entry e;
        e.text = text;
        e.swatch = QRect(x, y + (rowH - box) / 2, box * 2, box);
        e.label = QRect(x + box * 2 + kSwatchGap, y, fm.horizontalAdvance(text), rowH);
        out.append(e);
        x += widths[static_cast<std::size_t>(column)] + kColumnGap;
    }
    return out;
}

QSize LegendWidget::sizeHint() const {
    const QFontMetrics fm(font());
    return {totalWidth(columnWidths(fm, 1)), rowHeight(fm)};
}

QSize LegendWidget::minimumSizeHint() const {
    const QFontMetrics fm(font());
    return {totalWidth(columnWidths(fm, kEntryCount)), rowHeight(fm)};
}

int LegendWidget::heightForWidth(int width) const {
    return rowsFor(width) * rowHeight(QFontMetrics(font()));
}

bool LegendWidget::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const QList<Entry> placed = entries(width());
        for (int i = 0; i < placed.size(); ++i) {
            if (placed[i].swatch.united(placed[i].label).contains(help->pos())) {
                QToolTip::showText(help->globalPos(), QString::fromLatin1(kEntries[i].tip), this);
                return true;
            }
        }
    }
    return QWidget::event(event);
}

void LegendWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const Theme& t = Theme::current();
    QColor hatch = t.mutedText;
    hatch.setAlpha(120);
    const QList<Entry> placed = entries(width());
    for (int i = 0; i < placed.size(); ++i) {
        const LegendEntry& e = kEntries[i];
        if (e.emptyPoll) {
            p.fillRect(placed[i].swatch, t.waitFill);
            p.fillRect(placed[i].swatch, QBrush(hatch, Qt::BDiagPattern));
        } else {
            p.fillRect(placed[i].swatch, t.outcome(e.outcome));
        }
        p.setPen(t.text);
        p.drawText(placed[i].label.adjusted(0, 0, 2, 0), Qt::AlignVCenter, placed[i].text);
    }
}

TimelinePanel::TimelinePanel(const TimelineModel* model, QWidget* parent)
    : QWidget(parent),
      view_(new TimelineView(this)),
      live_(new QToolButton(this)),
      span_(new QComboBox(this)) {
    view_->setModel(model);
    auto* title = new QLabel(QStringLiteral("Assignment timeline"), this);
    QFont f = title->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    title->setFont(f);
    title->setToolTip(view_->toolTip());

    live_->setText(QStringLiteral("Pause"));
    live_->setCheckable(true);
    live_->setToolTip(
        QStringLiteral("Freeze the timeline to look back (Space). Drag or scroll to scrub;\n"
                       "the run keeps going in the background."));
    for (int s : {5, 10, 20, 30, 60, 120, 300}) {
        span_->addItem(
            s < 60 ? QStringLiteral("%1 s").arg(s) : QStringLiteral("%1 min").arg(s / 60), s);
    }
    span_->setCurrentIndex(2);
    span_->setAccessibleName(QStringLiteral("Timeline span"));
    span_->setToolTip(
        QStringLiteral("How much time the timeline shows (Ctrl+wheel on the timeline zooms too)."));
    auto* save = new QToolButton(this);
    save->setText(QStringLiteral("Save PNG…"));
    save->setToolTip(QStringLiteral("Save the timeline as it is shown now as a PNG image."));

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 2, 6, 2);
    bar->addWidget(title);
    bar->addStretch(1);
    bar->addWidget(span_);
    bar->addWidget(live_);
    bar->addWidget(save);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    auto* legendRow = new QHBoxLayout;
    legendRow->setContentsMargins(8, 0, 6, 0);
    legendRow->addWidget(new LegendWidget(this), 1);
    layout->addLayout(legendRow);
    layout->addWidget(view_, 1);

    connect(live_, &QToolButton::toggled, this, [this](bool paused) { view_->setLive(!paused); });
    connect(view_, &TimelineView::liveChanged, this, [this](bool live) {
        const QSignalBlocker block(live_);
        live_->setChecked(!live);
        live_->setText(live ? QStringLiteral("Pause") : QStringLiteral("Live"));
    });
    connect(span_, &QComboBox::currentIndexChanged, this,
            [this] { view_->setSpanSeconds(span_->currentData().toDouble()); });
    // The box says the span the timeline uses, also a restored or zoomed one.
    connect(view_, &TimelineView::spanChanged, this, &TimelinePanel::showSpan);
    connect(save, &QToolButton::clicked, this, &TimelinePanel::savePngInteractive);
}

void TimelinePanel::showSpan(double seconds) {
    const QSignalBlocker block(span_);
    for (int i = span_->count() - 1; i >= 0; --i) {
        if (span_->itemData(i, kZoomedRole).toBool()) {
            span_->removeItem(i);  // the last zoom's entry
        }
    }
    for (int i = 0; i < span_->count(); ++i) {
        if (std::abs(span_->itemData(i).toDouble() - seconds) < 0.05) {
            span_->setCurrentIndex(i);
            return;
        }
    }
    // "9 s", "2.5 s", "1.5 min": as few digits as say the span.
    const QString text =
        seconds < 60
            ? QStringLiteral("%1 s").arg(QString::number(seconds, 'g', seconds < 10 ? 2 : 3))
            : QStringLiteral("%1 min").arg(QString::number(seconds / 60, 'g', 2));
    span_->addItem(text, seconds);
    span_->setItemData(span_->count() - 1, true, kZoomedRole);
    span_->setCurrentIndex(span_->count() - 1);
}

double TimelinePanel::shownSpanSeconds() const {
    return span_->currentData().toDouble();
}

bool TimelinePanel::savePng(const QString& path) {
    return view_->grab().save(path, "PNG");
}

void TimelinePanel::savePngInteractive() {
    const QString path = askSavePath(this, QStringLiteral("Save timeline"),
                                     QStringLiteral("timeline.png"), QStringLiteral("PNG (*.png)"));
    if (path.isEmpty()) {
        return;
    }
    if (!savePng(path)) {
        QMessageBox::warning(this, QStringLiteral("Save failed"),
                             QStringLiteral("Could not write %1").arg(path));
        return;
    }
    Q_EMIT statusMessage(QStringLiteral("Saved the timeline to %1").arg(path));
}

}  // namespace qs::ui
