#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace qs {

struct LatencyStats {
    std::uint64_t count = 0;  // every sample ever added
    double meanNs = 0;        // exact over all samples
    std::int64_t minNs = 0;   // exact
    std::int64_t maxNs = 0;   // exact
    std::int64_t p50Ns = 0;   // nearest-rank percentiles
    std::int64_t p95Ns = 0;
    bool estimated = false;  // percentiles come from a sample (count > cap)
};

// Latency distribution with bounded memory. Up to `cap` samples the
// percentiles are exact (nearest rank: the smallest sample with at least p% of
// samples at or below it); beyond that a uniform reservoir of `cap` samples
// (Algorithm R, fixed seed, so results are reproducible) estimates them.
// Count, mean, min and max are always exact.
//
// Threading: none; owned by one thread (see Ledger).
class LatencySamples {
public:
    static constexpr std::size_t kDefaultCap = 16384;

    explicit LatencySamples(std::size_t cap = kDefaultCap);

    void add(std::int64_t ns);
    // Sorting cost O(cap log cap), cached until the next add().
    LatencyStats stats() const;
    std::uint64_t count() const { return count_; }

private:
    std::size_t cap_;
    std::vector<std::int64_t> samples_;
    std::uint64_t count_ = 0;
    double sumNs_ = 0;
    std::int64_t min_ = 0;
    std::int64_t max_ = 0;
    std::uint64_t rng_ = 0x9E3779B97F4A7C15ULL;
    mutable bool cacheValid_ = false;
    mutable LatencyStats cache_;
};

}  // namespace qs
