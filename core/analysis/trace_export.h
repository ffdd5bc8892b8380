#pragma once

#include <cstddef>
#include <iosfwd>

#include "analysis/recorded_run.h"

// A recorded run as Chrome trace-event JSON (the "Trace Event Format"), for
// Perfetto (ui.perfetto.dev) and chrome://tracing:
// - one thread track per worker (tid), named after it; a hand-out that
//   overlaps another of the same worker without nesting in it (messages taken
//   one by one while older ones are still held) goes to an extra track of
//   that worker, "worker-2 ·2", "worker-2 ·3"...;
// - one complete slice ("X") per delivery, from hand-out to how it ended,
//   named and coloured (cname) by that end (acked, rejected, dead-lettered,
//   crashed...), its task, message id and receive count in args;
// - flows linking each message's hand-outs in order, across workers: carried
//   by the slices themselves ("bind_id" = the message's number in the run,
//   "flow_out" on all but its last hand-out, "flow_in" on all but its first),
//   so each arrow binds to exactly its two slices;
// - an instant ("i") on a worker's track where it crashed;
// - counter tracks ("C") of each channel's depth: waiting, in flight, delayed
//   (at most kMaxCounterSamples per channel: the last value of each stretch).
// Timestamps are microseconds since the recording's origin.
namespace qs::analysis {

struct TraceStats {
    std::size_t workerTracks = 0;  // tids of workers (their extra tracks included)
    std::size_t slices = 0;
    std::size_t flowArrows = 0;  // hand-out to next hand-out of the same message
    std::size_t counterEvents = 0;
};

inline constexpr std::size_t kMaxCounterSamples = 20000;

// Writes the whole document to `out` (check out's state for write errors).
TraceStats writeTrace(const RecordedRun& run, std::ostream& out);

}  // namespace qs::analysis
