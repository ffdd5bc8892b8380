#include "run/run_landmarks.h"

#include <algorithm>

#include "run/run.h"

namespace qs {

std::string_view landmarkName(Landmark landmark) {
    switch (landmark) {
        case Landmark::Redelivery:
            return "redelivery";
        case Landmark::DeadLetter:
            return "dead-letter";
        case Landmark::Crash:
            return "crash";
        case Landmark::Marker:
            return "marker";
    }
    return "landmark";
}

std::optional<Landmark> landmarkOf(EventKind kind) {
    switch (kind) {
        case EventKind::Redelivered:
            return Landmark::Redelivery;
        case EventKind::BrokerDeadLettered:
            return Landmark::DeadLetter;
        case EventKind::WorkerCrashed:
            return Landmark::Crash;
        case EventKind::ConfigChanged:
            return Landmark::Marker;
        default:
            return std::nullopt;
    }
}

std::optional<std::uint64_t> nextLandmark(const Run& run, std::uint64_t from, Landmark landmark) {
    for (std::uint64_t i = from; i < run.eventCount(); ++i) {
        if (landmarkOf(run.eventKind(i)) == landmark) {
            return i;
        }
    }
    return std::nullopt;
}

std::optional<std::uint64_t> previousLandmark(const Run& run, std::uint64_t before,
                                              Landmark landmark) {
    for (std::uint64_t i = std::min(before, run.eventCount()); i > 0; --i) {
        if (landmarkOf(run.eventKind(i - 1)) == landmark) {
            return i - 1;
        }
    }
    return std::nullopt;
}

}  // namespace qs
