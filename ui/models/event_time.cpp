#include "models/event_time.h"

#include <QDateTime>
#include <cstdio>
#include <limits>

#include "common/clock.h"

namespace qs::ui {

namespace {
std::int64_t offsetNs() {
    static const std::int64_t offset = qs::unixNanos() - qs::monotonicNanos();
    return offset;
}
}  // namespace

std::int64_t monoToUnixMs(std::int64_t monoNs) {
    return (monoNs + offsetNs()) / 1'000'000;
}

QString formatClock(std::int64_t monoNs, bool millis) {
    // Tables format thousands of times a second; the time zone lookup behind
    // QDateTime::toString is done once per minute instead of per call.
    const std::int64_t ms = monoToUnixMs(monoNs);
    const std::int64_t minute = ms >= 0 ? ms / 60'000 : (ms - 59'999) / 60'000;
    thread_local std::int64_t cachedMinute = std::numeric_limits<std::int64_t>::min();
    thread_local std::int64_t cachedOffsetMs = 0;
    if (minute != cachedMinute) {
        cachedMinute = minute;
        cachedOffsetMs =
            static_cast<std::int64_t>(QDateTime::fromMSecsSinceEpoch(ms).offsetFromUtc()) * 1000;
    }
    const std::int64_t dayMs = 86'400'000;
    const std::int64_t local = ((ms + cachedOffsetMs) % dayMs + dayMs) % dayMs;
    const auto h = static_cast<int>(local / 3'600'000);
    const auto m = static_cast<int>(local / 60'000 % 60);
    const auto sec = static_cast<int>(local / 1000 % 60);
    const auto milli = static_cast<int>(local % 1000);
    char text[16];
    const int n = millis ? std::snprintf(text, sizeof text, "%02d:%02d:%02d.%03d", h, m, sec, milli)
                         : std::snprintf(text, sizeof text, "%02d:%02d:%02d", h, m, sec);
    return QString::fromLatin1(text, n);
}

QString formatDurationNs(std::int64_t ns) {
    if (ns < 0) {
        return QStringLiteral("–");
    }
    if (ns < 1'000'000) {
        return QString::number(ns / 1000) + QStringLiteral(" µs");
    }
    if (ns < 10'000'000'000LL) {
        const double ms = static_cast<double>(ns) / 1e6;
        if (ms < 1000.0) {
            return QString::number(ms, 'f', ms < 10 ? 1 : 0) + QStringLiteral(" ms");
        }
        return QString::number(ms / 1000.0, 'f', 2) + QStringLiteral(" s");
    }
    return QString::number(static_cast<double>(ns) / 1e9, 'f', 1) + QStringLiteral(" s");
}

}  // namespace qs::ui
