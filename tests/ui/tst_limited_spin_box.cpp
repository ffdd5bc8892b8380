#include <QLabel>
#include <QLineEdit>
#include <QTest>

#include "widgets/limited_spin_box.h"
#include "workers/setting_limits.h"

using namespace qs;
using namespace qs::ui;

// A number typed outside a setting's limit is neither dropped keystroke by
// keystroke nor clamped: the value stays and the field says the limit.
class TestLimitedSpinBox : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void outOfRangeKeepsTheValueAndSaysTheLimit_data();
    void outOfRangeKeepsTheValueAndSaysTheLimit();
    void aValueInRangeIsTakenAndClearsTheProblem();
    void doubleSpinBoxSaysItsLimitToo();

private:
    // Replaces the text as a user would (select all, type) and presses Enter.
    static void typeInto(QAbstractSpinBox* box, const QString& text) {
        box->setFocus();
        box->selectAll();
        QTest::keyClicks(box, text);
        QTest::keyClick(box, Qt::Key_Return);
    }
};

void TestLimitedSpinBox::outOfRangeKeepsTheValueAndSaysTheLimit_data() {
    QTest::addColumn<QString>("typed");
    QTest::newRow("minus sign") << QStringLiteral("-3");
    QTest::newRow("too many") << QStringLiteral("100000");
    QTest::newRow("beyond any int") << QStringLiteral("99999999999999999999");
}

void TestLimitedSpinBox::outOfRangeKeepsTheValueAndSaysTheLimit() {
    QFETCH(QString, typed);
    QWidget host;
    auto* box = new LimitedSpinBox(workers::limits::kWorkerCount, &host);
    box->setSuffix(QStringLiteral(" workers"));
    box->setValue(5);
    fieldWithProblem(box, box->problemLabel())->setParent(&host);
    host.show();
    QVERIFY(QTest::qWaitForWindowExposed(&host));

    typeInto(box, typed);
    QCOMPARE(box->value(), 5);
    QCOMPARE(box->problem(),
             QStringLiteral("Worker count must be between 0 and 1000 (got %1)").arg(typed));
    QVERIFY(box->problemLabel()->isVisible());
}

void TestLimitedSpinBox::aValueInRangeIsTakenAndClearsTheProblem() {
    QWidget host;
    auto* box = new LimitedSpinBox(workers::limits::kWorkerCount, &host);
    box->setValue(5);
    fieldWithProblem(box, box->problemLabel())->setParent(&host);
    host.show();
    QVERIFY(QTest::qWaitForWindowExposed(&host));

    typeInto(box, QStringLiteral("2000"));
    QVERIFY(!box->problem().isEmpty());
    typeInto(box, QStringLiteral("12"));
    QCOMPARE(box->value(), 12);
    QVERIFY2(box->problem().isEmpty(), qPrintable(box->problem()));
    QVERIFY(!box->problemLabel()->isVisible());
}

void TestLimitedSpinBox::doubleSpinBoxSaysItsLimitToo() {
    QWidget host;
    auto* box = new LimitedDoubleSpinBox(workers::limits::kProducerRate, &host);
    box->setValue(5);
    fieldWithProblem(box, box->problemLabel())->setParent(&host);
    host.show();
    QVERIFY(QTest::qWaitForWindowExposed(&host));

    typeInto(box, QStringLiteral("200000"));
    QCOMPARE(box->value(), 5.0);
    QCOMPARE(box->problem(),
             QStringLiteral("Rate must be between 0 and 100000 tasks/s (got 200000)"));
    typeInto(box, QStringLiteral("-1"));
    QCOMPARE(box->value(), 5.0);
    QVERIFY(box->problem().contains(QStringLiteral("(got -1)")));
}

QTEST_MAIN(TestLimitedSpinBox)
#include "tst_limited_spin_box.moc"
