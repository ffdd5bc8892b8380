#include <QLabel>
#include <QTest>

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
    // The pool dock's card area at 1280x720 (the narrowest the console lays out).
    constexpr int kDockWidth = 410;
    QVERIFY2(card.minimumSizeHint().width() <= kDockWidth,
             qPrintable(QString::number(card.minimumSizeHint().width())));
    card.resize(kDockWidth, card.sizeHint().height());
    card.show();
    QVERIFY(QTest::qWaitForWindowExposed(&card));
    const auto* counters = card.findChild<QLabel*>(QStringLiteral("workerCounters"));
    QVERIFY(counters);
    QVERIFY(counters->text().contains(QStringLiteral("123456")));
    const int needed = counters->fontMetrics().horizontalAdvance(counters->text());
    QVERIFY2(needed <= counters->contentsRect().width(),
             qPrintable(QStringLiteral("counters need %1 px, have %2")
                            .arg(needed)
                            .arg(counters->contentsRect().width())));
    QCOMPARE(test::notInView(counters, &card), QString());
}

QTEST_MAIN(TestWorkerCard)
#include "tst_worker_card.moc"
