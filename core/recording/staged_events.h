#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/name.h"
#include "events/event.h"

// Staged events: a busy stretch of a run written as one compact blob per
// commit (the staged_events table, docs/recording.md) instead of one row per
// event, so the writer keeps up for a fraction of the CPU; the writer copies
// them into the events table once the run is calm, and at the latest when it
// closes. A reader decodes the blobs a killed run left behind.
//
// A blob is self-contained: per event, in protobuf varints (zigzag for signed
// numbers), the time since the previous event of the blob (relative to the
// recording's origin), kind, source, the actor's and channel's ids in the
// names table (0 = none), a flags byte saying which of message id,
// transaction and detail differ from the previous event's (then their length
// and bytes follow), sequence, receive count, value and count2.
namespace qs::recording {

// Appends the encoding of `events` to `out`. `nameIds` maps every actor and
// channel of the events (empty names excepted) to its names-table id.
void encodeStagedEvents(const std::vector<Event>& events, std::int64_t originNs,
                        const std::unordered_map<Name, std::int64_t>& nameIds, std::string& out);

// Decodes `count` events from `blob`, calling `visit` with each in order;
// `names` maps names-table ids back (index 0 unused). False with *error
// saying what is wrong when the blob is damaged (truncated, unknown kind,
// an id not in `names`, bytes left over); events already visited stay visited.
bool decodeStagedEvents(std::string_view blob, std::uint64_t count, std::int64_t originNs,
                        const std::vector<Name>& names,
                        const std::function<void(const Event&)>& visit, std::string* error);

}  // namespace qs::recording
