#pragma once

#include <cstdint>
#include <string_view>

#include "analysis/recorded_run.h"

// When a hand-out reached its worker, judged from the worker's own poll
// (RecordedRun::poll), never from the broker's events: a run on the embedded
// broker (which reports its own events) and one on a server that reports
// nothing are then classed alike. A downstream Get returns as soon as its
// batch is full, otherwise only when its wait timeout runs out (spec §2.8.2),
// so a hand-out came either in a full batch, at once, or with a batch that
// waited out its timeout; a partial batch before the timeout is what no
// KubeMQ server does.
namespace qs::analysis {

enum class HandOutTiming : std::uint8_t {
    FullBatch,         // the poll's batch filled up: answered at once
    AfterWaitTimeout,  // fewer than asked for, answered when the wait timeout ran out
    EarlyPartial,      // fewer than asked for, answered before the wait timeout
    Unknown,           // the worker's poll was not recorded
};
inline constexpr int kHandOutTimingCount = 4;
std::string_view handOutTimingName(HandOutTiming timing);

// The timing class of a poll; the wait timeout is taken at the downstream
// floor (1 s, protocol_limits.h) both brokers apply, and a poll counts as
// having waited it out from 90 % of it on (a loaded machine only waits longer).
HandOutTiming timingOf(const PollRecord& poll);
HandOutTiming timingOf(const RecordedRun& run, const DeliveryRecord& delivery);

}  // namespace qs::analysis
