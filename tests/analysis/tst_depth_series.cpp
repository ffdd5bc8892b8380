// downsample: short series unchanged; long ones keep their first and last
// samples and the last sample of each stretch, in order.
#include <QtTest/QtTest>

#include "analysis/depth_series.h"

using qs::analysis::DepthSample;
using qs::analysis::downsample;

class DepthSeries : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void shortSeriesUnchanged() {
        const std::vector<DepthSample> s = {{0, 1, 0, 0}, {5, 2, 0, 1}, {9, 0, 0, 0}};
        QVERIFY(downsample(s, 10, 100) == s);
    }

    void longSeriesThinned() {
        std::vector<DepthSample> s;
        for (std::int64_t t = 0; t < 100000; ++t) {
            s.push_back({t, static_cast<std::uint64_t>(t % 7), 0, 0});
        }
        const auto out = downsample(s, 100000, 100);
        QVERIFY(out.size() <= 102);
        QVERIFY(out.size() >= 100);
        QVERIFY(out.front() == s.front());
        QVERIFY(out.back() == s.back());
        for (std::size_t i = 1; i < out.size(); ++i) {
            QVERIFY(out[i - 1].timeNs < out[i].timeNs);
        }
        // The last sample of the first stretch [0, 1000).
        QCOMPARE(out[1].timeNs, std::int64_t{999});
    }
};

QTEST_APPLESS_MAIN(DepthSeries)
#include "tst_depth_series.moc"
