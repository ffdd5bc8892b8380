#pragma once

#include <QSlider>
#include <vector>

// A horizontal slider over a list of values instead of a linear range, so one
// slider spans a wide range (a batch of 1..1024, a wait of 0..3600 s) with fine
// steps where values are small: 1, 2, ... 10, 12, 15, 20, 25, 30, 40 ... 1024.
// Its positions are indexes into the list; stepValue() is the value at the
// handle. A value between two steps is shown at the nearest one: the caller
// keeps the exact value (and its label shows that), the slider only moves it
// when the user does. UI thread only.
namespace qs::ui {

class SteppedSlider : public QSlider {
    Q_OBJECT
public:
    // `steps` ascending, at least one.
    explicit SteppedSlider(std::vector<double> steps, QWidget* parent = nullptr);

    // min, every whole number up to 10, then 12, 15, 20, 25, 30, 40 ... 90 in
    // each decade, and max: the steps of a wide range.
    static std::vector<double> roundSteps(double min, double max);
    // min, min + step, ... max.
    static std::vector<double> linearSteps(double min, double max, double step);

    const std::vector<double>& steps() const { return steps_; }
    double stepValue() const;
    // The handle to the step nearest `value`, without signals.
    void showValue(double value);
    // As the user would: the handle to the step nearest `value`; emits
    // stepValueChanged() when that moves it.
    void moveTo(double value);

Q_SIGNALS:
    // The handle moved (by the user, or by moveTo()); `value` is its step.
    void stepValueChanged(double value);

private:
    int nearestPosition(double value) const;

    std::vector<double> steps_;
};

}  // namespace qs::ui
