#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "events/event.h"

namespace qs {

// Reads back what EventLogWriter wrote as JSON Lines (a recorded session).
// Every key is optional except "kind"; unknown keys are ignored so newer logs
// stay readable. time_ns + originNs becomes Event::timeNs.

// One line; nullopt with *error set (if given) when it is not a valid event.
std::optional<Event> parseEventJsonLine(std::string_view line, std::int64_t originNs = 0,
                                        std::string* error = nullptr);

struct EventLogReadResult {
    bool ok = true;
    std::string error;  // "line N: ..." for the first bad line
    std::size_t read = 0;
};

// Appends every event to `out`; stops at the first bad line (events before it
// are kept) so nothing is silently skipped. Blank lines are allowed.
EventLogReadResult readEventsJsonLines(std::istream& in, std::vector<Event>& out,
                                       std::int64_t originNs = 0);

}  // namespace qs
