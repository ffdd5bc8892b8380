#include <QChartView>
#include <QLabel>
#include <QPieSeries>
#include <QPieSlice>
#include <QTest>
#include <string>
#include <vector>

#include "event_factory.h"
#include "models/charts_model.h"
#include "panels/charts_panel.h"
#include "widgets/share_legend.h"

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
    void legendOfManyWorkersStaysShort();
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

// 64 workers: the legend beside the pie lists the 11 busiest and "53 others"
// with their share, so it is no taller than 12 workers' (a legend of every
// worker stretched the window to 1,600 px); 12 workers are all listed. Its
// width follows the names it may list, not the figures: new shares alone
// ask for no new layout (which resized the pie beside it).
void TestChartsPanel::legendOfManyWorkersStaysShort() {
    ChartsModel m;
    ChartsPanel panel(&m);
    auto* legend = panel.findChild<ShareLegend*>(QStringLiteral("shareLegend"));
    QVERIFY(legend != nullptr);
    int t = 0;
    std::vector<int> acks(12, 2);
    ack(m, acks, t);
    panel.refresh();
    QCOMPARE(legend->rows().size(), std::size_t{12});
    QVERIFY(!legend->text().contains(QStringLiteral("others")));
    QVERIFY(legend->rows().front().colour.isValid());
    QCOMPARE(legend->rows().front().percent, 8);  // 2 of 24
    const int twelveHigh = legend->sizeHint().height();

    std::vector<int> many(64, 1);
    many[40] = 100;  // worker-41, the busiest, is listed
    ack(m, many, t);
    panel.refresh();
    const QString text = legend->text();
    QCOMPARE(legend->rows().size(), std::size_t{12});
    QVERIFY2(text.startsWith(QStringLiteral("worker-41  ")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("53 others")), qPrintable(text));
    QVERIFY(!legend->rows().back().colour.isValid());  // "53 others" has no swatch
    QCOMPARE(legend->sizeHint().height(), twelveHigh);
    verifyShares(sharePie(panel), m);

    // Other shares and another ranking: the same size asked for.
    const QSize before = legend->sizeHint();
    std::vector<int> shift(64, 0);
    shift[3] = 400;  // worker-4 overtakes worker-41
    ack(m, shift, t);
    panel.refresh();
    QVERIFY2(legend->text().startsWith(QStringLiteral("worker-4  ")), qPrintable(legend->text()));
    QVERIFY(legend->text() != text);
    QCOMPARE(legend->sizeHint(), before);
    // Every row's name fits beside its swatch and percentage.
    const QFontMetrics fm(legend->font());
    for (const ShareLegend::Row& r : legend->rows()) {
        QVERIFY2(fm.horizontalAdvance(r.name + QStringLiteral("  ■ 100%")) <=
                     legend->sizeHint().width(),
                 qPrintable(r.name));
    }
}

QTEST_MAIN(TestChartsPanel)
#include "tst_charts_panel.moc"
