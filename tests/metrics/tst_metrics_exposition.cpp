#include <QTest>

#include <cmath>
#include <stdexcept>

#include "exposition_parser.h"
#include "metrics/exposition.h"

using qs::metrics::Label;
using qs::metrics::MetricFamily;
using qs::metrics::MetricType;
using qs::metrics::Sample;

namespace {

qs::test::ParsedExposition parsed(const std::string& text) {
    std::string error;
    auto result = qs::test::parseExposition(text, &error);
    if (!result)
        qFatal("exposition does not parse: %s\n%s", error.c_str(), text.c_str());
    return *result;
}

bool refused(const std::vector<MetricFamily>& families) {
    try {
        qs::metrics::renderExposition(families);
    } catch (const std::invalid_argument&) {
        return true;
    }
    return false;
}

}  // namespace

class TestMetricsExposition : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void rendersHelpTypeAndSamplesInOrder() {
        const std::vector<MetricFamily> families{
            {"jobs_done_total", "Jobs done.", MetricType::Counter,
             {Sample{{{"queue", "a"}}, 3}, Sample{{{"queue", "b"}}, 0}}},
            {"jobs_waiting", "Jobs waiting.", MetricType::Gauge, {Sample{{}, 7}}},
            {"jobs_failed_total", "Nothing failed yet.", MetricType::Counter, {}}};
        QCOMPARE(qs::metrics::renderExposition(families),
                 std::string("# HELP jobs_done_total Jobs done.\n"
                             "# TYPE jobs_done_total counter\n"
                             "jobs_done_total{queue=\"a\"} 3\n"
                             "jobs_done_total{queue=\"b\"} 0\n"
                             "# HELP jobs_waiting Jobs waiting.\n"
                             "# TYPE jobs_waiting gauge\n"
                             "jobs_waiting 7\n"
                             "# HELP jobs_failed_total Nothing failed yet.\n"
                             "# TYPE jobs_failed_total counter\n"));
    }

    void labelValuesAndHelpAreEscaped() {
        const std::string awkward = "a\"b\\c\nd é";
        const std::vector<MetricFamily> families{
            {"x_total", "Line one\nback\\slash \"quoted\"", MetricType::Counter,
             {Sample{{{"name", awkward}}, 1}}}};
        const std::string text = qs::metrics::renderExposition(families);
        QVERIFY2(text.find("x_total{name=\"a\\\"b\\\\c\\nd é\"} 1") != std::string::npos,
                 text.c_str());
        QVERIFY(text.find("# HELP x_total Line one\\nback\\\\slash \"quoted\"") !=
                std::string::npos);
        const auto result = parsed(text);
        QCOMPARE(result.value("x_total", {{"name", awkward}}), std::optional<double>(1));
        QCOMPARE(result.families.at("x_total").help, std::string("Line one\nback\\slash \"quoted\""));
    }

    void invalidUtf8BecomesReplacementCharacters() {
        QCOMPARE(qs::metrics::escapeLabelValue("a\xff" "b"), std::string("a\xEF\xBF\xBD" "b"));
        QCOMPARE(qs::metrics::escapeLabelValue("\xC0\xAF"),  // overlong '/'
                 std::string("\xEF\xBF\xBD\xEF\xBF\xBD"));
        QCOMPARE(qs::metrics::escapeLabelValue("\xED\xA0\x80"),  // a surrogate
                 std::string("\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"));
        QCOMPARE(qs::metrics::escapeLabelValue("\xE2\x82"), std::string("\xEF\xBF\xBD\xEF\xBF\xBD"));
        QCOMPARE(qs::metrics::escapeLabelValue("\xF0\x9F\x98\x80"), std::string("\xF0\x9F\x98\x80"));
        const std::vector<MetricFamily> families{
            {"x", "h", MetricType::Gauge, {Sample{{{"l", "\xfe\xff"}}, 1}}}};
        parsed(qs::metrics::renderExposition(families));  // the parser checks UTF-8
    }

    void valuesAreWrittenSoTheyReadBack() {
        QCOMPARE(qs::metrics::formatValue(0), std::string("0"));
        QCOMPARE(qs::metrics::formatValue(42), std::string("42"));
        QCOMPARE(qs::metrics::formatValue(-3), std::string("-3"));
        QCOMPARE(qs::metrics::formatValue(9007199254740992.0), std::string("9007199254740992"));
        QCOMPARE(qs::metrics::formatValue(0.25), std::string("0.25"));
        QCOMPARE(qs::metrics::formatValue(HUGE_VAL), std::string("+Inf"));
        QCOMPARE(qs::metrics::formatValue(-HUGE_VAL), std::string("-Inf"));
        QCOMPARE(qs::metrics::formatValue(std::nan("")), std::string("NaN"));
        for (double value : {0.1, 1e300, -2.5e-7, 123456789.125, 1e17}) {
            const std::vector<MetricFamily> families{
                {"g", "h", MetricType::Gauge, {Sample{{}, value}}}};
            QCOMPARE(*parsed(qs::metrics::renderExposition(families)).value("g"), value);
        }
    }

    void namesFollowTheFormat() {
        QVERIFY(qs::metrics::isValidMetricName("queuescope_broker_rpc_requests_total"));
        QVERIFY(qs::metrics::isValidMetricName("a:b_c9"));
        QVERIFY(qs::metrics::isValidMetricName("_x"));
        QVERIFY(!qs::metrics::isValidMetricName(""));
        QVERIFY(!qs::metrics::isValidMetricName("9lives"));
        QVERIFY(!qs::metrics::isValidMetricName("has-dash"));
        QVERIFY(!qs::metrics::isValidMetricName("has space"));
        QVERIFY(qs::metrics::isValidLabelName("channel"));
        QVERIFY(!qs::metrics::isValidLabelName("__reserved"));
        QVERIFY(!qs::metrics::isValidLabelName("a:b"));
        QVERIFY(!qs::metrics::isValidLabelName("1a"));
    }

    void programmingErrorsAreRefused() {
        QVERIFY(refused({{"bad-name", "h", MetricType::Gauge, {}}}));
        QVERIFY(refused({{"sent", "a counter needs _total", MetricType::Counter, {}}}));
        QVERIFY(refused({{"g", "h", MetricType::Gauge, {}}, {"g", "h", MetricType::Gauge, {}}}));
        QVERIFY(refused({{"g", "h", MetricType::Gauge,
                          {Sample{{{"a", "1"}, {"b", "2"}}, 1}, Sample{{{"b", "2"}, {"a", "1"}}, 2}}}}));
        QVERIFY(refused({{"g", "h", MetricType::Gauge, {Sample{{{"a", "1"}, {"a", "2"}}, 1}}}}));
        QVERIFY(refused({{"g", "h", MetricType::Gauge, {Sample{{{"__name__", "x"}}, 1}}}}));
        QVERIFY(refused({{"c_total", "h", MetricType::Counter, {Sample{{}, -1}}}}));
        QVERIFY(refused({{"c_total", "h", MetricType::Counter, {Sample{{}, std::nan("")}}}}));
        QVERIFY(!refused({{"g", "h", MetricType::Gauge, {Sample{{}, -1}}}}));
    }

    // The test's parser must itself refuse what the format forbids, or the
    // broker suites' checks would prove nothing.
    void theParserIsStrict() {
        const std::string good = "# HELP a_total h\n# TYPE a_total counter\na_total{l=\"v\"} 1\n";
        parsed(good);
        const char* bad[] = {
            "# HELP a_total h\n# TYPE a_total counter\na_total 1",            // no final LF
            "# TYPE a_total counter\na_total 1\n",                            // no HELP
            "# HELP a h\na 1\n",                                               // no TYPE
            "# HELP a h\n# TYPE a gauge\na{l=\"v\\t\"} 1\n",                   // bad escape
            "# HELP a h\n# TYPE a gauge\na{l=\"v\"} one\n",                     // bad value
            "# HELP a h\n# TYPE a gauge\na{l=\"v\"} 1\na{l=\"v\"} 2\n",         // repeated series
            "# HELP a h\n# TYPE a gauge\na{l=\"v\" m=\"w\"} 1\n",               // no comma
            "# HELP a h\n# TYPE a gauge\na{1l=\"v\"} 1\n",                      // label name
            "# HELP a h\n# TYPE a gauge\nb 1\n",                                // foreign sample
            "# HELP a h\n# TYPE a gauge\na 1\n# HELP b h\n# TYPE b gauge\na 2\n",  // split family
            "# HELP a h\n# TYPE a counter\na -1\n",                              // negative counter
            "# HELP a h\n# TYPE a histogram\n",                                  // unexpected type
            "# HELP a h\n# TYPE a gauge\na{l=\"\xff\"} 1\n",                    // not UTF-8
            "# HELP a h\n# TYPE a gauge\n\na 1\n",                               // empty line
        };
        for (const char* text : bad) {
            std::string error;
            QVERIFY2(!qs::test::parseExposition(text, &error), text);
            QVERIFY(!error.empty());
        }
    }
};

QTEST_APPLESS_MAIN(TestMetricsExposition)
#include "tst_metrics_exposition.moc"
