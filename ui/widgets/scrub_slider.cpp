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
    for (std::vector<int>& values : valuesByKind_) {
        values.clear();
    }
    for (const ScrubMark& m : marks_) {
        indexMark(m);
    }
    update();
}

void ScrubSlider::addMark(ScrubMark mark) {
    marks_.push_back(mark);
    indexMark(mark);
    update();
}

// Marks come in time order; one that does not is put in its place.
void ScrubSlider::indexMark(const ScrubMark& mark) {
    std::vector<int>& values = valuesByKind_[static_cast<std::size_t>(mark.landmark)];
    if (values.empty() || values.back() <= mark.value) {
        values.push_back(mark.value);
    } else {
        values.insert(std::upper_bound(values.begin(), values.end(), mark.value), mark.value);
    }
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
// the style is asked for the handle once, and each column is drawn once per
// kind, found by a search of that kind's values.
void ScrubSlider::paintEvent(QPaintEvent* event) {
    QSlider::paintEvent(event);
    if (marks_.empty() || maximum() <= minimum()) {
        return;
    }
    QPainter p(this);
    const int top = 1;
    const int tick = std::max(6, height() / 3);
    const ValueToX toX = valueToX();
    const auto xOf = [&](int value) {
        return toX.offset +
               QStyle::sliderPositionFromValue(minimum(), maximum(), value, toX.span);
    };
    std::vector<QLine> lines;
    for (const Landmark kind :
         {Landmark::Redelivery, Landmark::Marker, Landmark::DeadLetter, Landmark::Crash}) {
        const std::vector<int>& values = valuesByKind_[static_cast<std::size_t>(kind)];
        // A column's first mark, then a search past the others on that column
        // (x grows with the value); the kind's ticks drawn in one call.
        lines.clear();
        for (auto it = values.begin(); it != values.end();) {
            const int x = xOf(*it);
            lines.emplace_back(x, top, x, top + tick);
            it = std::partition_point(it, values.end(), [&](int v) { return xOf(v) <= x; });
        }
        p.setPen(QPen(markColor(kind), kind == Landmark::Redelivery ? 1 : 2));
        p.drawLines(lines.data(), static_cast<int>(lines.size()));
    }
}

}  // namespace qs::ui
