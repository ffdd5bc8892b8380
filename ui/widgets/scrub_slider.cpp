#include "widgets/scrub_slider.h"

#include <QPainter>
#include <QStyle>
#include <QStyleOptionSlider>
#include <algorithm>

#include "widgets/theme.h"

namespace qs::ui {

ScrubSlider::ScrubSlider(QWidget* parent) : QSlider(Qt::Horizontal, parent) {
    setObjectName(QStringLiteral("scrubSlider"));
    setRange(0, 0);
    setTracking(true);
    setAccessibleName(QStringLiteral("Time cursor"));
}

void ScrubSlider::setMarks(std::vector<ScrubMark> marks) {
    marks_ = std::move(marks);
    update();
}

QColor ScrubSlider::markColor(Landmark landmark) {
    const Theme& t = Theme::current();
    switch (landmark) {
        case Landmark::Redelivery:
            return t.outcome(Outcome::Rejected);
        case Landmark::DeadLetter:
            return t.outcome(Outcome::DeadLettered);
        case Landmark::Crash:
            return t.outcome(Outcome::Returned);
        case Landmark::Marker:
            return t.marker;
    }
    return t.mutedText;
}

QSize ScrubSlider::sizeHint() const {
    const QSize base = QSlider::sizeHint();
    return {base.width(), base.height() + 10};  // room for the ticks above the groove
}

int ScrubSlider::xOfValue(int value) const {
    QStyleOptionSlider option;
    initStyleOption(&option);
    const QRect handle =
        style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, this);
    const int span = width() - handle.width();
    return handle.width() / 2 +
           QStyle::sliderPositionFromValue(minimum(), maximum(), value, span);
}

// The slider as the style draws it, then a tick per landmark above the
// groove; several on one pixel column show as one (the most severe drawn last).
void ScrubSlider::paintEvent(QPaintEvent* event) {
    QSlider::paintEvent(event);
    if (marks_.empty() || maximum() <= minimum()) {
        return;
    }
    QPainter p(this);
    const int top = 1;
    const int tick = std::max(6, height() / 3);
    for (const Landmark kind :
         {Landmark::Redelivery, Landmark::Marker, Landmark::DeadLetter, Landmark::Crash}) {
        p.setPen(QPen(markColor(kind), kind == Landmark::Redelivery ? 1 : 2));
        int lastX = -1;
        for (const ScrubMark& m : marks_) {
            const int x = xOfValue(m.value);
            if (m.landmark == kind && x != lastX) {
                p.drawLine(x, top, x, top + tick);
                lastX = x;
            }
        }
    }
}

}  // namespace qs::ui
