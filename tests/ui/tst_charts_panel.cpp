#include <QChartView>
#include <QPieSeries>
#include <QPieSlice>
#include <QTest>
#include <string>
#include <vector>

#include "event_factory.h"
#include "models/charts_model.h"
#include "panels/charts_panel.h"

using namespace qs;
using namespace qs::ui;
using qs::ui::test::ev;

// The share pie (ChartsPanel): one slice per worker whose share of the pie is
// its share of the acks. The panel sets most slices' new values with their
// signals blocked and tells the series once (64 workers made it lay out 64
// slices 64 times per refresh), so every slice's share must still be its
// own after each refresh, the untold ones included.
class TestChartsPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sharePieMatchesAcksOfManyWorkers();
};

static QPieSeries* sharePie(const ChartsPanel& panel) {
    for (const QChartView* view : panel.findChildren<QChartView*>()) {
        for (QAbstractSeries* s : view->chart()->series()) {
            if (auto* pie = qobject_cast<QPieSeries*>(s)) {
                return pie;
            }
        }
    }
    return nullptr;
}

// `acks[w]` acks by worker-(w+1).
static void ack(ChartsModel& m, const std::vector<int>& acks, int& t) {
    for (std::size_t w = 0; w < acks.size(); ++w) {
        for (int i = 0; i < acks[w]; ++i) {
            m.applyEvent(ev(EventKind::Acked, ++t, "worker-" + std::to_string(w + 1)));
        }
    }
}

static void verifyShares(QPieSeries* pie, const ChartsModel& m) {
    qint64 total = 0;
    for (const qint64 n : m.ackedPerWorker()) {
        total += n;
    }
    const QList<QPieSlice*> slices = pie->slices();
    QCOMPARE(slices.size(), m.ackedPerWorker().size());
    double spans = 0;
    int i = 0;
    for (auto it = m.ackedPerWorker().constBegin(); it != m.ackedPerWorker().constEnd(); ++it, ++i) {
        const QPieSlice* slice = slices[i];
        QVERIFY(slice->label().startsWith(it.key()));
        QCOMPARE(slice->value(), static_cast<double>(it.value()));
        const double share = static_cast<double>(it.value()) / static_cast<double>(total);
        QVERIFY2(qAbs(slice->percentage() - share) < 1e-9, qPrintable(it.key()));
        QVERIFY2(qAbs(slice->angleSpan() - 360.0 * share) < 1e-6, qPrintable(it.key()));
        spans += slice->angleSpan();
    }
    QVERIFY(qAbs(spans - 360.0) < 1e-6);
}

void TestChartsPanel::sharePieMatchesAcksOfManyWorkers() {
    ChartsModel m;
    ChartsPanel panel(&m);
    QPieSeries* pie = sharePie(panel);
    QVERIFY(pie != nullptr);
    int t = 0;
    std::vector<int> acks(64);
    for (std::size_t w = 0; w < acks.size(); ++w) {
        acks[w] = 1 + static_cast<int>(w % 7);
    }
    ack(m, acks, t);
    panel.refresh();
    verifyShares(pie, m);

    // Many workers' counts change at once, one (the last) not at all.
    std::vector<int> more(63);
    for (std::size_t w = 0; w < more.size(); ++w) {
        more[w] = static_cast<int>((w * 5) % 11);
    }
    ack(m, more, t);
    panel.refresh();
    verifyShares(pie, m);

    // Only the first worker's count changes: the one slice told is also the last changed.
    ack(m, {3}, t);
    panel.refresh();
    verifyShares(pie, m);
}

QTEST_MAIN(TestChartsPanel)
#include "tst_charts_panel.moc"
