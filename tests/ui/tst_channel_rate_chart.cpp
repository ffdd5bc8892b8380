// ChannelRateChart (widgets/channel_rate_chart.h): the selected channel's
// ChannelHistory plotted against seconds before now: every rate and level as
// the history has it, counter resets marked, ten minutes at most, and a line
// that says what is shown (or what to do when nothing is).
#include <QTest>

#include "widgets/channel_rate_chart.h"

using namespace qs;
using namespace qs::ui;

namespace {

constexpr std::int64_t kSecond = 1'000'000'000;

client::ChannelRatePoint point(std::int64_t atSecond, double sent, double delivered,
                               std::int64_t waiting) {
    client::ChannelRatePoint p;
    p.timeNs = atSecond * kSecond;
    p.seconds = 2;
    p.sentPerSecond = sent;
    p.deliveredPerSecond = delivered;
    p.waiting = waiting;
    return p;
}

}  // namespace

class TestChannelRateChart : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void plotsTheHistoryAgainstSecondsBeforeNow() {
        ChannelRateChart chart;
        std::deque<client::ChannelRatePoint> points{point(100, 10, 4, 30), point(102, 20, 8, 50)};
        points.back().expiredPerSecond = 1.5;
        points.back().delayed = 3;
        chart.showChannel(QStringLiteral("orders"), points, 103 * kSecond);
        QCOMPARE(chart.channel(), QStringLiteral("orders"));
        QCOMPARE(chart.seriesPoints(QStringLiteral("sent/s")),
                 (QList<QPointF>{{-3.0, 10.0}, {-1.0, 20.0}}));
        QCOMPARE(chart.seriesPoints(QStringLiteral("delivered/s")),
                 (QList<QPointF>{{-3.0, 4.0}, {-1.0, 8.0}}));
        QCOMPARE(chart.seriesPoints(QStringLiteral("expired/s")).last(), QPointF(-1.0, 1.5));
        QCOMPARE(chart.seriesPoints(QStringLiteral("waiting")),
                 (QList<QPointF>{{-3.0, 30.0}, {-1.0, 50.0}}));
        QCOMPARE(chart.seriesPoints(QStringLiteral("delayed")).last(), QPointF(-1.0, 3.0));
        QVERIFY(chart.seriesPoints(QStringLiteral("counter reset")).isEmpty());
        const QString said = chart.summaryText();
        QVERIFY2(said.contains(QStringLiteral("orders at the last poll: 20.0 sent/s · 8.0 "
                                              "delivered/s · 1.5 expired/s · 50 waiting · 3 "
                                              "delayed")),
                 qPrintable(said));
        QVERIFY2(!said.contains(QStringLiteral("client")), qPrintable(said));  // not reported
    }

    void aResetIsMarkedAndClientsAreSaid() {
        ChannelRateChart chart;
        std::deque<client::ChannelRatePoint> points{point(10, 5, 5, 0), point(12, 50, 20, 30)};
        points.back().counterReset = true;
        points.back().clients = 2;
        chart.showChannel(QStringLiteral("q"), points, 12 * kSecond);
        QCOMPARE(chart.seriesPoints(QStringLiteral("counter reset")),
                 (QList<QPointF>{{0.0, 50.0}}));
        QVERIFY2(chart.summaryText().contains(QStringLiteral("2 client(s) polling")),
                 qPrintable(chart.summaryText()));
        QVERIFY2(chart.summaryText().contains(QStringLiteral("1 counter reset(s) in view")),
                 qPrintable(chart.summaryText()));
    }

    // Ten minutes are shown: older points stay in the history, not on the chart.
    void onlyTheLastTenMinutes() {
        ChannelRateChart chart;
        std::deque<client::ChannelRatePoint> points{point(0, 1, 1, 0), point(700, 2, 2, 0),
                                                    point(1000, 3, 3, 0)};
        chart.showChannel(QStringLiteral("q"), points, 1000 * kSecond);
        QCOMPARE(chart.seriesPoints(QStringLiteral("sent/s")),
                 (QList<QPointF>{{-300.0, 2.0}, {0.0, 3.0}}));
    }

    void saysWhatToDoWhenThereIsNothingToShow() {
        ChannelRateChart chart;
        chart.showChannel({}, {}, 0);
        QCOMPARE(chart.summaryText(),
                 QStringLiteral("Select a channel to see its rates over time."));
        chart.showChannel(QStringLiteral("fresh"), {}, 5 * kSecond);
        QVERIFY2(chart.summaryText().contains(QStringLiteral("after the second poll")),
                 qPrintable(chart.summaryText()));
        QVERIFY(chart.seriesPoints(QStringLiteral("sent/s")).isEmpty());
        // A channel shown before leaves nothing behind.
        chart.showChannel(QStringLiteral("a"), {point(1, 9, 9, 9), point(3, 9, 9, 9)}, 3 * kSecond);
        chart.showChannel(QStringLiteral("b"), {}, 4 * kSecond);
        QVERIFY(chart.seriesPoints(QStringLiteral("waiting")).isEmpty());
    }
};

QTEST_MAIN(TestChannelRateChart)
#include "tst_channel_rate_chart.moc"
