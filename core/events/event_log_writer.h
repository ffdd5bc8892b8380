#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "events/event.h"

namespace qs {

enum class EventLogFormat : std::uint8_t {
    Csv,        // RFC 4180 quoting, header row, '\n' line ends
    JsonLines,  // one JSON object per line, keys = the column names
};

// The columns every event has, in order (docs/events.md describes each).
// time_ns is the event's monotonic time minus the writer's origin (e.g. the
// run start). After them come the kinds' own fields, by name
// (events/event_fields.h): a CSV has a column for each name of
// allEventFieldNames(), empty where the kind has no such field; a JSON line
// has the keys of its own kind only.
inline constexpr std::array<std::string_view, 9> kEventLogCommonColumns = {
    "time_ns",    "kind",     "source",        "actor",      "channel",
    "message_id", "sequence", "receive_count", "transaction"};

// Every CSV column, in order: the common ones, then allEventFieldNames().
std::vector<std::string_view> eventLogCsvColumns();

// One CSV field: quoted (with doubled quotes) when it holds a comma, a quote,
// CR or LF; otherwise unchanged.
std::string csvField(std::string_view text);

// Writes events to a stream as they come (a recorder appends each batch).
// The CSV header is written on construction. Strings that are not valid UTF-8
// cannot be JSON: they are written with U+FFFD replacements and counted.
//
// Threading: none; one thread uses a writer. Ownership: the stream is not
// owned and must outlive the writer.
class EventLogWriter {
public:
    EventLogWriter(std::ostream& out, EventLogFormat format, std::int64_t originNs = 0);

    // False once the stream has failed (disk full...): error() says so and
    // later writes do nothing.
    bool write(const Event& event);
    bool write(std::span<const Event> events);

    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }
    std::size_t written() const { return written_; }
    std::size_t invalidUtf8Events() const { return invalidUtf8_; }

private:
    bool checkStream();

    std::ostream& out_;
    EventLogFormat format_;
    std::int64_t originNs_;
    std::size_t written_ = 0;
    std::size_t invalidUtf8_ = 0;
    std::string error_;
};

struct EventLogResult {
    bool ok = true;
    std::string error;
    std::size_t written = 0;
    std::size_t invalidUtf8Events = 0;
};

// Whole-vector conveniences over EventLogWriter.
EventLogResult writeEventLog(std::ostream& out, EventLogFormat format,
                             std::span<const Event> events, std::int64_t originNs = 0);
EventLogResult writeEventsCsv(std::ostream& out, std::span<const Event> events,
                              std::int64_t originNs = 0);
EventLogResult writeEventsJsonLines(std::ostream& out, std::span<const Event> events,
                                    std::int64_t originNs = 0);

}  // namespace qs
