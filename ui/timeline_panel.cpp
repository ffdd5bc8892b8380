#include "timeline_panel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QToolButton>
#include <QVBoxLayout>

#include "theme.h"
#include "timeline_view.h"

namespace qs::ui {

namespace {
struct LegendEntry {
    Outcome outcome;
    const char* text;
};
constexpr LegendEntry kEntries[] = {
    {Outcome::InFlight, "in flight"}, {Outcome::Acked, "acked"},
    {Outcome::Rejected, "rejected"},  {Outcome::Returned, "returned (crash)"},
    {Outcome::Requeued, "re-queued"}, {Outcome::DeadLettered, "dead-lettered"},
};
}  // namespace

LegendWidget::LegendWidget(QWidget* parent) : QWidget(parent) {
    setToolTip(QStringLiteral(
        "Bar colours: in flight = handed to a worker, not yet settled; acked = done;\n"
        "rejected = NAcked back to the queue; returned = its worker crashed, the broker gives it\n"
        "to someone else; re-queued = moved to another channel; dead-lettered = gave up after\n"
        "MaxReceiveCount. Hatched = a poll that waited and got nothing. A dark notch marks a "
        "redelivery."));
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

QSize LegendWidget::sizeHint() const {
    const QFontMetrics fm(font());
    int w = 0;
    for (const auto& e : kEntries) {
        w += fm.horizontalAdvance(QString::fromLatin1(e.text)) + fm.height() + 14;
    }
    w += fm.horizontalAdvance(QStringLiteral("empty poll")) + fm.height() + 14;
    return {w, fm.height() + 4};
}

void LegendWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const Theme& t = Theme::current();
    const QFontMetrics fm(font());
    const int box = fm.height() - 4;
    int x = 0;
    const int y = (height() - box) / 2;
    auto item = [&](const QBrush& brush, const QColor& bg, const QString& text) {
        const QRect r(x, y, box * 2, box);
        p.fillRect(r, bg);
        p.fillRect(r, brush);
        x += box * 2 + 4;
        p.setPen(t.text);
        p.drawText(QRect(x, 0, fm.horizontalAdvance(text) + 2, height()), Qt::AlignVCenter, text);
        x += fm.horizontalAdvance(text) + 10;
    };
    for (const auto& e : kEntries) {
        item(t.outcome(e.outcome), t.outcome(e.outcome), QString::fromLatin1(e.text));
    }
    QColor hatch = t.mutedText;
    hatch.setAlpha(120);
    item(QBrush(hatch, Qt::BDiagPattern), t.waitFill, QStringLiteral("empty poll"));
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
            [this] { view_->setSpanSeconds(span_->currentData().toInt()); });
    connect(save, &QToolButton::clicked, this, &TimelinePanel::savePngInteractive);
}

bool TimelinePanel::savePng(const QString& path) {
    return view_->grab().save(path, "PNG");
}

void TimelinePanel::savePngInteractive() {
    const QString path =
        QFileDialog::getSaveFileName(this, QStringLiteral("Save timeline"),
                                     QStringLiteral("timeline.png"), QStringLiteral("PNG (*.png)"));
    if (!path.isEmpty() && !savePng(path)) {
        QMessageBox::warning(this, QStringLiteral("Save failed"),
                             QStringLiteral("Could not write %1").arg(path));
    }
}

}  // namespace qs::ui
