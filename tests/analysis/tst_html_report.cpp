// `queuescope report`: scenario 05 (a poison task dead-lettered) recorded
// headless and written as HTML: self-contained (no script, nothing fetched),
// the run's settings, the per-worker table, the charts, the dead-lettered
// task's journey told in sentences; and a run whose bodies are hostile
// (markup, quotes, bytes that are not UTF-8) comes out escaped.
#include <QtTest/QtTest>

#include "analysis/report_command.h"
#include "analysis_test_support.h"
#include "runner/summary_command.h"

using namespace qs;
using qs::test::call;
using qs::test::occurrences;

class HtmlReport : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::string poison_;
    std::string html_;

    std::string path(const char* name) const {
        return dir_.filePath(QString::fromUtf8(name)).toStdString();
    }
    static std::string report(const std::string& recording, const std::string& out) {
        const auto r = call(&analysis::runReport, {recording, "--out", out});
        if (r.code != 0) {
            qFatal("%s", r.err.c_str());
        }
        return qs::test::readFile(out);
    }
    // Every opened element of these kinds is closed.
    static void balanced(const std::string& html) {
        for (const char* tag : {"section", "article", "table", "svg", "ol", "ul", "main"}) {
            QCOMPARE(occurrences(html, std::string("<") + tag + ">") +
                         occurrences(html, std::string("<") + tag + " "),
                     occurrences(html, std::string("</") + tag + ">"));
        }
    }
    // Nothing fetched, nothing run: no script, no src / href, no url(), no
    // http(s) address but the SVG namespace (a name, never fetched).
    static void selfContained(const std::string& html) {
        QCOMPARE(occurrences(html, "<script"), std::size_t{0});
        QCOMPARE(occurrences(html, " src="), std::size_t{0});
        QCOMPARE(occurrences(html, " href="), std::size_t{0});
        QCOMPARE(occurrences(html, "url("), std::size_t{0});
        QCOMPARE(occurrences(html, "@import"), std::size_t{0});
        QCOMPARE(occurrences(html, "http"),
                 occurrences(html, "xmlns=\"http://www.w3.org/2000/svg\""));
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        poison_ = path("05.qsrun");
        qs::test::record(
            {"--scenario", qs::test::scenarioPath("05-poison-dead-letter.json"), "--seed", "7"},
            poison_);
        html_ = report(poison_, path("05.html"));
    }

    void structure() {
        QVERIFY(html_.rfind("<!DOCTYPE html>\n<html lang=\"en\">", 0) == 0);
        QVERIFY(html_.find("<meta charset=\"utf-8\">") != std::string::npos);
        QVERIFY(html_.find(
                    "<title>Queuescope run report: poison message to dead-letter queue</title>") !=
                std::string::npos);
        for (const char* id : {"settings", "workers", "polls", "charts", "story", "journeys"}) {
            QVERIFY2(html_.find(std::string("<section id=\"") + id + "\">") != std::string::npos,
                     id);
        }
        QVERIFY(html_.find("</html>\n") == html_.size() - 8);
        balanced(html_);
        selfContained(html_);
    }

    void settingsAndWorkers() {
        QVERIFY(html_.find("<th>Channel</th><td>tasks.poison</td>") != std::string::npos);
        QVERIFY(html_.find("max receive count 3, dead-letter queue tasks.poison.dead-letter") !=
                std::string::npos);
        QVERIFY(html_.find("<th>Seed</th><td>7</td>") != std::string::npos);
        QVERIFY(html_.find("<tr><td>worker-1</td>") != std::string::npos);
        QVERIFY(html_.find("<tr><td>worker-2</td>") != std::string::npos);
        QVERIFY(html_.find("<tr class=\"total\"><td>total</td>") != std::string::npos);
        QVERIFY(html_.find("OK: every task was acked") != std::string::npos);
    }

    // Polls and fairness: the figures `queuescope summary` prints for the same
    // recording (one computation, runner::computePollFairness).
    void pollsAndFairness() {
        const auto summary = call(&runner::runSummary, {poison_});
        QCOMPARE(summary.code, 0);
        const std::string key = "fairness (Jain's index over deliveries, 1 = even): ";
        const std::size_t at = summary.out.find(key);
        QVERIFY(at != std::string::npos);
        const std::string jain = summary.out.substr(at + key.size(), 4);  // "0.67"
        QVERIFY2(html_.find("Jain's fairness index over the workers' hand-outs: " + jain + " ") !=
                     std::string::npos,
                 jain.c_str());
        const std::size_t section = html_.find("<section id=\"polls\">");
        const std::string polls =
            html_.substr(section, html_.find("</section>", section) - section);
        QVERIFY(polls.find("<tr><td>worker-1</td>") != std::string::npos);
        QVERIFY(polls.find("<tr><td>worker-2</td>") != std::string::npos);
    }

    // Inline SVG: the depth of both channels and the deliveries per worker.
    void charts() {
        QCOMPARE(occurrences(html_, "<svg "), std::size_t{3});
        QVERIFY(html_.find("aria-label=\"Messages in tasks.poison over time\"") !=
                std::string::npos);
        QVERIFY(html_.find("aria-label=\"Messages in tasks.poison.dead-letter over time\"") !=
                std::string::npos);
        QVERIFY(html_.find("aria-label=\"Deliveries per worker, by how they ended\"") !=
                std::string::npos);
        QVERIFY(html_.find("<path class=\"series\"") != std::string::npos);
    }

    // Task #3's journey: three hand-outs, two rejects, then dead-lettered,
    // told in sentences and as a table.
    void deadLetteredJourney() {
        const std::size_t at = html_.find("<article class=\"journey\">\n<h3>Task #3 ");
        QVERIFY(at != std::string::npos);
        const std::string article = html_.substr(at, html_.find("</article>", at) - at);
        QCOMPARE(occurrences(article, ">rejected</span>"), std::size_t{2});
        QCOMPARE(occurrences(article, ">dead-lettered</span>"), std::size_t{2});  // title + step
        QVERIFY2(article.find("so the broker moved it to the dead-letter queue "
                              "tasks.poison.dead-letter.") != std::string::npos,
                 article.c_str());
        QVERIFY(article.find("It was handed out 3 times (2 redeliveries).") != std::string::npos);
        // "worker-2 got it at t=0.073 s (receive count 1) and rejected it at t=0.093 s: ..."
        const std::size_t first = article.find(" got it at t=");
        QVERIFY(first != std::string::npos && article.compare(first - 8, 7, "worker-") == 0);
        QVERIFY(article.find(" s (receive count 1) and rejected it at t=", first) ==
                first + std::string(" got it at t=0.000").size());
        QCOMPARE(occurrences(html_, "<article class=\"journey\">"), std::size_t{1});
        QVERIFY(html_.find("1 task reached the max receive count and left the queue: Task #3.") !=
                std::string::npos);
    }

    // Scenario 03: worker-1 never acks; its ten hand-outs go back when its
    // stream ends, and worker-2 acks them. Said once for the worker, and in
    // each task's journey.
    void returnsAreExplained() {
        const std::string recording = path("03.qsrun");
        qs::test::record(
            {"--scenario", qs::test::scenarioPath("03-forgot-to-ack.json"), "--seed", "7"},
            recording);
        const std::string html = report(recording, path("03.html"));
        QVERIFY(html.find(" let 10 hand-outs go back unsettled without crashing (its stream "
                          "ended or it closed; the first at t=") != std::string::npos);
        QCOMPARE(occurrences(html, " let 10 hand-outs go back unsettled"), std::size_t{1});
        QCOMPARE(occurrences(html, "<article class=\"journey\">"), std::size_t{10});
        QCOMPARE(occurrences(html,
                             "without settling it, so the message went back to the queue "
                             "unchanged."),
                 std::size_t{10});
        balanced(html);
    }

    // Bodies are user data: a poison body with markup, quotes and an
    // ampersand is escaped everywhere it shows (the settings' body template,
    // the task's name in its journey). Its TaskSent event keeps the first
    // 200 bytes, which end before the "ä" (never half of it).
    void hostileTextIsEscaped() {
        const std::string recording = path("hostile.qsrun");
        std::string body = "<script>alert(\"x\")</script> & 'q' ";
        body += std::string(199 - body.size(), 'x') + "\xC3\xA4{n}";
        qs::test::record({"--tasks", "2", "--workers", "1", "--body", body, "--poison", "1",
                          "--max-receive", "2", "--wait", "1", "--seed", "7"},
                         recording);
        const std::string html = report(recording, path("hostile.html"));
        selfContained(html);
        balanced(html);
        QVERIFY(
            html.find("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39; xxx") !=
            std::string::npos);
        QVERIFY(html.find("xxx\xC3\xA4{n}") != std::string::npos);           // the template, whole
        QVERIFY(html.find("xxx <span class=\"badge") != std::string::npos);  // the excerpt
        QVERIFY(html.find(">dropped</span>") !=
                std::string::npos);  // max receive 2, no dead-letter queue
    }

    void badCommandLinesAndFiles() {
        QCOMPARE(call(&analysis::runReport, {poison_}).code, 2);
        QCOMPARE(call(&analysis::runReport, {poison_, "--out"}).code, 2);
        const std::string text = path("notes.qsrun");
        std::ofstream(text) << "not a recording\n";
        QCOMPARE(call(&analysis::runReport, {text, "--out", path("x.html")}).code, 3);
        QVERIFY(!QFileInfo::exists(QString::fromStdString(path("x.html"))));
        // Standard output: the page itself.
        const auto toStdout = call(&analysis::runReport, {poison_, "--out", "-"});
        QCOMPARE(toStdout.code, 0);
        QVERIFY(toStdout.out.rfind("<!DOCTYPE html>", 0) == 0);
    }
};

QTEST_APPLESS_MAIN(HtmlReport)
#include "tst_html_report.moc"
