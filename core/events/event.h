#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/name.h"
#include "common/short_text.h"

// One observable step of a Queuescope run, from the client side (workers, the
// producer) or from the embedded broker's own view. Plain value type: copied
// freely between threads; no pointers into shared state.
namespace qs {

enum class EventSource : std::uint8_t {
    Producer,  // the task producer
    Worker,    // a pool worker (actor = its client id)
    Pool,      // the pool as a whole (configuration changes, scaling)
    Broker,    // the embedded broker's observer
    Client,    // a management client acting on a channel (the console's channel browser):
               // actor = its client id
};

enum class EventKind : std::uint8_t {
    // Producer
    TaskSent,    // sequence unknown at send; value = delay seconds
    SendFailed,  // detail = error
    // Worker / client view
    PollStarted,      // value = max messages; detail = wait timeout ms
    PollReturned,     // value = messages received; count2 = waited ms
    MessageAssigned,  // a message handed to a worker (sequence, receive count); from a v1-stream
                      // worker value = its visibility timeout in ms, so the deadline is
                      // timeNs + value ms (a duration survives a recording's time origin)
    Redelivered,      // a hand-out of a MessageID handed out before (by identity): from the
                      // worker (source Worker) or derived by the ledger (source Pool);
                      // value = nth hand-out, detail = previous worker
    WorkStarted,
    WorkFinished,  // value = work duration ns
    Acked,
    Rejected,  // NAck: back to the tail with receive count + 1
    Requeued,  // moved to another channel (detail = destination)
    WorkerStarted,
    WorkerPaused,
    WorkerResumed,
    WorkerCrashed,  // dropped its connection mid-batch without settling; value = unsettled count
    WorkerReconnected,
    WorkerStopped,
    ConfigChanged,  // detail = "name=value"
    Error,          // detail = message
    // Broker observer
    BrokerStored,     // message stored in a channel (sequence assigned)
    BrokerDelayed,    // held back until DelayedTo
    BrokerReleased,   // delayed message released into its channel
    BrokerDelivered,  // handed to client `actor` in transaction `transaction`
    BrokerAcked,
    BrokerNacked,    // re-enqueued at the tail as a new copy (new sequence in count2);
                     // detail = why when it was not a client's reject ("visibility expired")
    BrokerRequeued,  // copied to another channel (detail = destination)
    BrokerReturned,  // unsettled message returned to the queue unchanged (stream end / close)
    BrokerExpired,
    BrokerDeadLettered,  // detail = dead-letter channel ("" = dropped)
    BrokerClientConnected,
    BrokerClientDisconnected,
    // Event stream
    EventsDropped,  // synthetic EventStream notice: value = events dropped at this point,
                    // count2 = total dropped so far
    // Added after the first recordings: new kinds go here, at the end, so the
    // numbers recorded before keep their meaning.
    // Broker observer
    BrokerPeeked,  // seen by a peek (ReceiveQueueMessages IsPeak) and left in place: no
                   // hand-out, state and stored receive count unchanged; receiveCount = what
                   // the peek showed (stored + 1); actor = client, transaction = request id
    BrokerPurged,  // removed by AckAllQueueMessages (a purge) without a hand-out; one per
                   // message; actor = client, transaction = request id
    // Client view of channel operations (source Client), for servers without an observer
    ChannelPeeked,  // a peek of `channel` returned value = messages (count2 = expired removed)
    ChannelPurged,  // AckAllQueueMessages on `channel` removed value = messages
                    // (AffectedMessages); transaction = its request id
    // A redrive (runner/redrive.h) moved the message: the copy with its
    // MessageID now waits in `channel`; detail = the channel it came from
    // (a dead-letter queue); actor = the redrive's client (source Client)
    MessageRedriven,
    // Worker view of the v1 stream
    VisibilityExpired,  // a v1-stream worker's settlement failed because the message's
                        // visibility timer ran out first: the broker took it back (tail,
                        // receive count + 1); message fields; detail = the server's error
};

struct Event {
    // qs::monotonicNanos() when it happened. The events of one operation (a
    // batch sent, a batch handed out, one settlement) share its time.
    std::int64_t timeNs = 0;
    EventKind kind = EventKind::Error;
    EventSource source = EventSource::Pool;
    std::int32_t receiveCount = 0;
    Name actor;  // worker / client id
    Name channel;
    std::uint64_t sequence = 0;
    std::int64_t value = 0;   // meaning per kind (see above)
    std::int64_t count2 = 0;  // second number per kind (see above)
    ShortText messageId;      // inline up to 36 bytes: most events allocate nothing
    ShortText transaction;    // downstream TransactionId when known
    std::string detail;
};

// Every byte of an Event is written, moved into the stream and read on
// another core, hundreds of thousands of times a second: the fields are
// ordered to leave no padding, and the size is checked (it was 240 bytes,
// and the stream's cost followed it; docs/benchmarks.md).
static_assert(sizeof(Event) == 160);

// BrokerNacked's detail when the v1 stream's visibility timer, not a client,
// sent the message back (the ledger reads it: DeliveryRecord::visibilityExpired).
inline constexpr std::string_view kNackReasonVisibilityExpired = "visibility expired";

std::string_view toString(EventKind kind);
std::string_view toString(EventSource source);

// Inverse of toString (exact, case-sensitive); nullopt for an unknown name.
std::optional<EventKind> eventKindFromString(std::string_view name);
std::optional<EventSource> eventSourceFromString(std::string_view name);

// EventKind values are contiguous from 0 to this one (lets parsers and legends iterate them).
inline constexpr EventKind kLastEventKind = EventKind::VisibilityExpired;
// EventSource values are contiguous from 0 to this one.
inline constexpr EventSource kLastEventSource = EventSource::Client;

}  // namespace qs
