#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/recorded_run.h"

namespace qs::analysis {

// At most about `maxPoints` samples of `samples` (oldest first) over
// [0, endNs]: the first sample, then the last one of each of maxPoints equal
// stretches of time, then the last sample. Fewer samples come back as they are.
std::vector<DepthSample> downsample(const std::vector<DepthSample>& samples, std::int64_t endNs,
                                    std::size_t maxPoints);

}  // namespace qs::analysis
