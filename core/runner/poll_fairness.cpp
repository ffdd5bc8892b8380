#include "runner/poll_fairness.h"

namespace qs::runner {

double jainFairnessIndex(const std::vector<double>& values) {
    double sum = 0.0;
    double squares = 0.0;
    for (double v : values) {
        sum += v;
        squares += v * v;
    }
    if (values.empty() || squares <= 0.0) {
        return 0.0;
    }
    return sum * sum / (static_cast<double>(values.size()) * squares);
}

PollFairness computePollFairness(const std::vector<WorkerStats>& workers, double elapsedSeconds) {
    PollFairness out;
    std::uint64_t delivered = 0;
    std::vector<double> received;
    for (const WorkerStats& w : workers) {
        delivered += w.received;
        received.push_back(static_cast<double>(w.received));
    }
    const double fair = workers.empty() ? 0.0 : 1.0 / static_cast<double>(workers.size());
    for (const WorkerStats& w : workers) {
        WorkerPollFairness f;
        f.worker = w.worker;
        f.polls = w.polls;
        f.emptyPolls = w.emptyPolls;
        f.messagesPerPoll =
            w.polls > 0 ? static_cast<double>(w.received) / static_cast<double>(w.polls) : 0.0;
        f.waitSeconds = static_cast<double>(w.pollWaitNs) / 1e9;
        f.share =
            delivered > 0 ? static_cast<double>(w.received) / static_cast<double>(delivered) : 0.0;
        f.fairShare = fair;
        f.maxHeld = w.maxHeld;
        f.emptyPollsWhileOthersHeld = w.emptyPollsWhileOthersHeld;
        f.heldByOthersAtEmptyPolls = w.heldByOthersAtEmptyPolls;
        out.polls += w.polls;
        out.emptyPolls += w.emptyPolls;
        out.emptyPollsWhileOthersHeld += w.emptyPollsWhileOthersHeld;
        out.workers.push_back(std::move(f));
    }
    out.jainIndex = jainFairnessIndex(received);
    if (elapsedSeconds > 0.0) {
        out.emptyPollsPerSecond = static_cast<double>(out.emptyPolls) / elapsedSeconds;
    }
    return out;
}

}  // namespace qs::runner
