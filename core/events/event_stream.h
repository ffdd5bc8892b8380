#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include "events/event.h"

namespace qs {

struct EventStreamStats {
    std::uint64_t pushed = 0;     // push() calls while enabled: accepted + dropped
    std::uint64_t accepted = 0;   // stored in the buffer
    std::uint64_t dropped = 0;    // refused because the buffer was full (or out of memory)
    std::uint64_t delivered = 0;  // real events handed to readers (notices not included)
    std::uint64_t notices = 0;    // EventsDropped notices handed to readers
    std::size_t waiting = 0;      // accepted, not yet delivered
    std::size_t capacity = 0;
};

// The one timeline every producer of events (workers, the producer, the pool,
// the broker observer) writes into, and one reader (the GUI at frame rate, or
// a headless recorder) drains in batches.
//
// Producers never wait for the reader: the producer-side buffer holds at most
// capacity() events; a push into a full buffer is dropped and counted. Drops
// are reported in-band: a synthetic EventKind::EventsDropped notice stands
// exactly where a run of drops happened in push order (value = events dropped
// there, count2 = total dropped up to there, timeNs = the first dropped
// event's time). Once the stream is drained,
// stats().pushed == stats().delivered + stats().dropped.
//
// Hot path: one short mutex section that moves the event into a vector; the
// reader swaps the whole vector out in O(1), so it never holds producers up
// while it processes a batch. A reader that takes partial batches keeps the
// swapped-out remainder on its side, so up to 2 x capacity() events can be
// held in memory at once (plus one small mark per run of drops).
//
// Threading: push(), isEnabled(), setEnabled(), recordDropped() and every
// counter getter are safe from any thread at any time. drain() / takeBatch()
// are safe from any thread too but are meant for one reader; concurrent
// readers serialise and each event goes to exactly one of them.
class EventStream {
public:
    static constexpr std::size_t kDefaultCapacity = 65536;

    explicit EventStream(std::size_t capacity = kDefaultCapacity, bool enabled = true);
    EventStream(const EventStream&) = delete;
    EventStream& operator=(const EventStream&) = delete;

    // False when the event was dropped (buffer full, out of memory) or the
    // stream is disabled. Never blocks on the reader.
    bool push(Event&& event) noexcept;
    bool push(const Event& event) noexcept;
    // Moves every event of `events` in, in order, under one lock (a producer
    // that reports several steps at once pays for one lock, not one per
    // event); `events` is left empty. Events that do not fit are dropped and
    // counted exactly like single pushes. Returns how many were accepted.
    std::size_t push(std::vector<Event>& events) noexcept;

    // For adapters that could not even build an event (e.g. a copy failed):
    // counts `count` pushes as dropped so the totals stay exact.
    void recordDropped(std::uint64_t count = 1, std::int64_t timeNs = 0) noexcept;

    // Disabled: push() returns false at the cost of one relaxed atomic load and
    // nothing is counted. Producers that build costly events can check
    // isEnabled() first. Events already buffered stay readable.
    void setEnabled(bool enabled) noexcept { enabled_.store(enabled, std::memory_order_relaxed); }
    bool isEnabled() const noexcept { return enabled_.load(std::memory_order_relaxed); }

    // Applies to later pushes; events already buffered beyond a smaller
    // capacity are kept. Minimum 1.
    void setCapacity(std::size_t capacity);
    std::size_t capacity() const;

    // Appends up to `max` events (notices included) to `out` in push order;
    // returns how many were appended. Swaps the producer buffer at most once
    // per call, so it returns promptly even under a flood of pushes.
    std::size_t takeBatch(std::vector<Event>& out, std::size_t max);
    std::vector<Event> takeBatch(std::size_t max);
    // Everything available now (same as takeBatch with no limit).
    std::size_t drain(std::vector<Event>& out);

    std::uint64_t pushedCount() const;
    std::uint64_t droppedCount() const;
    std::uint64_t deliveredCount() const;
    EventStreamStats stats() const;

private:
    // A run of drops between two accepted events: `index` = events accepted
    // into the same buffer before it.
    struct DropMark {
        std::size_t index = 0;
        std::uint64_t count = 0;
        std::int64_t firstNs = 0;
    };

    void countDropsLocked(std::uint64_t count, std::int64_t timeNs) noexcept;
    Event makeNotice(const DropMark& mark, std::size_t capacity);

    std::atomic<bool> enabled_;

    // Producer side, guarded by producerMutex_.
    mutable std::mutex producerMutex_;
    std::vector<Event> inbox_;
    std::vector<DropMark> inboxMarks_;
    std::size_t capacity_;
    std::uint64_t pushed_ = 0;
    std::uint64_t accepted_ = 0;
    std::uint64_t dropped_ = 0;

    // Reader side, guarded by readerMutex_ (taken before producerMutex_).
    mutable std::mutex readerMutex_;
    std::vector<Event> outbox_;
    std::size_t outboxPos_ = 0;
    std::vector<DropMark> outboxMarks_;
    std::size_t outboxMarkPos_ = 0;
    std::size_t outboxCapacity_ = 0;  // capacity when the outbox was swapped out
    std::uint64_t delivered_ = 0;
    std::uint64_t notices_ = 0;
    std::uint64_t noticedDrops_ = 0;
};

}  // namespace qs
