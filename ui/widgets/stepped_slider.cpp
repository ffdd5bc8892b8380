#include "widgets/stepped_slider.h"

#include <QSignalBlocker>
#include <algorithm>
#include <cmath>

namespace qs::ui {

SteppedSlider::SteppedSlider(std::vector<double> steps, QWidget* parent)
    : QSlider(Qt::Horizontal, parent), steps_(std::move(steps)) {
    if (steps_.empty()) {
        steps_.push_back(0.0);
    }
    setRange(0, static_cast<int>(steps_.size()) - 1);
    setSingleStep(1);
    setPageStep(std::max(1, static_cast<int>(steps_.size()) / 8));
    connect(this, &QSlider::valueChanged, this,
            [this](int position) { Q_EMIT stepValueChanged(steps_[position]); });
}

std::vector<double> SteppedSlider::roundSteps(double min, double max) {
    constexpr double kMantissas[] = {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9};
    std::vector<double> out{min};
    auto add = [&](double v) {
        if (v > min && v < max) {
            out.push_back(v);
        }
    };
    for (double v = 1; v < 10; ++v) {
        add(v);
    }
    for (double decade = 10; decade < max; decade *= 10) {
        for (double m : kMantissas) {
            add(m * decade);
        }
    }
    if (max > min) {
        out.push_back(max);
    }
    return out;
}

std::vector<double> SteppedSlider::linearSteps(double min, double max, double step) {
    std::vector<double> out;
    const auto count = static_cast<long>(std::llround((max - min) / step));
    for (long i = 0; i <= count; ++i) {
        // Rounded to 1e-9 so a step equals its decimal literal (5 * 0.01 is not 0.05).
        const double v = min + static_cast<double>(i) * step;
        out.push_back(i == count ? max : std::round(v * 1e9) / 1e9);
    }
    return out;
}

double SteppedSlider::stepValue() const {
    return steps_[static_cast<std::size_t>(value())];
}

int SteppedSlider::nearestPosition(double v) const {
    const auto above = std::lower_bound(steps_.begin(), steps_.end(), v);
    if (above == steps_.begin()) {
        return 0;
    }
    if (above == steps_.end()) {
        return static_cast<int>(steps_.size()) - 1;
    }
    const auto below = above - 1;
    const auto nearest = (v - *below) <= (*above - v) ? below : above;
    return static_cast<int>(nearest - steps_.begin());
}

void SteppedSlider::showValue(double v) {
    const QSignalBlocker block(this);
    setValue(nearestPosition(v));
}

void SteppedSlider::moveTo(double v) {
    setValue(nearestPosition(v));
}

}  // namespace qs::ui
