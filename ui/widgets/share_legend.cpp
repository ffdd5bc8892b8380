#include "widgets/share_legend.h"

#include <QEvent>
#include <QFontMetrics>
#include <QPainter>
#include <algorithm>

namespace qs::ui {

namespace {

// The columns as the rich-text table had them: swatch, a space, the name,
// two spaces, the percentage; 1 px between rows; margins 4 / 8 px.
constexpr int kLeftMargin = 4;
constexpr int kRightMargin = 8;
constexpr int kRowGap = 1;

QString swatch() {
    return QStringLiteral("■");
}

QString percentText(int percent) {
    return QStringLiteral("%1%").arg(percent);
}

}  // namespace

ShareLegend::ShareLegend(QWidget* parent) : QWidget(parent) {
    setAutoFillBackground(true);
    setAccessibleName(QStringLiteral("Acked per worker"));
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);
    hint_ = sizeHint();
}

void ShareLegend::setRows(std::vector<Row> rows) {
    if (rows == rows_) {
        return;
    }
    rows_ = std::move(rows);
    setAccessibleDescription(text());  // what a label's text gave a screen reader
    refitIfNeeded();
    update();
}

void ShareLegend::setWidthNames(const QStringList& names) {
    if (names == widthNames_) {
        return;
    }
    widthNames_ = names;
    refitIfNeeded();
    update();
}

QString ShareLegend::text() const {
    QString text;
    for (const Row& r : rows_) {
        text += r.name + QStringLiteral("  ") + percentText(r.percent) + QLatin1Char('\n');
    }
    return text;
}

int ShareLegend::nameColumnWidth() const {
    const QFontMetrics fm(font());
    int widest = 0;
    for (const QString& name : widthNames_) {
        widest = std::max(widest, fm.horizontalAdvance(name));
    }
    for (const Row& r : rows_) {
        widest = std::max(widest, fm.horizontalAdvance(r.name));
    }
    return widest;
}

QSize ShareLegend::sizeHint() const {
    if (rows_.empty()) {
        return {0, 0};
    }
    const QFontMetrics fm(font());
    const int space = fm.horizontalAdvance(QLatin1Char(' '));
    const int width = kLeftMargin + fm.horizontalAdvance(swatch()) + space + nameColumnWidth() +
                      2 * space + fm.horizontalAdvance(percentText(100)) + kRightMargin;
    const int height = static_cast<int>(rows_.size()) * (fm.height() + kRowGap) + kRowGap;
    return {width, height};
}

// A layout pass only when the size it asks for changed: new figures alone
// leave the pie beside it where it is.
void ShareLegend::refitIfNeeded() {
    const QSize hint = sizeHint();
    if (hint != hint_) {
        hint_ = hint;
        updateGeometry();
    }
}

void ShareLegend::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        refitIfNeeded();
    }
}

void ShareLegend::paintEvent(QPaintEvent*) {
    if (rows_.empty()) {
        return;
    }
    QPainter p(this);
    const QFontMetrics fm(font());
    const int space = fm.horizontalAdvance(QLatin1Char(' '));
    const int lineHeight = fm.height() + kRowGap;
    const int swatchWidth = fm.horizontalAdvance(swatch());
    const int nameX = kLeftMargin + swatchWidth + space;
    const int right = width() - kRightMargin;
    // Centred vertically, as the label's AlignVCenter had it.
    int y = (height() - static_cast<int>(rows_.size()) * lineHeight + kRowGap) / 2;
    const QColor text = palette().color(QPalette::WindowText);
    for (const Row& r : rows_) {
        const QRect line(kLeftMargin, y, right - kLeftMargin, fm.height());
        if (r.colour.isValid()) {
            p.setPen(r.colour);
            p.drawText(line, Qt::AlignLeft | Qt::AlignVCenter, swatch());
        }
        p.setPen(text);
        p.drawText(line.adjusted(nameX - kLeftMargin, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                   r.name);
        p.drawText(line, Qt::AlignRight | Qt::AlignVCenter, percentText(r.percent));
        y += lineHeight;
    }
}

}  // namespace qs::ui
