// The timeline's painted text (#17 item 4): axis labels and marker labels
// never overlap each other or the LIVE badge and all lie inside the view, at
// the widths the console has at 1280x720 and up, with many markers close
// together (scenario 06 stamps one per change).
#include <QTest>

#include "event_factory.h"
#include "models/timeline_model.h"
#include "widgets/timeline_labels.h"
#include "widgets/timeline_view.h"

using namespace qs;
using namespace qs::ui;
using qs::ui::test::ev;

namespace {
// "a and b overlap" with their texts, for the failure message.
QString overlapOf(const std::vector<PlacedLabel>& labels) {
    for (std::size_t i = 0; i < labels.size(); ++i) {
        for (std::size_t j = i + 1; j < labels.size(); ++j) {
            if (labels[i].rect.intersects(labels[j].rect)) {
                return labels[i].text + QStringLiteral(" overlaps ") + labels[j].text;
            }
        }
    }
    return {};
}
QString outside(const std::vector<PlacedLabel>& labels, const QRectF& bounds) {
    for (const PlacedLabel& l : labels) {
        if (!bounds.contains(l.rect)) {
            return l.text;
        }
    }
    return {};
}
}  // namespace

class TestTimelineLabels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void axisLabelsNeverTouch_data();
    void axisLabelsNeverTouch();
    void markerLabelsTakeRowsThenThinOut();
    void viewAtConsoleSizes_data();
    void viewAtConsoleSizes();
};

void TestTimelineLabels::axisLabelsNeverTouch_data() {
    QTest::addColumn<double>("width");
    QTest::addColumn<double>("spanSeconds");
    for (const double width : {150.0, 300.0, 520.0, 900.0, 1500.0}) {
        for (const double span : {1.0, 5.0, 20.0, 60.0, 300.0}) {
            QTest::addRow("%g px, %g s", width, span) << width << span;
        }
    }
}

void TestTimelineLabels::axisLabelsNeverTouch() {
    QFETCH(double, width);
    QFETCH(double, spanSeconds);
    const QFontMetricsF fm(QFont{});
    AxisRequest r;
    r.t1 = 5'000'000'000'000LL + 123'456'789;
    r.t0 = r.t1 - static_cast<std::int64_t>(spanSeconds * 1e9);
    r.left = 100;
    r.right = 100 + width;
    r.labelRight = r.right - 60;  // a badge at the right
    const AxisLayout axis = layoutTimeAxis(r, fm);
    QVERIFY(!axis.ticks.empty());
    QVERIFY2(axis.ticks.size() <= 9, qPrintable(QString::number(axis.ticks.size())));
    QVERIFY2(overlapOf(axis.labels).isEmpty(), qPrintable(overlapOf(axis.labels)));
    for (const PlacedLabel& l : axis.labels) {
        QVERIFY(l.rect.left() > r.left && l.rect.right() < r.labelRight);
        QCOMPARE(l.text, l.fullText);
    }
    // Wide enough for labels: the axis says something.
    if (width >= 300) {
        QVERIFY2(!axis.labels.empty(), "no axis label");
    }
    if (width >= 900) {
        QVERIFY2(axis.labels.size() >= 3, qPrintable(QString::number(axis.labels.size())));
    }
}

