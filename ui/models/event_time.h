#pragma once

#include <QDateTime>
#include <QString>
#include <cstdint>

// Events carry monotonic nanoseconds; people read wall-clock times. One
// offset, taken once at start-up, converts between the two so every view
// prints the same clock. Safe from any thread after the first call.
namespace qs::ui {

std::int64_t monoToUnixMs(std::int64_t monoNs);
QString formatClock(std::int64_t monoNs, bool millis = false);  // "12:01:07" / "12:01:07.123"
QString formatDurationNs(std::int64_t ns);                      // "850 ms", "1.2 s", "35 µs"

}  // namespace qs::ui
