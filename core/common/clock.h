#pragma once

#include <cstdint>

// Two clocks, deliberately distinct: the monotonic one orders events on one
// timeline (never jumps); the wall clock is what KubeMQ puts on the wire.
// Both are safe to call from any thread.
namespace qs {

// Nanoseconds of std::chrono::steady_clock since an unspecified epoch.
std::int64_t monotonicNanos();

// Unix time in nanoseconds (system_clock).
std::int64_t unixNanos();

// Unix time in whole seconds.
std::int64_t unixSeconds();

}  // namespace qs