void TestTimelineLabels::markerLabelsTakeRowsThenThinOut() {
    const QFontMetricsF fm(QFont{});
    const QRectF area(100, 30, 500, 200);
    std::vector<MarkerRequest> markers;
    for (int i = 0; i < 12; ++i) {
        markers.push_back({110.0 + i * 8, QStringLiteral("workers=%1").arg(i + 1), i});
    }
    markers.push_back({580,
                       QStringLiteral("a very long configuration change that goes on and on "
                                      "past any sensible width"),
                       99});
    const auto labels = layoutMarkerLabels(markers, area, fm);
    QVERIFY2(overlapOf(labels).isEmpty(), qPrintable(overlapOf(labels)));
    QVERIFY2(outside(labels, area).isEmpty(), qPrintable(outside(labels, area)));
    // Three rows for twelve close markers: some shown, the rest thinned out.
    int close = 0;
    for (const PlacedLabel& l : labels) {
        close += l.timeNs < 99 ? 1 : 0;
    }
    QVERIFY2(close >= 3 && close < 12, qPrintable(QString::number(close)));
    // The long one is elided deliberately and keeps its whole text for the tooltip.
    const auto longOne = std::find_if(labels.begin(), labels.end(),
                                      [](const PlacedLabel& l) { return l.timeNs == 99; });
    QVERIFY(longOne != labels.end());
    QVERIFY(longOne->text.endsWith(QChar(0x2026)));
    QVERIFY(longOne->fullText.startsWith(QStringLiteral("a very long")));
    QVERIFY(longOne->rect.width() <= kMaxMarkerLabelWidth);
    // A short plot has room for fewer rows, never a label below it.
    const auto shortLabels = layoutMarkerLabels(markers, QRectF(100, 30, 500, fm.height() + 3), fm);
    QVERIFY(outside(shortLabels, QRectF(100, 30, 500, fm.height() + 3)).isEmpty());
}

void TestTimelineLabels::viewAtConsoleSizes_data() {
    QTest::addColumn<QSize>("size");
    // The timeline's share of the console at 1280x720, 1600x1000 and 1920x1080.
    QTest::newRow("1280x720") << QSize(640, 180);
    QTest::newRow("1600x1000") << QSize(900, 330);
    QTest::newRow("1920x1080") << QSize(1150, 360);
    QTest::newRow("narrow") << QSize(320, 120);
}

void TestTimelineLabels::viewAtConsoleSizes() {
    QFETCH(QSize, size);
    TimelineModel model;
    const std::int64_t start = ev(EventKind::MessageAssigned, 0).timeNs;
    std::vector<Event> events{ev(EventKind::MessageAssigned, 0, "worker-1", "a", 1, 1),
                              ev(EventKind::MessageAssigned, 0, "worker-2", "b", 2, 1)};
    // Scenario 06's markers: several changes within a few seconds.
    const char* changes[] = {"batch=1",      "workers=8",       "waitMs=500", "batch=10",
                             "workMs=50",    "failureRate=0.1", "workers=3",  "batch=25",
                             "autoAck=true", "crashRate=0.05"};
    int i = 0;
    for (const char* text : changes) {
        Event e = ev(EventKind::ConfigChanged, 1000 + 400 * i++, "", "");
        e.detail = text;
        events.push_back(e);
    }
    model.apply(events);
    TimelineView view;
    view.setModel(&model);
    view.resize(size);
    view.setClock([start] { return start + 8'000'000'000LL; });
    view.setSpanSeconds(10);
    const auto labels = view.paintedLabels();
    QVERIFY2(labels.size() >= 3, qPrintable(QString::number(labels.size())));
    QVERIFY2(overlapOf(labels).isEmpty(), qPrintable(overlapOf(labels)));
    QVERIFY2(outside(labels, QRectF(view.rect())).isEmpty(),
             qPrintable(outside(labels, QRectF(view.rect()))));
    // A marker without a label of its own still says its text on its line.
    for (const char* text : changes) {
        const QString change = QString::fromLatin1(text);
        if (std::any_of(labels.begin(), labels.end(),
                        [&](const PlacedLabel& l) { return l.fullText == change; })) {
            continue;
        }
        bool found = false;
        for (int x = 0; x < size.width() && !found; ++x) {
            found = view.markerTextNear(QPoint(x, size.height() - 10)).contains(change);
        }
        QVERIFY2(found, qPrintable(change + QStringLiteral(": thinned out and in no tooltip")));
    }
}

QTEST_MAIN(TestTimelineLabels)
#include "tst_timeline_labels.moc"
