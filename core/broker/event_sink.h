#pragma once

#include <atomic>
#include <utility>
#include <vector>

#include "common/clock.h"
#include "events/broker_observer.h"

namespace qs::broker {

// Forwards broker events to the optional observer. With no observer set the
// fill function is never called, so no Event is built (hot paths stay cheap).
// Thread-safe.
class EventSink {
public:
    class Group;

    void setObserver(BrokerObserver* observer) {
        observer_.store(observer, std::memory_order_release);
    }

    // For callers that must capture data before a move, only when needed.
    bool listening() const { return observer_.load(std::memory_order_acquire) != nullptr; }

    template <class Fill>
    void emit(EventKind kind, Fill&& fill) const;

private:
    std::atomic<BrokerObserver*> observer_{nullptr};
};

// Holds back the events the current thread emits into one sink while the
// group lives, and hands them to the observer in one takeBrokerEvents() call
// when it ends: an operation on many messages (a receive, an AckRange, a
// batch send) then costs the observer one hand-over instead of one per
// message. Groups nest (only the outermost hands over). Close a group before
// answering the client, so the broker's view of a step reaches readers no
// later than the client's reaction to it. Threading: one thread, stack only.
class EventSink::Group {
public:
    explicit Group(const EventSink& sink) : sink_(sink), outer_(current_) {
        if (outer_ == nullptr || &outer_->sink_ != &sink_) {
            current_ = this;
            events_.swap(spare_);  // this thread's storage of earlier groups: no regrowth
        }
    }
    ~Group() {
        if (current_ != this)
            return;  // nested in a group of the same sink: the outer one hands over
        current_ = outer_;
        if (!events_.empty()) {
            if (BrokerObserver* observer = sink_.observer_.load(std::memory_order_acquire))
                observer->takeBrokerEvents(events_);
            events_.clear();  // (emptied already, unless the observer went away)
        }
        if (events_.capacity() > spare_.capacity() && events_.capacity() <= kMaxKept)
            spare_.swap(events_);
    }
    Group(const Group&) = delete;
    Group& operator=(const Group&) = delete;

private:
    friend class EventSink;
    // The innermost open group of this thread for `sink`, if any.
    static Group* openFor(const EventSink& sink) {
        return current_ != nullptr && &current_->sink_ == &sink ? current_ : nullptr;
    }

    // The group's events share one time: they are one broker operation,
    // done under the engine's locks without waiting (and a clock read per
    // message was a measurable part of the event stream's cost).
    std::int64_t timeNs() {
        if (timeNs_ == 0)
            timeNs_ = monotonicNanos();
        return timeNs_;
    }

    // A thread keeps its group storage up to this many events (~1 MB).
    static constexpr std::size_t kMaxKept = 4096;

    const EventSink& sink_;
    Group* outer_;
    std::vector<Event> events_;
    std::int64_t timeNs_ = 0;
    static inline thread_local Group* current_ = nullptr;
    static inline thread_local std::vector<Event> spare_;
};

template <class Fill>
void EventSink::emit(EventKind kind, Fill&& fill) const {
    BrokerObserver* observer = observer_.load(std::memory_order_acquire);
    if (observer == nullptr)
        return;
    auto describe = [&](Event& event, std::int64_t timeNs) {
        event.timeNs = timeNs;
        event.kind = kind;
        event.source = EventSource::Broker;
        fill(event);
    };
    if (Group* group = Group::openFor(*this)) {
        // Built in place in the group (no move of a finished event).
        std::vector<Event>& held = group->events_;
        const std::size_t before = held.size();
        try {
            describe(held.emplace_back(), group->timeNs());
            return;
        } catch (...) {  // no memory to hold it back: hand it over on its own
            held.resize(before);
        }
    }
    Event event;
    describe(event, monotonicNanos());
    observer->takeBrokerEvent(std::move(event));
}

}  // namespace qs::broker
