#include "widgets/steady_label.h"

#include <QEvent>
#include <QFontMetrics>
#include <algorithm>

namespace qs::ui {

SteadyLabel::SteadyLabel(QWidget* parent) : QLabel(parent) {
    setTextFormat(Qt::PlainText);
    fitTo(0);
}

void SteadyLabel::showText(const QString& text) {
    if (const int needed = widthFor(text); needed > minimumWidth()) {
        widest_ = text;
        fitTo(needed);
    }
    setText(text);
}

void SteadyLabel::reserveRoomFor(const QString& text) {
    if (widthFor(text) > widthFor(widest_)) {
        widest_ = text;
    }
    fitTo(widthFor(widest_));
}

// The text's advance plus what QLabel's own size hint adds around it.
int SteadyLabel::widthFor(const QString& text) const {
    const QMargins m = contentsMargins();
    return fontMetrics().horizontalAdvance(text) + m.left() + m.right() + 2 * margin() +
           std::max(indent(), 0) + 2 * frameWidth();
}

// A fixed size: QWidget::updateGeometry() then asks no layout to recompute.
void SteadyLabel::fitTo(int width) {
    setFixedSize(width, fontMetrics().height() + contentsMargins().top() +
                            contentsMargins().bottom() + 2 * margin());
}

void SteadyLabel::changeEvent(QEvent* event) {
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
        fitTo(std::max(widthFor(widest_), widthFor(text())));
    }
}

}  // namespace qs::ui
