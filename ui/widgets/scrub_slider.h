#pragma once

#include <QSlider>
#include <array>
#include <vector>

#include "run/run_landmarks.h"

// The transport bar's slider over the whole run, with the run's landmarks
// (configuration changes, crashes, dead-letters, redeliveries) drawn as
// coloured ticks above its groove. Values are milliseconds since the run's
// first event. UI thread only.
namespace qs::ui {

struct ScrubMark {
    int value = 0;  // slider value (ms since the run's start)
    Landmark landmark = Landmark::Marker;
};

class ScrubSlider : public QSlider {
    Q_OBJECT
public:
    explicit ScrubSlider(QWidget* parent = nullptr);

    void setMarks(std::vector<ScrubMark> marks);
    void addMark(ScrubMark mark);
    const std::vector<ScrubMark>& marks() const { return marks_; }
    static QColor markColor(Landmark landmark);

    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    // A value's x is offset + QStyle::sliderPositionFromValue(..., span).
    struct ValueToX {
        int offset = 0;
        int span = 0;
    };
    ValueToX valueToX() const;
    void indexMark(const ScrubMark& mark);

    std::vector<ScrubMark> marks_;
    // Per landmark kind, its marks' values in ascending order: a paint looks
    // up one mark per pixel column drawn, not every mark (a run at 100,000
    // events/s adds tens of thousands).
    std::array<std::vector<int>, kLandmarkCount> valuesByKind_;
};

}  // namespace qs::ui
