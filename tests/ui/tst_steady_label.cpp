#include <QApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QTest>
#include <functional>

#include "widgets/steady_label.h"

using namespace qs::ui;

namespace {

// Counts the layout requests a widget receives.
class LayoutRequests : public QObject {
public:
    int count = 0;

protected:
    bool eventFilter(QObject*, QEvent* event) override {
        if (event->type() == QEvent::LayoutRequest)
            ++count;
        return false;
    }
};

}  // namespace

// A label whose text changes every frame must not make the window lay itself
// out again each time (a QLabel does), and must still show all of its text.
class TestSteadyLabel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aLongerTextGrowsTheLabelAShorterOneDoesNotShrinkIt();
    void newTextsOfTheSameWidthAskForNoLayout();
    void aPlainQLabelDoes();
};

void TestSteadyLabel::aLongerTextGrowsTheLabelAShorterOneDoesNotShrinkIt() {
    SteadyLabel label;
    label.showText(QStringLiteral("12 shown of 12 events"));
    const int small = label.width();
    QVERIFY(small >= label.fontMetrics().horizontalAdvance(label.text()));
    label.showText(QStringLiteral("20,000 shown · newest 20,000 of 5,984,163 events"));
    QVERIFY(label.width() > small);
    QVERIFY(label.width() >= label.fontMetrics().horizontalAdvance(label.text()));
    const int wide = label.width();
    label.showText(QStringLiteral("1 shown of 1 events"));
    QCOMPARE(label.width(), wide);
    QCOMPARE(label.minimumWidth(), label.maximumWidth());  // fixed: no relayout on a change

    SteadyLabel reserved;
    reserved.reserveRoomFor(QStringLiteral("0000.000 s / 0000.000 s"));
    const int room = reserved.width();
    reserved.showText(QStringLiteral("1.000 s / 2.000 s"));
    QCOMPARE(reserved.width(), room);
}

// Shows `label` alone in a window, then 30 frames of a live counter's texts
// through `show`: the layout requests the window received meanwhile.
static int layoutRequestsOverFrames(QLabel* label, const std::function<void(const QString&)>& show) {
    QWidget window;
    auto* layout = new QHBoxLayout(&window);
    label->setParent(&window);
    layout->addWidget(label);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return -1;
    QApplication::processEvents();
    LayoutRequests requests;
    window.installEventFilter(&requests);
    for (int frame = 1; frame <= 30; ++frame) {
        show(QStringLiteral("%1.000 s / %1.000 s").arg(frame));
        QApplication::processEvents();
    }
    window.removeEventFilter(&requests);
    label->setParent(nullptr);  // the caller's again
    return requests.count;
}

// The texts of a live counter, shown as frames go by: the window hosting
// the label is asked for no new layout.
void TestSteadyLabel::newTextsOfTheSameWidthAskForNoLayout() {
    SteadyLabel label;
    label.reserveRoomFor(QStringLiteral("0000.000 s / 0000.000 s"));
    QCOMPARE(layoutRequestsOverFrames(&label, [&](const QString& t) { label.showText(t); }), 0);
    QCOMPARE(label.text(), QStringLiteral("30.000 s / 30.000 s"));
}

// What the test above rules out, shown to happen: without it, the check
// above could pass for a window that never asks for layouts at all.
void TestSteadyLabel::aPlainQLabelDoes() {
    QLabel label;
    QVERIFY(layoutRequestsOverFrames(&label, [&](const QString& t) { label.setText(t); }) > 0);
}

QTEST_MAIN(TestSteadyLabel)
#include "tst_steady_label.moc"
