#include "analysis/handout_timing.h"

#include <algorithm>
#include <array>

#include "common/protocol_limits.h"

namespace qs::analysis {

std::string_view handOutTimingName(HandOutTiming timing) {
    static constexpr std::array<std::string_view, kHandOutTimingCount> kNames = {
        "in a full batch, at once", "after the wait timeout (batch not full)",
        "before the wait timeout with the batch not full", "poll not recorded"};
    return kNames[static_cast<std::size_t>(timing)];
}

HandOutTiming timingOf(const PollRecord& poll) {
    if (poll.requested <= 0) {
        return HandOutTiming::Unknown;  // its PollStarted was not recorded
    }
    if (poll.received >= poll.requested) {
        return HandOutTiming::FullBatch;
    }
    const std::int64_t waitMs =
        std::max<std::int64_t>(poll.waitMs, protocol::kDownstreamMinWaitMs);
    return poll.waitedMs * 10 >= waitMs * 9 ? HandOutTiming::AfterWaitTimeout
                                            : HandOutTiming::EarlyPartial;
}

HandOutTiming timingOf(const RecordedRun& run, const DeliveryRecord& delivery) {
    const PollRecord* poll = run.poll(delivery.worker, delivery.transaction);
    return poll == nullptr ? HandOutTiming::Unknown : timingOf(*poll);
}

}  // namespace qs::analysis
