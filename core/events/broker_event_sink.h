#pragma once

#include <vector>

#include "events/broker_observer.h"
#include "events/event_stream.h"

namespace qs {

// Feeds the embedded broker's own view into the shared EventStream, so broker
// and client events land on one timeline. It implements the BrokerObserver
// interface the broker reports through; the events library never includes
// nor links anything of core/broker.
//
// Ownership: does not own the stream; the stream must outlive the sink, and
// the sink must outlive its registration with the broker (call
// Broker::setObserver(nullptr) or destroy the broker first).
// Threading: onBrokerEvent() is called on broker threads, concurrently; it
// only pushes into the stream (never blocks on the reader).
class BrokerEventSink final : public BrokerObserver {
public:
    explicit BrokerEventSink(EventStream& stream) noexcept : stream_(stream) {}

    // Events without a time get the current monotonic time, so the broker's
    // events sort with everyone else's. A copy that cannot be made is counted
    // as a drop by the stream.
    void onBrokerEvent(const Event& event) noexcept override;
    // Same, moving the event into the stream (no copy): what the broker calls.
    void takeBrokerEvent(Event&& event) noexcept override;
    // A broker operation's events in one stream push (one lock).
    void takeBrokerEvents(std::vector<Event>& events) noexcept override;

private:
    EventStream& stream_;
};

}  // namespace qs
