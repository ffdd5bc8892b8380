#include <QImage>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QTest>
#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "widgets/scrub_slider.h"

using namespace qs;
using namespace qs::ui;

namespace {

// The slider with its style's handle geometry in reach: where the paint puts
// a value's tick.
class OpenSlider : public ScrubSlider {
public:
    int xOf(int value) const {
        QStyleOptionSlider option;
        initStyleOption(&option);
        const QRect handle = style()->subControlRect(QStyle::CC_Slider, &option,
                                                     QStyle::SC_SliderHandle, this);
        return handle.width() / 2 + QStyle::sliderPositionFromValue(
                                        minimum(), maximum(), value, width() - handle.width());
    }
};

// The columns of `image`'s row `y` painted in `colour`.
std::set<int> columnsIn(const QImage& image, int y, QColor colour) {
    std::set<int> columns;
    for (int x = 0; x < image.width(); ++x) {
        if (image.pixelColor(x, y) == colour)
            columns.insert(x);
    }
    return columns;
}

}  // namespace

// The slider's landmark ticks: one per pixel column holding marks of a kind,
// found by a search of that kind's values (a live run adds tens of thousands
// of redeliveries; a paint once walked them all).
class TestScrubSlider : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyColumnWithAMarkHasItsTick();
    void aMarkOutOfOrderIsDrawnToo();
    void setMarksReplacesTheMarks();
};

void TestScrubSlider::everyColumnWithAMarkHasItsTick() {
    OpenSlider slider;
    slider.resize(400, slider.sizeHint().height());
    slider.setRange(0, 60'000);
    std::mt19937 rng(7);
    std::vector<int> values;
    for (int i = 0; i < 20'000; ++i)
        values.push_back(static_cast<int>(rng() % 30'000));  // the first half only
    std::sort(values.begin(), values.end());
    std::set<int> want;
    for (const int v : values) {
        slider.addMark({v, Landmark::Redelivery});
        want.insert(slider.xOf(v));
    }
    const QImage image = slider.grab().toImage();
    const QColor colour = ScrubSlider::markColor(Landmark::Redelivery);
    QCOMPARE(columnsIn(image, 2, colour), want);
    QVERIFY(want.size() > 100);  // marks share columns, and many columns have one
}

void TestScrubSlider::aMarkOutOfOrderIsDrawnToo() {
    OpenSlider slider;
    slider.resize(400, slider.sizeHint().height());
    slider.setRange(0, 10'000);
    slider.addMark({9'000, Landmark::Redelivery});
    slider.addMark({1'000, Landmark::Redelivery});  // earlier than the one before
    const QImage image = slider.grab().toImage();
    const std::set<int> want{slider.xOf(1'000), slider.xOf(9'000)};
    QCOMPARE(columnsIn(image, 2, ScrubSlider::markColor(Landmark::Redelivery)), want);
}

void TestScrubSlider::setMarksReplacesTheMarks() {
    OpenSlider slider;
    slider.resize(400, slider.sizeHint().height());
    slider.setRange(0, 10'000);
    slider.addMark({2'000, Landmark::Redelivery});
    slider.setMarks({{5'000, Landmark::Redelivery}, {7'000, Landmark::Redelivery}});
    QCOMPARE(slider.marks().size(), std::size_t{2});
    const QImage image = slider.grab().toImage();
    const std::set<int> want{slider.xOf(5'000), slider.xOf(7'000)};
    QCOMPARE(columnsIn(image, 2, ScrubSlider::markColor(Landmark::Redelivery)), want);
}

QTEST_MAIN(TestScrubSlider)
#include "tst_scrub_slider.moc"
