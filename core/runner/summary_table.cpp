#include "runner/summary_table.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "runner/poll_fairness.h"
#include "runner/text_table.h"

namespace qs::runner {

namespace {

std::string fmt(const char* format, double v) {
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, format, v);
    return buffer;
}

std::string n(std::uint64_t v) {
    return std::to_string(v);
}

std::string percent(double fraction) {
    return fmt("%.0f%%", fraction * 100.0);
}

// Polls and fairness: how each worker's polls went and its share of the work.
std::string pollFairnessTable(const RunResult& r) {
    const PollFairness f = computePollFairness(r.workers, r.elapsedSeconds);
    TextTable table({"worker", "polls", "empty", "msgs/poll", "wait s", "share", "fair share",
                     "max held", "empty while others held"});
    for (const WorkerPollFairness& w : f.workers) {
        table.add({w.worker, n(w.polls), n(w.emptyPolls), fmt("%.1f", w.messagesPerPoll),
                   fmt("%.2f", w.waitSeconds), percent(w.share), percent(w.fairShare), n(w.maxHeld),
                   w.emptyPollsWhileOthersHeld == 0
                       ? std::string("0")
                       : n(w.emptyPollsWhileOthersHeld) + " (" + n(w.heldByOthersAtEmptyPolls) +
                             " held)"});
    }
    std::string out = table.render();
    out += "fairness (Jain's index over deliveries, 1 = even): " + fmt("%.2f", f.jainIndex);
    if (r.elapsedSeconds > 0.0) {
        out += "; empty polls per second: " + fmt("%.2f", f.emptyPollsPerSecond);
    }
    return out + "\n";
}

}  // namespace

std::string formatSummary(const Scenario& scenario, const RunResult& r) {
    std::string out;
    out += "Scenario: " + (scenario.name.empty() ? std::string("(flags)") : scenario.name) + "\n";
    out += "Broker:   " + r.address + (r.embeddedBroker ? " (embedded)" : " (remote)") + "\n";
    out += "Channel:  " + scenario.channel + "\n";
    out += "Elapsed:  " + fmt("%.2f s", r.elapsedSeconds) +
           (r.drained    ? "  (drained)"
            : r.timedOut ? "  (time bound reached)"
                         : "") +
           "\n\n";

    TextTable table({"worker", "received", "redelivered", "acked", "rejected", "requeued",
                     "returned", "processed", "crashes", "polls", "empty", "busy s",
                     "settle p50 ms"});
    WorkerStats sum;
    for (const WorkerStats& w : r.workers) {
        table.add({w.worker, n(w.received), n(w.redelivered), n(w.acked), n(w.rejected),
                   n(w.requeued), n(w.returned), n(w.processed), n(w.crashes), n(w.polls),
                   n(w.emptyPolls), fmt("%.2f", static_cast<double>(w.busyNs) / 1e9),
                   w.settleLatency.count > 0
                       ? fmt("%.1f", static_cast<double>(w.settleLatency.p50Ns) / 1e6)
                       : std::string("-")});
        sum.received += w.received;
        sum.redelivered += w.redelivered;
        sum.acked += w.acked;
        sum.rejected += w.rejected;
        sum.requeued += w.requeued;
        sum.returned += w.returned;
        sum.processed += w.processed;
        sum.crashes += w.crashes;
        sum.polls += w.polls;
        sum.emptyPolls += w.emptyPolls;
        sum.busyNs += w.busyNs;
        sum.visibilityExpired += w.visibilityExpired;
    }
    table.separator();
    table.add({"total", n(sum.received), n(sum.redelivered), n(sum.acked), n(sum.rejected),
               n(sum.requeued), n(sum.returned), n(sum.processed), n(sum.crashes), n(sum.polls),
               n(sum.emptyPolls), fmt("%.2f", static_cast<double>(sum.busyNs) / 1e9), ""});
    out += table.render();
    out += '\n';
    if (!r.workers.empty()) {
        out += pollFairnessTable(r) + '\n';
    }

    const LedgerSummary& t = r.totals;
    TextTable totals({"totals", "count"});
    totals.add({"tasks sent", n(r.producer.sent)});
    totals.add({"send failed", n(r.producer.failed)});
    totals.add({"acked", n(t.count(MessageState::Acked))});
    totals.add({"  exactly once", n(t.exactlyOnce)});
    totals.add({"dead-lettered", n(t.count(MessageState::DeadLettered))});
    totals.add({"dropped (max receive, no DLQ)", n(t.count(MessageState::Dropped))});
    totals.add({"expired", n(t.count(MessageState::Expired))});
    if (t.count(MessageState::Purged) > 0) {  // only runs that purged show it
        totals.add({"purged", n(t.count(MessageState::Purged))});
    }
    if (r.tasksMoved > 0) {
        totals.add({"moved to another channel", n(r.tasksMoved)});
    }
    totals.add({"redelivered messages", n(t.redelivered)});
    totals.add({"  extra hand-outs", n(t.redeliveries)});
    totals.add({"processed more than once", n(t.processedMoreThanOnce)});
    totals.add({"acks lost", n(t.acksLost)});
    if (sum.visibilityExpired > 0) {  // only runs of v1-stream workers show it
        totals.add({"visibility ran out (v1)", n(sum.visibilityExpired)});
    }
    totals.add({"LOST (no end state)", n(r.tasksLost)});
    totals.add({"events recorded", n(r.eventsRecorded)});
    totals.add({"events dropped", n(r.eventsDropped)});
    if (r.elapsedSeconds > 0.0) {
        totals.add(
            {"acked per second",
             fmt("%.1f", static_cast<double>(t.count(MessageState::Acked)) / r.elapsedSeconds)});
    }
    out += totals.render();

    for (const std::string& w : r.warnings) {
        out += "warning: " + w + "\n";
    }
    if (!r.error.empty()) {
        out += "error: " + r.error + "\n";
    }
    if (r.tasksLost > 0) {
        out += "LOST tasks (first " + std::to_string(r.lostMessageIds.size()) + "):";
        for (const std::string& id : r.lostMessageIds) {
            out += " " + id;
        }
        out += "\n";
    }
    out += "Result: ";
    switch (r.exitCode()) {
        case 0:
            out += "OK - every task was acked, dead-lettered, dropped or expired\n";
            break;
        case 1:
            out += "FAILED - tasks were lost or could not be sent\n";
            break;
        default:
            out += "ERROR - the run did not complete\n";
            break;
    }
    return out;
}

}  // namespace qs::runner
