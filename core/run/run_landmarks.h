#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "events/event.h"

// The events of a run worth jumping to when going back and forth in time:
// a redelivery, a dead-lettering, a worker's crash, a marker (a configuration
// change). The console's transport bar jumps between them and draws them on
// its scrub bar; they are found in the Run's own events, nothing else.
namespace qs {

class Run;

enum class Landmark : std::uint8_t {
    Redelivery,  // Redelivered: a message handed out again
    DeadLetter,  // BrokerDeadLettered: moved to its dead-letter queue (or dropped)
    Crash,       // WorkerCrashed
    Marker,      // ConfigChanged: a setting changed mid-run
};
inline constexpr int kLandmarkCount = 4;

std::string_view landmarkName(Landmark landmark);  // "redelivery", "dead-letter", ...
std::optional<Landmark> landmarkOf(EventKind kind);  // nullopt: not a landmark
inline std::optional<Landmark> landmarkOf(const Event& event) { return landmarkOf(event.kind); }

// The first event at index >= `from` that is a `landmark`, as an index for
// Run::event(); nullopt = none up to the run's newest event. O(events scanned).
std::optional<std::uint64_t> nextLandmark(const Run& run, std::uint64_t from, Landmark landmark);
// The last event at index < `before` that is a `landmark`; nullopt = none.
std::optional<std::uint64_t> previousLandmark(const Run& run, std::uint64_t before,
                                              Landmark landmark);

}  // namespace qs
