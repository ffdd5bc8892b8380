#include <QLabel>
#include <QTest>
#include <QToolButton>

#include "layout_checks.h"
#include "widgets/worker_card.h"

using namespace qs;
using namespace qs::ui;

// A worker card fits the worker pool dock with six-digit counters: it once
// grew past the dock (and a horizontal scroll bar) at five digits.
class TestWorkerCard : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void bigCountersFitTheDock();
    void compactPutsTheButtonsOnARowOfTheirOwn();
};

void TestWorkerCard::bigCountersFitTheDock() {
    WorkerCard card(QStringLiteral("worker-12"));
    workers::WorkerSnapshot s;
    s.id = "worker-12";
    s.state = workers::WorkerState::Processing;
    s.counters.received = 123456;
    s.counters.acked = 123456;
    s.counters.rejected = 12345;
    s.counters.redelivered = 12345;
    card.setSnapshot(s);
    // The pool dock's card area (about 300 px at every window size: the
    // worker pool panel makes its cards compact there).
    constexpr int kDockWidth = 294;
    QVERIFY(card.oneRowWidth() > kDockWidth);
    card.setCompact(true);
    QVERIFY2(card.minimumSizeHint().width() <= kDockWidth,
             qPrintable(QString::number(card.minimumSizeHint().width())));
    // As the pool's layout of cards lays it out: the height its width needs.
    card.resize(kDockWidth, std::max(card.sizeHint().height(), card.heightForWidth(kDockWidth)));
    card.show();
    QVERIFY(QTest::qWaitForWindowExposed(&card));
    const auto* counters = card.findChild<QLabel*>(QStringLiteral("workerCounters"));
    QVERIFY(counters);
    QVERIFY(counters->text().contains(QStringLiteral("123456")));
    QVERIFY(counters->wordWrap());  // compact: the counts wrap rather than widen the card
    const int needed = counters->heightForWidth(counters->width());
    QVERIFY2(needed <= counters->height(),
             qPrintable(QStringLiteral("counters need %1 px high, have %2")
                            .arg(needed)
                            .arg(counters->height())));
    QCOMPARE(test::notInView(counters, &card), QString());
    for (const QToolButton* b : card.findChildren<QToolButton*>()) {
        QCOMPARE(test::notInView(b, &card), QString());
    }
}

// Compact and back: the buttons leave the name's row and return to it.
void TestWorkerCard::compactPutsTheButtonsOnARowOfTheirOwn() {
    WorkerCard card(QStringLiteral("worker-1"));
    card.resize(card.oneRowWidth() + 20, card.sizeHint().height());
    card.show();
    QVERIFY(QTest::qWaitForWindowExposed(&card));
    const auto* crash = card.findChildren<QToolButton*>().at(2);
    QCOMPARE(crash->text(), QStringLiteral("Crash"));
    const int oneRowHeight = card.minimumSizeHint().height();
    const int nameRow = crash->geometry().center().y();
    card.setCompact(true);
    QVERIFY(card.isCompact());
    QTRY_VERIFY(crash->geometry().center().y() > nameRow + crash->height() / 2);
    QVERIFY(card.minimumSizeHint().height() > oneRowHeight);
    QVERIFY(card.minimumSizeHint().width() < card.oneRowWidth());
    card.setCompact(false);
    QTRY_COMPARE(crash->geometry().center().y(), nameRow);
    QCOMPARE(card.minimumSizeHint().height(), oneRowHeight);
}

QTEST_MAIN(TestWorkerCard)
#include "tst_worker_card.moc"
