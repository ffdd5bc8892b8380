#include "analysis/journey.h"

#include <algorithm>
#include <array>

namespace qs::analysis {

std::string_view deliveryEndName(DeliveryEnd end) {
    static constexpr std::array<std::string_view, kDeliveryEndCount> kNames = {
        "acked",    "rejected", "dead-lettered", "dropped",    "requeued",
        "returned", "crashed",  "expired",       "superseded", "unsettled"};
    return kNames[static_cast<std::size_t>(end)];
}

namespace {

DeliveryEnd endOf(const MessageRecord& m, const DeliveryRecord& d, bool last) {
    switch (d.outcome) {
        case DeliveryOutcome::Acked:
            return DeliveryEnd::Acked;
        case DeliveryOutcome::Rejected:
            if (last && m.state == MessageState::DeadLettered) {
                return DeliveryEnd::DeadLettered;
            }
            if (last && m.state == MessageState::Dropped) {
                return DeliveryEnd::Dropped;
            }
            return DeliveryEnd::Rejected;
        case DeliveryOutcome::Requeued:
            return DeliveryEnd::Requeued;
        case DeliveryOutcome::Returned:
            return d.workerCrashed ? DeliveryEnd::Crashed : DeliveryEnd::Returned;
        case DeliveryOutcome::Superseded:
            return DeliveryEnd::Superseded;
        case DeliveryOutcome::Open:
            break;
    }
    return last && m.state == MessageState::Expired ? DeliveryEnd::Expired : DeliveryEnd::Unsettled;
}

std::int64_t firstKnownTime(const DeliveryRecord& d) {
    for (std::int64_t t : {d.assignedNs, d.workStartNs, d.workEndNs, d.settledNs}) {
        if (t != 0) {
            return t;
        }
    }
    return 0;
}

}  // namespace

std::vector<JourneyStep> journeyOf(const MessageRecord& m, std::int64_t runEndNs) {
    std::vector<JourneyStep> steps;
    steps.reserve(m.deliveries.size());
    for (std::size_t i = 0; i < m.deliveries.size(); ++i) {
        const DeliveryRecord& d = m.deliveries[i];
        const bool last = i + 1 == m.deliveries.size();
        JourneyStep s;
        s.worker = d.worker;
        s.channel = d.channel;
        s.receiveCount = d.receiveCount;
        s.end = endOf(m, d, last);
        s.startNs = firstKnownTime(d);
        s.endSeen = d.settledNs != 0;
        if (d.settledNs != 0) {
            s.endNs = d.settledNs;
        } else if (!last) {
            // Superseded: it ended, unseen, before the next hand-out.
            s.endNs = firstKnownTime(m.deliveries[i + 1]);
        } else if (s.end == DeliveryEnd::Expired && m.endedNs != 0) {
            s.endNs = m.endedNs;
        } else {
            s.endNs = runEndNs;
        }
        if (s.startNs == 0) {
            s.startNs = s.endNs;
        }
        s.endNs = std::max(s.endNs, s.startNs);
        steps.push_back(std::move(s));
    }
    return steps;
}

}  // namespace qs::analysis
