#include "analysis/html_report.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/depth_series.h"
#include "analysis/explanations.h"
#include "analysis/html_text.h"
#include "analysis/journey.h"
#include "analysis/natural_order.h"
#include "analysis/svg_chart.h"
#include "common/number_text.h"
#include "common/version.h"
#include "runner/poll_fairness.h"
#include "workers/worker_config.h"

namespace qs::analysis {

namespace {

constexpr std::size_t kChartPoints = 1200;
constexpr std::size_t kMaxDepthCharts = 4;
constexpr std::size_t kMaxCrashLines = 50;

// The colours of the ends, as the console's timeline and the trace use them.
std::string_view htmlColourOf(DeliveryEnd end) {
    static constexpr std::array<std::string_view, kDeliveryEndCount> kColours = {
        "#2e9d5b",  // acked
        "#e8871e",  // rejected
        "#a3151b",  // dead-lettered
        "#d9363e",  // dropped
        "#8e63c7",  // requeued
        "#e3c228",  // returned
        "#333333",  // crashed
        "#9aa0a6",  // expired
        "#7fb2e5",  // superseded
        "#ffffff",  // unsettled
    };
    return kColours[static_cast<std::size_t>(end)];
}

constexpr const char* kStyle = R"(
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       color: #1d2127; background: #f4f5f7; margin: 0; }
main { max-width: 1120px; margin: 0 auto; padding: 24px 28px 40px; background: #fff;
       min-height: 100vh; box-sizing: border-box; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 32px 0 10px; padding-bottom: 4px; border-bottom: 1px solid #dde1e6; }
h3 { font-size: 15px; margin: 0 0 4px; }
p.sub { color: #555d66; margin: 0 0 12px; max-width: 900px; }
.result { display: inline-block; padding: 6px 12px; border-radius: 6px; font-weight: 600; }
.result.ok { background: #e3f4ea; color: #1d6b3d; }
.result.bad { background: #fbe3e4; color: #9b1c22; }
.cards { display: flex; flex-wrap: wrap; gap: 10px; margin: 16px 0 0; }
.card { border: 1px solid #dde1e6; border-radius: 8px; padding: 8px 12px; flex: 1 1 0;
        min-width: 96px; }
.card .n { font-size: 22px; font-weight: 600; }
.card .l { color: #555d66; font-size: 12px; }
.card.warn .n { color: #9b1c22; }
table { border-collapse: collapse; margin: 6px 0; }
th, td { padding: 4px 10px; border-bottom: 1px solid #eceef1; vertical-align: top; }
th { text-align: left; background: #f7f8fa; font-weight: 600; font-size: 13px; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.workers { width: 100%; }
table.workers th, table.workers td { white-space: nowrap; padding: 4px 6px; }
table.workers th { font-size: 12px; }
tr.total td { font-weight: 600; border-top: 2px solid #c9ced4; }
table.kv th { background: none; width: 190px; color: #555d66; font-weight: 500; }
code, .mono { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
.chart { width: 100%; height: auto; display: block; margin: 4px 0 14px; }
.chart text { font-size: 11px; fill: #3b424a; }
.chart .ytick { text-anchor: end; }
.chart .xtick { text-anchor: middle; }
.chart .grid line { stroke: #eceef1; }
.chart .frame { fill: none; stroke: #c9ced4; }
.chart .series { fill: none; stroke-width: 1.8; }
.chart .marker { stroke: #c0262d; stroke-dasharray: 4 3; stroke-width: 1.2; }
.chart .marker-label { fill: #c0262d; font-size: 11px; }
.chart .bar-label { text-anchor: end; font-size: 12px; }
.chart .bar-total { font-size: 12px; }
.badge { display: inline-block; padding: 0 7px; border-radius: 9px; font-size: 12px;
         border: 1px solid rgba(0,0,0,.15); white-space: nowrap; }
.badge.light { color: #1d2127; }
.badge.dark { color: #fff; }
ul.story { margin: 4px 0; padding-left: 20px; }
article { border: 1px solid #dde1e6; border-radius: 8px; padding: 12px 14px; margin: 12px 0; }
article .meta { color: #555d66; font-size: 12.5px; margin-bottom: 6px; }
article ol { margin: 6px 0 8px; padding-left: 22px; }
.note { color: #555d66; }
footer { margin-top: 36px; color: #6b737c; font-size: 12px; }
)";

std::string msText(const LatencyStats& s, std::int64_t ns) {
    return s.count == 0 ? "-" : fixedPoint(static_cast<double>(ns) / 1e6, 1);
}

std::string badge(DeliveryEnd end) {
    const bool dark = end == DeliveryEnd::Acked || end == DeliveryEnd::DeadLettered ||
                      end == DeliveryEnd::Dropped || end == DeliveryEnd::Requeued ||
                      end == DeliveryEnd::Crashed;
    return "<span class=\"badge " + std::string(dark ? "dark" : "light") +
           "\" style=\"background:" + std::string(htmlColourOf(end)) + "\">" +
           std::string(deliveryEndName(end)) + "</span>";
}

std::string badgeForState(MessageState state) {
    switch (state) {
        case MessageState::Acked:
            return badge(DeliveryEnd::Acked);
        case MessageState::DeadLettered:
            return badge(DeliveryEnd::DeadLettered);
        case MessageState::Dropped:
            return badge(DeliveryEnd::Dropped);
        case MessageState::Expired:
            return badge(DeliveryEnd::Expired);
        default:
            return "<span class=\"badge light\" style=\"background:#fbe3e4\">" +
                   htmlEscape(messageStateName(state)) +
                   (isTerminal(state) ? "" : " (no end state)") + "</span>";
    }
}

class ReportWriter {
public:
    ReportWriter(const RecordedRun& run, std::ostream& out, ReportOptions options)
        : run_(run), r_(run.summary().result), out_(out), options_(options) {}

    ReportStats write() {
        const std::string name = runName();
        out_ << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
             << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
             << "<meta name=\"generator\" content=\"queuescope " << htmlEscape(kVersion) << "\">\n"
             << "<title>Queuescope run report: " << htmlEscape(name) << "</title>\n<style>"
             << kStyle << "</style>\n</head>\n<body>\n<main>\n";
        header(name);
        settings();
        workers();
        pollFairness();
        charts();
        story();
        journeys();
        out_ << "<footer>Written by queuescope " << htmlEscape(kVersion) << " from "
             << "<span class=\"mono\">" << htmlEscape(run_.path()) << "</span>. The numbers are "
             << "those of <code>queuescope summary</code> on the same recording.</footer>\n"
             << "</main>\n</body>\n</html>\n";
        return stats_;
    }

private:
    std::string runName() const {
        const std::string& s = run_.scenario().name;
        return s.empty() ? run_.path() : s;
    }

    void header(const std::string& name) {
        out_ << "<header>\n<h1>Run report: " << htmlEscape(name) << "</h1>\n";
        if (!run_.scenario().description.empty()) {
            out_ << "<p class=\"sub\">" << htmlEscape(run_.scenario().description) << "</p>\n";
        }
        const int code = r_.exitCode();
        out_ << "<p class=\"result " << (code == 0 ? "ok" : "bad") << "\">"
             << (code == 0   ? "OK: every task was acked, dead-lettered, dropped or expired"
                 : code == 1 ? "FAILED: tasks were lost or could not be sent"
                             : "ERROR: the run did not complete")
             << "</p>\n";
        if (!run_.summary().note.empty()) {
            out_ << "<p class=\"note\">" << htmlEscape(run_.summary().note) << "</p>\n";
        }
        const LedgerSummary& t = r_.totals;
        out_ << "<div class=\"cards\">";
        card(std::to_string(r_.producer.sent), "tasks sent", false);
        card(std::to_string(t.count(MessageState::Acked)), "acked", false);
        card(std::to_string(t.exactlyOnce), "acked exactly once", false);
        card(std::to_string(t.redelivered), "redelivered", false);
        card(std::to_string(t.count(MessageState::DeadLettered)), "dead-lettered",
             t.count(MessageState::DeadLettered) > 0);
        card(std::to_string(t.count(MessageState::Dropped) + t.count(MessageState::Expired)),
             "dropped or expired", false);
        card(std::to_string(r_.tasksLost), "lost (no end state)", r_.tasksLost > 0);
        card(fixedPoint(r_.elapsedSeconds, 2) + " s", "elapsed", false);
        out_ << "</div>\n";
        for (const std::string& w : r_.warnings) {
            out_ << "<p class=\"note\">Warning: " << htmlEscape(w) << "</p>\n";
        }
        if (!r_.error.empty()) {
            out_ << "<p class=\"note\">Error: " << htmlEscape(r_.error) << "</p>\n";
        }
        out_ << "</header>\n";
    }

    void card(const std::string& value, const std::string& label, bool warn) {
        out_ << "<div class=\"card" << (warn ? " warn" : "") << "\"><div class=\"n\">"
             << htmlEscape(value) << "</div><div class=\"l\">" << htmlEscape(label)
             << "</div></div>";
    }

    void row(const std::string& key, const std::string& value) {
        if (!value.empty()) {
            out_ << "<tr><th>" << htmlEscape(key) << "</th><td>" << htmlEscape(value)
                 << "</td></tr>\n";
        }
    }

    void settings() {
        const runner::Scenario& s = run_.scenario();
        out_ << "<section id=\"settings\">\n<h2>Run settings</h2>\n<table class=\"kv\">\n";
        row("Scenario", s.name);
        row("Recorded", run_.setting("started_at_utc") + " (" + run_.setting("run_origin") +
                            " run, queuescope " + run_.setting("queuescope_version") + ")");
        row("Recording", run_.path());
        row("Broker", r_.address + (r_.embeddedBroker ? " (embedded)" : " (remote)") +
                          (run_.setting("server_version").empty()
                               ? ""
                               : ", server " + run_.setting("server_version")));
        row("Channel", s.channel);
        std::string tasks = std::to_string(s.tasks.count) + " tasks, body \"" + s.tasks.body + "\"";
        tasks +=
            s.tasks.rate > 0 ? ", " + fixedPoint(s.tasks.rate, 1) + " per second" : ", all at once";
        if (!s.tasks.poison.empty()) {
            tasks += ", poison:";
            for (int p : s.tasks.poison) {
                tasks += " #" + std::to_string(p);
            }
        }
        row("Tasks", tasks);
        const client::MessagePolicy& p = s.tasks.policy;
        std::string policy;
        if (p.maxReceiveCount > 0) {
            policy += "max receive count " + std::to_string(p.maxReceiveCount) + ", ";
            policy += p.deadLetterQueue.empty() ? "no dead-letter queue (dropped)"
                                                : "dead-letter queue " + p.deadLetterQueue;
        }
        if (p.expirationSeconds > 0) {
            policy += (policy.empty() ? "" : "; ") + std::string("expires after ") +
                      std::to_string(p.expirationSeconds) + " s";
        }
        if (p.delaySeconds > 0) {
            policy += (policy.empty() ? "" : "; ") + std::string("delayed ") +
                      std::to_string(p.delaySeconds) + " s";
        }
        row("Policy", policy.empty() ? "none (server defaults)" : policy);
        for (std::size_t g = 0; g < s.workers.size(); ++g) {
            const runner::WorkerGroup& group = s.workers[g];
            row(s.workers.size() == 1 ? "Workers" : "Workers (group " + std::to_string(g + 1) + ")",
                std::to_string(group.count) + " × " + workers::describe(group.config) +
                    (group.startAt > 0 ? ", from t=" + fixedPoint(group.startAt, 2) + " s" : ""));
        }
        if (s.workers.empty() && !run_.setting("worker_config").empty()) {
            row("Workers", run_.setting("worker_config"));
        }
        std::string timeline;
        for (const runner::TimelineAction& a : s.timeline) {
            timeline +=
                (timeline.empty() ? "" : "; ") + a.describe();  // "at 0.75 s: crash worker-2"
        }
        row("Timeline", timeline);
        row("End", s.untilDrained
                       ? "when drained, at most " + fixedPoint(s.timeoutSeconds, 0) + " s"
                       : "after " + fixedPoint(s.runForSeconds, 1) + " s");
        row("Seed", run_.setting("seed"));
        row("Events", std::to_string(r_.eventsRecorded) + " recorded, " +
                          std::to_string(r_.eventsDropped) + " dropped");
        out_ << "</table>\n</section>\n";
    }

    void workers() {
        out_ << "<section id=\"workers\">\n<h2>Workers</h2>\n<table "
                "class=\"workers\">\n<tr><th>worker</th>";
        for (const char* h :
             {"received", "redelivered", "acked", "rejected", "requeued", "returned", "processed",
              "crashes", "polls", "empty polls", "busy s", "settle p50 ms", "settle p95 ms"}) {
            out_ << "<th class=\"num\">" << h << "</th>";
        }
        out_ << "</tr>\n";
        WorkerStats sum;
        std::vector<const WorkerStats*> ordered;
        for (const WorkerStats& w : r_.workers) {
            ordered.push_back(&w);
        }
        std::sort(ordered.begin(), ordered.end(), [](const WorkerStats* a, const WorkerStats* b) {
            return naturalLess(a->worker, b->worker);
        });
        for (const WorkerStats* w : ordered) {
            workerRow(htmlEscape(w->worker), *w, false);
            sum.received += w->received;
            sum.redelivered += w->redelivered;
            sum.acked += w->acked;
            sum.rejected += w->rejected;
            sum.requeued += w->requeued;
            sum.returned += w->returned;
            sum.processed += w->processed;
            sum.crashes += w->crashes;
            sum.polls += w->polls;
            sum.emptyPolls += w->emptyPolls;
            sum.busyNs += w->busyNs;
        }
        workerRow("total", sum, true);
        out_ << "</table>\n";
        const LatencyStats all = run_.ledger().sendToAckLatency();
        if (all.count > 0) {
            out_ << "<p class=\"note\">Sent to acked, every task: p50 " << msText(all, all.p50Ns)
                 << " ms, p95 " << msText(all, all.p95Ns) << " ms, max " << msText(all, all.maxNs)
                 << " ms" << (all.estimated ? " (percentiles from a sample)" : "") << ".</p>\n";
        }
        out_ << "</section>\n";
    }

    // The numbers of `queuescope run`'s second table and the console's Polls dock.
    void pollFairness() {
        const runner::PollFairness f = runner::computePollFairness(r_.workers, r_.elapsedSeconds);
        if (f.workers.empty()) {
            return;
        }
        out_ << "<section id=\"polls\">\n<h2>Polls and fairness</h2>\n<table "
                "class=\"workers\">\n<tr><th>worker</th>";
        for (const char* h : {"polls", "empty", "msgs/poll", "waited s", "share", "fair share",
                              "most held", "empty while others held"}) {
            out_ << "<th class=\"num\">" << h << "</th>";
        }
        out_ << "</tr>\n";
        std::vector<const runner::WorkerPollFairness*> ordered;
        for (const runner::WorkerPollFairness& w : f.workers) {
            ordered.push_back(&w);
        }
        std::sort(ordered.begin(), ordered.end(),
                  [](const auto* a, const auto* b) { return naturalLess(a->worker, b->worker); });
        for (const runner::WorkerPollFairness* w : ordered) {
            out_ << "<tr><td>" << htmlEscape(w->worker) << "</td><td class=\"num\">" << w->polls
                 << "</td><td class=\"num\">" << w->emptyPolls << "</td><td class=\"num\">"
                 << fixedPoint(w->messagesPerPoll, 1) << "</td><td class=\"num\">"
                 << fixedPoint(w->waitSeconds, 2) << "</td><td class=\"num\">"
                 << fixedPoint(w->share * 100.0, 0) << "%</td><td class=\"num\">"
                 << fixedPoint(w->fairShare * 100.0, 0) << "%</td><td class=\"num\">" << w->maxHeld
                 << "</td><td class=\"num\">" << w->emptyPollsWhileOthersHeld << "</td></tr>\n";
        }
        out_ << "</table>\n<p class=\"note\">Jain's fairness index over the workers' hand-outs: "
             << fixedPoint(f.jainIndex, 2) << " (1 = all got the same, "
             << fixedPoint(1.0 / static_cast<double>(f.workers.size()), 2)
             << " = one worker got everything). " << f.emptyPolls << " of " << f.polls
             << " polls came back empty (" << fixedPoint(f.emptyPollsPerSecond, 2)
             << " per second); " << f.emptyPollsWhileOthersHeld
             << " of them while other workers held unsettled messages.</p>\n</section>\n";
    }

    void workerRow(const std::string& nameHtml, const WorkerStats& w, bool total) {
        out_ << "<tr" << (total ? " class=\"total\"" : "") << "><td>" << nameHtml << "</td>";
        for (std::uint64_t v : {w.received, w.redelivered, w.acked, w.rejected, w.requeued,
                                w.returned, w.processed, w.crashes, w.polls, w.emptyPolls}) {
            out_ << "<td class=\"num\">" << v << "</td>";
        }
        out_ << "<td class=\"num\">" << fixedPoint(static_cast<double>(w.busyNs) / 1e9, 2)
             << "</td>";
        out_ << "<td class=\"num\">"
             << (total ? "" : msText(w.settleLatency, w.settleLatency.p50Ns))
             << "</td><td class=\"num\">"
             << (total ? "" : msText(w.settleLatency, w.settleLatency.p95Ns)) << "</td></tr>\n";
    }

    void charts() {
        out_ << "<section id=\"charts\">\n<h2>Queue depth over time</h2>\n";
        const double seconds = static_cast<double>(std::max<std::int64_t>(run_.endNs(), 1)) / 1e9;
        std::vector<ChartMarker> markers;
        for (const WorkerCrash& c : run_.crashes()) {
            markers.push_back({static_cast<double>(c.timeNs) / 1e9, c.worker + " crashed"});
        }
        std::size_t drawn = 0;
        for (const ChannelDepth& channel : run_.depth()) {
            if (drawn++ == kMaxDepthCharts) {
                out_ << "<p class=\"note\">" << run_.depth().size() - kMaxDepthCharts
                     << " more channels are not drawn (the trace has them all).</p>\n";
                break;
            }
            StepChart chart;
            chart.title = "Messages in " + channel.channel + " over time";
            chart.xMax = seconds;
            chart.markers = markers;
            ChartSeries waiting{"waiting", "#2f6fdf", {}};
            ChartSeries inFlight{"in flight", "#e8871e", {}};
            ChartSeries delayed{"delayed", "#9aa0a6", {}};
            ChartSeries deadLettered{"dead-lettered here", "#a3151b", {}};
            bool anyDelayed = false;
            // A dead-letter queue keeps what was dead-lettered into it; a
            // source channel shows it only for the instant of the move.
            const bool anyDeadLettered =
                !channel.samples.empty() && channel.samples.back().deadLettered > 0;
            for (const DepthSample& s : downsample(channel.samples, run_.endNs(), kChartPoints)) {
                const double x = static_cast<double>(s.timeNs) / 1e9;
                waiting.points.emplace_back(x, static_cast<double>(s.waiting));
                inFlight.points.emplace_back(x, static_cast<double>(s.inFlight));
                delayed.points.emplace_back(x, static_cast<double>(s.delayed));
                deadLettered.points.emplace_back(x, static_cast<double>(s.deadLettered));
                anyDelayed = anyDelayed || s.delayed > 0;
            }
            const bool queued = std::any_of(
                channel.samples.begin(), channel.samples.end(), [](const DepthSample& s) {
                    return s.waiting > 0 || s.inFlight > 0 || s.delayed > 0;
                });
            if (!queued) {
                chart.height = 130;  // a dead-letter queue nobody consumed: one line to show
            }
            chart.series = {waiting, inFlight};
            if (anyDelayed) {
                chart.series.push_back(delayed);
            }
            if (anyDeadLettered) {
                chart.series.push_back(deadLettered);
            }
            out_ << "<h3>" << htmlEscape(channel.channel) << "</h3>\n"
                 << stepChartSvg(chart) << '\n';
        }
        if (run_.depth().empty()) {
            out_ << "<p class=\"note\">No message was stored in this run.</p>\n";
        }
        out_ << "<h2>Deliveries per worker, by how they ended</h2>\n"
             << deliveriesChart() << "\n</section>\n";
    }

    std::string deliveriesChart() const {
        StackedBars bars;
        bars.title = "Deliveries per worker, by how they ended";
        for (int e = 0; e < kDeliveryEndCount; ++e) {
            const auto end = static_cast<DeliveryEnd>(e);
            bars.segments.push_back(
                {std::string(deliveryEndName(end)), std::string(htmlColourOf(end))});
        }
        std::vector<std::string> names;
        std::vector<BarRow> rows;
        auto rowOf = [&](const std::string& worker) -> BarRow& {
            for (BarRow& r : rows) {
                if (r.label == worker) {
                    return r;
                }
            }
            rows.push_back({worker, std::vector<std::uint64_t>(kDeliveryEndCount, 0)});
            return rows.back();
        };
        for (const WorkerStats& w : r_.workers) {
            rowOf(w.worker);
        }
        for (const MessageRecord* m : run_.messages()) {
            for (const JourneyStep& s : run_.journey(*m)) {
                ++rowOf(s.worker).values[static_cast<std::size_t>(s.end)];
            }
        }
        std::sort(rows.begin(), rows.end(),
                  [](const BarRow& a, const BarRow& b) { return naturalLess(a.label, b.label); });
        bars.rows = std::move(rows);
        return stackedBarsSvg(bars);
    }

    void story() {
        out_ << "<section id=\"story\">\n<h2>What happened</h2>\n<ul class=\"story\">\n";
        const LedgerSummary& t = r_.totals;
        out_ << "<li>" << r_.producer.sent << " tasks were sent; " << t.count(MessageState::Acked)
             << " were acked, " << t.exactlyOnce << " of them after exactly one hand-out.</li>\n";
        const std::vector<std::string> crashes = explainCrashes(run_);
        for (std::size_t i = 0; i < crashes.size() && i < kMaxCrashLines; ++i) {
            out_ << "<li>" << htmlEscape(crashes[i]) << "</li>\n";
        }
        if (crashes.size() > kMaxCrashLines) {
            out_ << "<li>" << crashes.size() - kMaxCrashLines
                 << " more crashes (the trace marks every one).</li>\n";
        }
        for (const std::string& line : explainReturns(run_)) {
            out_ << "<li>" << htmlEscape(line) << "</li>\n";
        }
        std::vector<std::string> deadLettered;
        for (const MessageRecord* m : run_.messages()) {
            if (m->state == MessageState::DeadLettered || m->state == MessageState::Dropped) {
                deadLettered.push_back(run_.taskName(*m));
            }
        }
        if (!deadLettered.empty()) {
            std::string line = std::to_string(deadLettered.size()) +
                               (deadLettered.size() == 1 ? " task" : " tasks") +
                               " reached the max receive count and left the queue: ";
            for (std::size_t i = 0; i < deadLettered.size() && i < 20; ++i) {
                line += (i == 0 ? "" : ", ") + deadLettered[i];
            }
            line += deadLettered.size() > 20 ? ", ..." : "";
            out_ << "<li>" << htmlEscape(line) << ".</li>\n";
        }
        if (r_.tasksLost > 0) {
            out_ << "<li>" << r_.tasksLost
                 << " tasks have no end state: they were neither acked nor dead-lettered, "
                    "dropped or expired when the run ended.</li>\n";
        }
        out_ << "</ul>\n</section>\n";
    }

    void journeys() {
        std::vector<const MessageRecord*> notable;
        for (const MessageRecord* m : run_.messages()) {
            if (isNotable(*m)) {
                notable.push_back(m);
            }
        }
        stats_.notableMessages = notable.size();
        out_ << "<section id=\"journeys\">\n<h2>Redelivered and not-acked messages</h2>\n";
        if (notable.empty()) {
            out_ << "<p class=\"note\">Every message was acked after one hand-out.</p>\n";
        }
        for (const MessageRecord* m : notable) {
            if (stats_.journeys == options_.maxJourneys) {
                out_ << "<p class=\"note\">" << notable.size() - stats_.journeys
                     << " more messages are not told here; <code>queuescope trace</code> "
                        "shows every hand-out.</p>\n";
                break;
            }
            journey(*m);
            ++stats_.journeys;
        }
        out_ << "</section>\n";
    }

    void journey(const MessageRecord& m) {
        out_ << "<article class=\"journey\">\n<h3>" << htmlEscape(run_.taskName(m)) << " "
             << badgeForState(m.state) << "</h3>\n<div class=\"meta\">message <span class=\"mono\">"
             << htmlEscape(m.messageId) << "</span> · " << m.deliveryCount
             << (m.deliveryCount == 1 ? " hand-out" : " hand-outs") << " · now in "
             << htmlEscape(m.channel) << "</div>\n<ol>\n";
        for (const std::string& line : explainMessage(run_, m)) {
            out_ << "<li>" << htmlEscape(line) << "</li>\n";
        }
        out_ << "</ol>\n";
        const std::vector<JourneyStep> steps = run_.journey(m);
        if (!steps.empty()) {
            out_ << "<table class=\"steps\">\n<tr><th class=\"num\">#</th><th>worker</th>"
                    "<th class=\"num\">handed out</th><th class=\"num\">ended</th>"
                    "<th class=\"num\">held ms</th><th class=\"num\">receive count</th>"
                    "<th>how it ended</th></tr>\n";
            for (std::size_t i = 0; i < steps.size(); ++i) {
                const JourneyStep& s = steps[i];
                out_ << "<tr><td class=\"num\">" << i + 1 << "</td><td>" << htmlEscape(s.worker)
                     << "</td><td class=\"num\">" << atTime(run_.sinceOrigin(s.startNs))
                     << "</td><td class=\"num\">" << atTime(run_.sinceOrigin(s.endNs))
                     << "</td><td class=\"num\">"
                     << fixedPoint(static_cast<double>(s.endNs - s.startNs) / 1e6, 1)
                     << "</td><td class=\"num\">" << s.receiveCount << "</td><td>" << badge(s.end)
                     << "</td></tr>\n";
            }
            out_ << "</table>\n";
        }
        out_ << "</article>\n";
    }

    const RecordedRun& run_;
    const runner::RunResult& r_;
    std::ostream& out_;
    ReportOptions options_;
    ReportStats stats_;
};

}  // namespace

ReportStats writeHtmlReport(const RecordedRun& run, std::ostream& out, ReportOptions options) {
    return ReportWriter(run, out, options).write();
}

}  // namespace qs::analysis
