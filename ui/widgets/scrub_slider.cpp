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

ScrubSlider::ValueToX ScrubSlider::valueToX() const {
    QStyleOptionSlider option;
    initStyleOption(&option);
    const QRect handle =
        style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, this);
    return {handle.width() / 2, width() - handle.width()};
}

// The slider as the style draws it, then a tick per landmark above the
// groove; several on one pixel column show as one (the most severe drawn
// last). A run at 100,000 events/s has tens of thousands of redeliveries:
// the style is asked for the handle once, and each column is drawn once per kind.
void ScrubSlider::paintEvent(QPaintEvent* event) {
    QSlider::paintEvent(event);
    if (marks_.empty() || maximum() <= minimum()) {
        return;
    }
    QPainter p(this);
    const int top = 1;
    const int tick = std::max(6, height() / 3);
    const ValueToX toX = valueToX();
    std::vector<bool> drawn;
    for (const Landmark kind :
         {Landmark::Redelivery, Landmark::Marker, Landmark::DeadLetter, Landmark::Crash}) {
        p.setPen(QPen(markColor(kind), kind == Landmark::Redelivery ? 1 : 2));
        drawn.assign(static_cast<std::size_t>(std::max(0, width())), false);
        for (const ScrubMark& m : marks_) {
            if (m.landmark != kind) {
                continue;
            }
            const int x = toX.offset + QStyle::sliderPositionFromValue(minimum(), maximum(),
                                                                      m.value, toX.span);
            if (x >= 0 && x < static_cast<int>(drawn.size())) {
                if (drawn[static_cast<std::size_t>(x)]) {
                    continue;
                }
                drawn[static_cast<std::size_t>(x)] = true;
            }
            p.drawLine(x, top, x, top + tick);
        }
    }
}

}  // namespace qs::ui
