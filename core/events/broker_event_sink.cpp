#include "events/broker_event_sink.h"

#include <utility>

#include "common/clock.h"

namespace qs {

void BrokerEventSink::onBrokerEvent(const Event& event) noexcept {
    if (!stream_.isEnabled())
        return;
    if (event.timeNs != 0) {
        stream_.push(event);
        return;
    }
    try {
        Event stamped = event;
        stamped.timeNs = monotonicNanos();
        stream_.push(std::move(stamped));
    } catch (...) {
        stream_.recordDropped(1);
    }
}

void BrokerEventSink::takeBrokerEvent(Event&& event) noexcept {
    if (!stream_.isEnabled())
        return;
    if (event.timeNs == 0)
        event.timeNs = monotonicNanos();
    stream_.push(std::move(event));
}

void BrokerEventSink::takeBrokerEvents(std::vector<Event>& events) noexcept {
    if (!stream_.isEnabled()) {
        events.clear();
        return;
    }
    std::int64_t now = 0;
    for (Event& event : events) {
        if (event.timeNs == 0)
            event.timeNs = now != 0 ? now : (now = monotonicNanos());
    }
    stream_.push(events);
}

}  // namespace qs
