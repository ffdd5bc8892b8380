#pragma once

#include <sys/resource.h>
#include <sys/time.h>

#include <algorithm>
#include <cstddef>
#include <vector>

// What every benchmark executable measures and reports the same way.
namespace qs::bench {

// User + system CPU seconds of this whole process (all threads).
inline double processCpuSeconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    auto seconds = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
    };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// Single runs on a shared 2-core machine vary by tens of per cent: report medians.
inline double median(std::vector<double> values) {
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

}  // namespace qs::bench
