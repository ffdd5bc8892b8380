#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "events/ledger.h"

// A message's journey: each hand-out (delivery) from the moment a worker got
// it to the moment that hand-out ended, and how it ended, read from the
// ledger's DeliveryRecords (the ledger decides; this only names the result,
// adding what the message's end state tells of its last hand-out).
namespace qs::analysis {

enum class DeliveryEnd : std::uint8_t {
    Acked,
    Rejected,      // NAck: a new copy at the tail with receive count + 1
    DeadLettered,  // the NAck that reached the max receive count: moved to the dead-letter queue
    Dropped,       // that NAck with no dead-letter queue: the broker dropped the message
    Requeued,      // moved to another channel
    Returned,      // went back unchanged (stream end, close)
    Crashed,       // went back unchanged because its worker crashed
    Expired,       // the message expired before this hand-out was settled
    Superseded,    // handed out again before this hand-out was seen to end
    Unsettled,     // still open when the recording ended
};
inline constexpr int kDeliveryEndCount = 10;
std::string_view deliveryEndName(DeliveryEnd end);

struct JourneyStep {
    std::string worker;
    std::string channel;
    std::int64_t startNs = 0;  // monotonic, as Event::timeNs
    std::int64_t endNs = 0;    // when it ended; for Unsettled, the run's end
    bool endSeen = false;      // endNs is the settlement's own time (not inferred)
    std::int32_t receiveCount = 0;
    DeliveryEnd end = DeliveryEnd::Unsettled;
};

// The message's hand-outs, oldest first. `runEndNs` (monotonic) closes the
// open ones. Hand-outs whose assignment was never seen start at their first
// known time (work start, settlement).
std::vector<JourneyStep> journeyOf(const MessageRecord& message, std::int64_t runEndNs);

}  // namespace qs::analysis
