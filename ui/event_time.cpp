#include "event_time.h"

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
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(monoToUnixMs(monoNs));
    return t.toString(millis ? QStringLiteral("HH:mm:ss.zzz") : QStringLiteral("HH:mm:ss"));
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
