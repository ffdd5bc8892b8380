#include "events/latency_samples.h"

#include <algorithm>

namespace qs {
namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// Nearest rank: index of the ceil(p/100 * n)-th smallest sample.
std::size_t rankIndex(std::size_t n, unsigned percent) {
    const std::size_t rank = (n * percent + 99) / 100;
    return rank == 0 ? 0 : rank - 1;
}

}  // namespace

LatencySamples::LatencySamples(std::size_t cap) : cap_(std::max<std::size_t>(cap, 1)) {}

void LatencySamples::add(std::int64_t ns) {
    ++count_;
    sumNs_ += static_cast<double>(ns);
    if (count_ == 1) {
        min_ = max_ = ns;
    } else {
        min_ = std::min(min_, ns);
        max_ = std::max(max_, ns);
    }
    if (samples_.size() < cap_) {
        samples_.push_back(ns);
    } else {
        const std::uint64_t j = splitmix64(rng_) % count_;
        if (j < cap_)
            samples_[j] = ns;
    }
    cacheValid_ = false;
}

LatencyStats LatencySamples::stats() const {
    if (cacheValid_)
        return cache_;
    LatencyStats s;
    s.count = count_;
    if (count_ > 0) {
        s.meanNs = sumNs_ / static_cast<double>(count_);
        s.minNs = min_;
        s.maxNs = max_;
        std::vector<std::int64_t> sorted = samples_;
        std::sort(sorted.begin(), sorted.end());
        s.p50Ns = sorted[rankIndex(sorted.size(), 50)];
        s.p95Ns = sorted[rankIndex(sorted.size(), 95)];
        s.estimated = count_ > samples_.size();
    }
    cache_ = s;
    cacheValid_ = true;
    return s;
}

}  // namespace qs
