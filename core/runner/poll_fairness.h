#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "events/ledger.h"

// How well a pool's polls were used and how evenly its workers shared the
// work, from the ledger's per-worker statistics (one truth: the same numbers
// the summary's worker table shows). Pure functions; any thread.
namespace qs::runner {

struct WorkerPollFairness {
    std::string worker;
    std::uint64_t polls = 0;
    std::uint64_t emptyPolls = 0;
    double messagesPerPoll = 0.0;  // received / polls (0 without polls)
    double waitSeconds = 0.0;      // time spent waiting in polls
    double share = 0.0;            // its part of all deliveries, 0..1
    double fairShare = 0.0;        // 1 / workers
    std::uint64_t maxHeld = 0;     // most messages it held unsettled at once
    std::uint64_t emptyPollsWhileOthersHeld = 0;
    std::uint64_t heldByOthersAtEmptyPolls = 0;
};

struct PollFairness {
    std::vector<WorkerPollFairness> workers;
    // Jain's fairness index over the workers' deliveries: (Σx)² / (n·Σx²),
    // 1 = all equal, 1/n = one worker got everything; 0 with no deliveries.
    double jainIndex = 0.0;
    std::uint64_t polls = 0;
    std::uint64_t emptyPolls = 0;
    double emptyPollsPerSecond = 0.0;  // over the run's elapsed time (0 when unknown)
    std::uint64_t emptyPollsWhileOthersHeld = 0;
};

// elapsedSeconds <= 0: rates per second are left 0.
PollFairness computePollFairness(const std::vector<WorkerStats>& workers, double elapsedSeconds);

// (Σx)² / (n·Σx²) for the values; 0 for none or all zero.
double jainFairnessIndex(const std::vector<double>& values);

}  // namespace qs::runner
