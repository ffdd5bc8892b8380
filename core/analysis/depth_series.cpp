#include "analysis/depth_series.h"

#include <algorithm>

namespace qs::analysis {

std::vector<DepthSample> downsample(const std::vector<DepthSample>& samples, std::int64_t endNs,
                                    std::size_t maxPoints) {
    if (samples.size() <= maxPoints || maxPoints < 2 || endNs <= 0) {
        return samples;
    }
    const std::int64_t stretch =
        std::max<std::int64_t>(1, endNs / static_cast<std::int64_t>(maxPoints));
    std::vector<DepthSample> out;
    out.reserve(maxPoints + 2);
    out.push_back(samples.front());
    for (std::size_t i = 1; i + 1 < samples.size(); ++i) {
        // Kept when the next sample falls in a later stretch: the last of its own.
        if (samples[i].timeNs / stretch != samples[i + 1].timeNs / stretch) {
            out.push_back(samples[i]);
        }
    }
    out.push_back(samples.back());
    return out;
}

}  // namespace qs::analysis
