#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/name.h"
#include "common/short_text.h"

// What the Ledger (events/ledger.h) knows of one message: plain values.
namespace qs {

// Where a message is now, as far as the events tell.
enum class MessageState : std::uint8_t {
    Waiting,       // stored and not reserved (also: back in the queue after a NAck / return)
    Delayed,       // held back until its DelayedTo
    InFlight,      // reserved to a worker, not settled
    Acked,         // done (terminal)
    DeadLettered,  // moved to the dead-letter queue after MaxReceiveCount (terminal)
    Dropped,       // over MaxReceiveCount with no dead-letter queue (terminal)
    Expired,       // removed by the broker after ExpirationAt (terminal)
    SendFailed,    // the send was refused (terminal)
    // Added after the first recordings (new states go at the end).
    Purged,  // removed while waiting by a purge (AckAllQueueMessages), never handed out
             // by it: not acked, not exactly-once (terminal)
};
inline constexpr int kMessageStateCount = 9;
// Named *Name rather than toString: a qs::toString overload returning
// string_view would hide QTest's printer, so QCOMPARE on these enums would not
// compile.
std::string_view messageStateName(MessageState state);
bool isTerminal(MessageState state);

// How one hand-out of a message ended.
enum class DeliveryOutcome : std::uint8_t {
    Open,  // not settled yet
    Acked,
    Rejected,    // NAck: re-enqueued at the tail with receive count + 1, or dead-lettered
    Requeued,    // moved to another channel
    Returned,    // went back unchanged: stream end, CloseByClient, worker crash
    Superseded,  // the message was handed out again before this delivery was seen to end
                 // (a late report of how it ended, BrokerReturned, a NAck or a re-queue,
                 // turns it into that outcome)
};
std::string_view deliveryOutcomeName(DeliveryOutcome outcome);

// One per hand-out, kept by the hundred thousand (a reopened million-event
// run): the texts are a Name (4 bytes) and a ShortText (a transaction id
// inline), so a record is 104 bytes with nothing on the heap.
struct DeliveryRecord {
    ShortText transaction;
    Name worker;  // the worker's actor / the broker's client id
    Name channel;
    std::uint64_t sequence = 0;
    std::int64_t assignedNs = 0;  // 0 = the assignment itself was never seen
    std::int64_t workStartNs = 0;
    std::int64_t workEndNs = 0;
    std::int64_t settledNs = 0;
    DeliveryOutcome outcome = DeliveryOutcome::Open;
    bool redelivery = false;     // the message had been handed out before
    bool ackLost = false;        // the worker acked, yet the broker returned / re-sent this copy
    bool workerCrashed = false;  // ended because its worker crashed
    // Ended by the v1 stream's visibility timer, not by its worker: the broker
    // took it back (tail, receive count + 1); the outcome reads Rejected.
    // Known from the broker's BrokerNacked (reason) or the worker's own
    // VisibilityExpired (its late ack failed), whichever comes first.
    bool visibilityExpired = false;
    bool seenByClient = false;   // reported by the worker (MessageAssigned...)
    bool seenByBroker = false;   // reported by the broker observer (BrokerDelivered...)
    bool clientSettled = false;
    bool brokerSettled = false;
    std::int32_t receiveCount = 0;  // here, not by sequence: no padding (a record per hand-out)
};

struct MessageRecord {
    ShortText messageId;  // inline up to 36 bytes (a UUID)
    // 0 for the first record this ledger made, then 1, 2... never reused: a
    // message forgotten (maxFinishedMessages) and seen again gets a new one.
    std::uint64_t ordinal = 0;
    Name channel;  // where the message (or its latest copy) lives now
    MessageState state = MessageState::Waiting;
    bool deadLetterInferred = false;  // dead-lettered by the MaxReceiveCount rule, not seen
    std::uint64_t sequence = 0;  // latest known stored sequence (changes on NAck)
    std::int64_t sentNs = 0;     // TaskSent time; 0 = not seen
    std::int64_t firstSeenNs = 0;
    std::int64_t endedNs = 0;               // when it last entered a terminal state
    std::uint32_t deliveryCount = 0;        // every hand-out, including omitted history
    std::uint32_t processedCount = 0;       // WorkFinished seen
    std::uint32_t omittedDeliveries = 0;    // oldest history entries dropped to bound memory
    std::uint32_t peekCount = 0;            // peeks that saw it (BrokerPeeked): not hand-outs
    std::int64_t lastPeekedNs = 0;          // 0 = never peeked
    std::string endDetail;                  // dead-letter channel, send error, who purged...
    // Oldest first, at most maxDeliveriesPerMessage. A vector, not a deque: a
    // deque's first block is 512 bytes however few it holds, and most messages
    // have one or two (a million-event run: 68 MB of deques for 125,000 messages).
    std::vector<DeliveryRecord> deliveries;

    std::uint32_t redeliveryCount() const { return deliveryCount > 0 ? deliveryCount - 1 : 0; }
};

// Whether `message` ended dead-lettered into `channel`: as the broker said, or
// by the max receive count rule (the queue it went to unknown: any channel).
bool deadLetteredInto(const MessageRecord& message, std::string_view channel);

}  // namespace qs
