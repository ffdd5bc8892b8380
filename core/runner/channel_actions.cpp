#include "runner/channel_actions.h"

#include <utility>

#include "client/queues_client.h"
#include "common/clock.h"
#include "common/ids.h"
#include "events/event_stream.h"

namespace qs::runner {

namespace {

Event clientEvent(EventKind kind, std::string_view clientId, std::string_view channel) {
    Event e;
    e.timeNs = monotonicNanos();
    e.kind = kind;
    e.source = EventSource::Client;
    e.actor = Name(clientId);
    e.channel = Name(channel);
    return e;
}

void push(EventStream* stream, std::optional<Event>& report) {
    if (stream != nullptr && report)
        stream->push(std::move(*report));
}

}  // namespace

Event channelPurgedEvent(std::string_view clientId, std::string_view channel,
                         std::string_view requestId, std::uint64_t removed) {
    Event e = clientEvent(EventKind::ChannelPurged, clientId, channel);
    e.transaction = requestId;
    e.value = static_cast<std::int64_t>(removed);
    return e;
}

Event channelPeekedEvent(std::string_view clientId, std::string_view channel, int seen,
                         int expired) {
    Event e = clientEvent(EventKind::ChannelPeeked, clientId, channel);
    e.value = seen;
    e.count2 = expired;
    return e;
}

PurgeOutcome purgeChannel(client::QueuesClient& client, const std::string& channel,
                          std::chrono::milliseconds wait) {
    // Our own request id, so the report names the request the broker saw.
    const std::string requestId = newUuid();
    PurgeOutcome out{client.purgeQueue(channel, wait, requestId), std::nullopt};
    if (out.removed.ok())
        out.report =
            channelPurgedEvent(client.options().clientId, channel, requestId, out.removed.value());
    return out;
}

PeekOutcome peekChannel(client::QueuesClient& client, const std::string& channel, int maxMessages,
                        std::chrono::milliseconds wait) {
    PeekOutcome out{client.peek(channel, maxMessages, wait), std::nullopt};
    if (out.peeked.ok())
        out.report = channelPeekedEvent(client.options().clientId, channel,
                                        static_cast<int>(out.peeked.value().messages.size()),
                                        out.peeked.value().messagesExpired);
    return out;
}

client::Result<std::uint64_t> purgeChannel(client::QueuesClient& client, EventStream* stream,
                                           const std::string& channel,
                                           std::chrono::milliseconds wait) {
    PurgeOutcome out = purgeChannel(client, channel, wait);
    push(stream, out.report);
    return std::move(out.removed);
}

client::Result<client::PullResult> peekChannel(client::QueuesClient& client, EventStream* stream,
                                               const std::string& channel, int maxMessages,
                                               std::chrono::milliseconds wait) {
    PeekOutcome out = peekChannel(client, channel, maxMessages, wait);
    push(stream, out.report);
    return std::move(out.peeked);
}

}  // namespace qs::runner
