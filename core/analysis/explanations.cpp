#include "analysis/explanations.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>

namespace qs::analysis {

std::string atTime(std::int64_t ns) {
    char text[40];
    std::snprintf(text, sizeof text, "t=%.3f s", static_cast<double>(ns) / 1e9);
    return text;
}

bool isNotable(const MessageRecord& m) {
    return m.deliveryCount > 1 || m.state != MessageState::Acked;
}

namespace {

std::string receiveCount(std::int32_t rc) {
    return rc > 0 ? " (receive count " + std::to_string(rc) + ")" : "";
}

std::int32_t maxReceiveCount(const RecordedRun& run) {
    const int fromPolicy = run.scenario().tasks.policy.maxReceiveCount;
    return fromPolicy > 0 ? fromPolicy : run.summary().ledgerOptions.maxReceiveCount;
}

std::string limitText(const RecordedRun& run) {
    const std::int32_t limit = maxReceiveCount(run);
    return limit > 0 ? "the max receive count (" + std::to_string(limit) + ")"
                     : "the max receive count";
}

std::string stepSentence(const RecordedRun& run, const MessageRecord& m, const JourneyStep& s) {
    const std::string got = s.worker + " got it at " + atTime(run.sinceOrigin(s.startNs)) +
                            receiveCount(s.receiveCount);
    const std::string at = atTime(run.sinceOrigin(s.endNs));
    switch (s.end) {
        case DeliveryEnd::Acked:
            return got + " and acked it at " + at + ".";
        case DeliveryEnd::Rejected:
            return got + " and rejected it at " + at +
                   ": the broker put a new copy at the tail of " + s.channel +
                   " with its receive count one higher.";
        case DeliveryEnd::DeadLettered:
            return got + " and rejected it at " + at + "; that reached " + limitText(run) +
                   ", so the broker moved it to the dead-letter queue" +
                   (m.endDetail.empty() ? std::string() : " " + m.endDetail) +
                   (m.deadLetterInferred ? " (inferred from that rule: the server did not say)"
                                         : "") +
                   ".";
        case DeliveryEnd::Dropped:
            return got + " and rejected it at " + at + "; that reached " + limitText(run) +
                   " and no dead-letter queue was set, so the broker dropped it.";
        case DeliveryEnd::Requeued:
            return got + " and moved it to another channel at " + at + ".";
        case DeliveryEnd::Returned:
            return got + "; its stream ended at " + at +
                   " without settling it, so the message went back to the queue unchanged.";
        case DeliveryEnd::Crashed:
            return got + " and crashed at " + at +
                   " before settling it: the message went back to the queue unchanged (same "
                   "receive count).";
        case DeliveryEnd::Expired:
            return got + "; the message expired at " + at + " before it was settled.";
        case DeliveryEnd::Superseded:
            return got + "; the broker handed it out again at " + at +
                   " before that hand-out was seen to end.";
        case DeliveryEnd::Unsettled:
            return got + " and still held it when the recording ended (" + at + ").";
    }
    return got + ".";
}

}  // namespace

std::vector<std::string> explainMessage(const RecordedRun& run, const MessageRecord& m) {
    std::vector<std::string> lines;
    const std::string name = run.taskName(m);
    if (m.sentNs != 0) {
        lines.push_back(name + " was sent at " + atTime(run.sinceOrigin(m.sentNs)) + " to " +
                        (m.deliveries.empty() ? m.channel : m.deliveries.front().channel).str() + ".");
    } else {
        lines.push_back(name + " was first seen at " + atTime(run.sinceOrigin(m.firstSeenNs)) +
                        " (not sent by this run's producer).");
    }
    const std::vector<JourneyStep> steps = run.journey(m);
    for (const JourneyStep& s : steps) {
        lines.push_back(stepSentence(run, m, s));
    }
    if (m.deliveryCount > 1) {
        lines.push_back("It was handed out " + std::to_string(m.deliveryCount) + " times (" +
                        std::to_string(m.redeliveryCount()) +
                        (m.redeliveryCount() == 1 ? " redelivery" : " redeliveries") + ").");
    }
    const bool lastSaysEnd =
        !steps.empty() &&
        (steps.back().end == DeliveryEnd::Acked || steps.back().end == DeliveryEnd::DeadLettered ||
         steps.back().end == DeliveryEnd::Dropped || steps.back().end == DeliveryEnd::Expired);
    if (!lastSaysEnd) {
        if (m.state == MessageState::Expired) {
            lines.push_back("It expired at " + atTime(run.sinceOrigin(m.endedNs)) +
                            " while waiting.");
        } else if (m.state == MessageState::Purged) {
            lines.push_back("It was purged at " + atTime(run.sinceOrigin(m.endedNs)) + ".");
        } else if (m.state == MessageState::SendFailed) {
            lines.push_back("Its send failed: " + m.endDetail);
        } else if (!isTerminal(m.state)) {
            lines.push_back("It has no end state: the recording ends with it " +
                            std::string(messageStateName(m.state)) + " in " + m.channel.str() + ".");
        } else {
            lines.push_back("It ended " + std::string(messageStateName(m.state)) + ".");
        }
    }
    return lines;
}

std::vector<std::string> explainCrashes(const RecordedRun& run) {
    const std::vector<WorkerCrash>& crashes = run.crashes();
    // crash index -> (task returned, who got it next)
    std::map<std::size_t, std::vector<std::pair<std::string, std::string>>> held;
    for (const MessageRecord* m : run.messages()) {
        const std::vector<JourneyStep> steps = run.journey(*m);
        for (std::size_t i = 0; i < steps.size(); ++i) {
            if (steps[i].end != DeliveryEnd::Crashed) {
                continue;
            }
            // The crash of that worker nearest in time to this hand-out's end.
            std::size_t best = crashes.size();
            std::int64_t bestGap = 0;
            for (std::size_t c = 0; c < crashes.size(); ++c) {
                const std::int64_t gap =
                    std::llabs(crashes[c].timeNs - run.sinceOrigin(steps[i].endNs));
                if (crashes[c].worker == steps[i].worker &&
                    (best == crashes.size() || gap < bestGap)) {
                    best = c;
                    bestGap = gap;
                }
            }
            held[best].emplace_back(run.taskName(*m),
                                    i + 1 < steps.size() ? steps[i + 1].worker : std::string());
        }
    }
    std::vector<std::string> lines;
    for (std::size_t c = 0; c < crashes.size(); ++c) {
        const auto& tasks = held[c];
        std::string line = crashes[c].worker + " crashed at " + atTime(crashes[c].timeNs);
        if (tasks.empty()) {
            lines.push_back(line + " holding no unsettled task.");
            continue;
        }
        line += " holding " + std::to_string(tasks.size()) +
                (tasks.size() == 1 ? " unsettled task: " : " unsettled tasks: ");
        for (std::size_t i = 0; i < tasks.size(); ++i) {
            line += (i == 0 ? "" : "; ") + tasks[i].first +
                    (tasks[i].second.empty() ? " (never handed out again)"
                                             : " went to " + tasks[i].second);
        }
        lines.push_back(line + ".");
    }
    return lines;
}

std::vector<std::string> explainReturns(const RecordedRun& run) {
    struct Returns {
        std::size_t count = 0;
        std::int64_t firstNs = 0;
    };
    std::map<std::string, Returns> byWorker;
    for (const MessageRecord* m : run.messages()) {
        for (const JourneyStep& s : run.journey(*m)) {
            if (s.end == DeliveryEnd::Returned) {
                Returns& r = byWorker[s.worker];
                r.firstNs = r.count == 0 ? s.endNs : std::min(r.firstNs, s.endNs);
                ++r.count;
            }
        }
    }
    std::vector<std::string> lines;
    for (const auto& [worker, r] : byWorker) {
        lines.push_back(worker + " let " + std::to_string(r.count) +
                        (r.count == 1 ? " hand-out" : " hand-outs") +
                        " go back unsettled without crashing (its stream ended or it closed; "
                        "the first at " +
                        atTime(run.sinceOrigin(r.firstNs)) +
                        "): the broker put them back in the queue unchanged.");
    }
    return lines;
}

}  // namespace qs::analysis
