#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "client/queue_message.h"
#include "client/result.h"
#include "events/event.h"

namespace qs {
class EventStream;
}
namespace qs::client {
class QueuesClient;
}

// Peek and purge of a channel as the console performs them, with the event
// that reports each to the run as the client saw it, so the run's ledger knows
// what a purge removed even on a server with no broker observer (a real
// KubeMQ). The console's channel browser calls these instead of the client's
// peek() / purgeQueue() and pushes `report` into the run's EventStream. With
// the embedded broker its own BrokerPeeked / BrokerPurged events of the same
// call come first; the ledger matches them (same channel, client id and
// request id), so nothing is counted twice.
//
// Both block on the network: call them from a thread that may wait (never a
// UI thread); `client` must outlive the call. Threading: as the client.
namespace qs::runner {

struct PurgeOutcome {
    client::Result<std::uint64_t> removed;  // AffectedMessages, or why the call failed
    // ChannelPurged when the call succeeded: source Client, actor = the
    // client's id, channel, transaction = the request id, value = removed.
    // None when it failed (the server may still have removed messages if only
    // the reply was lost; the run then keeps them waiting).
    std::optional<Event> report;
};

struct PeekOutcome {
    client::Result<client::PullResult> peeked;
    // ChannelPeeked when the call succeeded: source Client, actor = the
    // client's id, channel, value = messages seen, count2 = expired messages
    // the server removed on the way. A peek changes no message's state.
    std::optional<Event> report;
};

// AckAllQueueMessages on `channel` for `wait` (the server always waits it out).
PurgeOutcome purgeChannel(client::QueuesClient& client, const std::string& channel,
                          std::chrono::milliseconds wait = std::chrono::seconds(1));
// A peek (ReceiveQueueMessages IsPeak) of up to `maxMessages`.
PeekOutcome peekChannel(client::QueuesClient& client, const std::string& channel, int maxMessages,
                        std::chrono::milliseconds wait);

// The same, pushing the report into `stream` (may be null: nothing is pushed),
// for callers on a thread that may block and whose stream outlives the call.
client::Result<std::uint64_t> purgeChannel(
    client::QueuesClient& client, EventStream* stream, const std::string& channel,
    std::chrono::milliseconds wait = std::chrono::seconds(1));
client::Result<client::PullResult> peekChannel(client::QueuesClient& client, EventStream* stream,
                                               const std::string& channel, int maxMessages,
                                               std::chrono::milliseconds wait);

// The report events, for callers that perform the calls themselves.
Event channelPurgedEvent(std::string_view clientId, std::string_view channel,
                         std::string_view requestId, std::uint64_t removed);
Event channelPeekedEvent(std::string_view clientId, std::string_view channel, int seen,
                         int expired);

}  // namespace qs::runner
