#pragma once

#include <utility>
#include <vector>

#include "events/event.h"

namespace qs {

// The interface the embedded broker (core/broker) reports through. It lives
// with the events, not the broker, so that the events library needs nothing
// of the broker (the broker depends on the events, never the reverse).
//
// Receives the broker's own view of every state change (EventSource::Broker
// events: stored, delayed, released, delivered, acked, nacked, requeued,
// returned, expired, dead-lettered, client connected / disconnected).
//
// Threading: called on the broker's gRPC and timer threads, possibly
// concurrently and possibly while the broker holds internal locks. An
// implementation must return quickly, never block, and never call back into
// the Broker. Ownership: the observer is not owned by the broker and must
// outlive it (or be removed first).
class BrokerObserver {
public:
    virtual ~BrokerObserver() = default;
    virtual void onBrokerEvent(const Event& event) noexcept = 0;
    // What the broker calls: the event is the observer's to keep. An observer
    // that stores events can override this to move it instead of copying it;
    // the default passes it to onBrokerEvent().
    virtual void takeBrokerEvent(Event&& event) noexcept { onBrokerEvent(std::as_const(event)); }
    // Several events of one broker operation, in order; `events` is the
    // observer's to empty (an observer that stores events can take them all
    // at once). The default hands them over one by one.
    virtual void takeBrokerEvents(std::vector<Event>& events) noexcept {
        for (Event& event : events)
            takeBrokerEvent(std::move(event));
        events.clear();
    }
};

}  // namespace qs
