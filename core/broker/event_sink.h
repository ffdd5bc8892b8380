#pragma once

#include <atomic>
#include <utility>

#include "broker/broker_observer.h"
#include "common/clock.h"

namespace qs::broker {

// Forwards broker events to the optional observer. With no observer set the
// fill function is never called, so no Event is built (hot paths stay cheap).
// Thread-safe.
class EventSink {
public:
    void setObserver(BrokerObserver* observer) {
        observer_.store(observer, std::memory_order_release);
    }

    // For callers that must capture data before a move, only when needed.
    bool listening() const { return observer_.load(std::memory_order_acquire) != nullptr; }

    template <class Fill>
    void emit(EventKind kind, Fill&& fill) const {
        BrokerObserver* observer = observer_.load(std::memory_order_acquire);
        if (observer == nullptr)
            return;
        Event event;
        event.timeNs = monotonicNanos();
        event.kind = kind;
        event.source = EventSource::Broker;
        fill(event);
        observer->takeBrokerEvent(std::move(event));
    }

private:
    std::atomic<BrokerObserver*> observer_{nullptr};
};

}  // namespace qs::broker
