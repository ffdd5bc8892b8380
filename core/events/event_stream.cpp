#include "events/event_stream.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "common/clock.h"

namespace qs {
namespace {

// Start small: a stream that is never busy should not hold megabytes. The
// vectors grow to what the load needs and keep that across swaps.
constexpr std::size_t kInitialReserve = 1024;
constexpr std::size_t kInitialMarks = 64;

// push() moves events under the producer lock after reserving room; that
// must not throw halfway through a group.
static_assert(std::is_nothrow_move_constructible_v<Event>);

}  // namespace

EventStream::EventStream(std::size_t capacity, bool enabled)
    : enabled_(enabled), capacity_(std::max<std::size_t>(capacity, 1)) {
    inbox_.reserve(std::min(capacity_, kInitialReserve));
    outbox_.reserve(std::min(capacity_, kInitialReserve));
    // Marks are only added while the buffer is full, so a few slots go a long
    // way; reserved up front so a drop rarely allocates.
    inboxMarks_.reserve(kInitialMarks);
    outboxMarks_.reserve(kInitialMarks);
}

void EventStream::countDropsLocked(std::uint64_t count, std::int64_t timeNs) noexcept {
    pushed_ += count;
    dropped_ += count;
    if (!inboxMarks_.empty() && inboxMarks_.back().index == inbox_.size()) {
        inboxMarks_.back().count += count;
        return;
    }
    try {
        inboxMarks_.push_back(
            DropMark{inbox_.size(), count, timeNs != 0 ? timeNs : monotonicNanos()});
    } catch (...) {
        // No memory for a new mark (never for the first: capacity is reserved
        // and kept across swaps): report these drops with the previous run, so
        // the count stays exact and only the position is approximate.
        if (!inboxMarks_.empty())
            inboxMarks_.back().count += count;
    }
}

bool EventStream::push(Event&& event) noexcept {
    if (!isEnabled())
        return false;
    std::lock_guard lock(producerMutex_);
    if (inbox_.size() >= capacity_) {
        countDropsLocked(1, event.timeNs);
        return false;
    }
    try {
        inbox_.push_back(std::move(event));
    } catch (...) {  // growing the vector failed: the event is lost, say so
        countDropsLocked(1, event.timeNs);
        return false;
    }
    ++pushed_;
    ++accepted_;
    return true;
}

std::size_t EventStream::push(std::vector<Event>& events) noexcept {
    if (events.empty())
        return 0;
    if (!isEnabled()) {
        events.clear();
        return 0;
    }
    std::size_t accepted = 0;
    {
        std::lock_guard lock(producerMutex_);
        const std::size_t room = inbox_.size() < capacity_ ? capacity_ - inbox_.size() : 0;
        std::size_t n = std::min(room, events.size());
        if (n > 0) {
            try {
                const std::size_t need = inbox_.size() + n;
                if (need > inbox_.capacity())  // grow geometrically, as push_back would
                    inbox_.reserve(std::max(need, std::min(2 * inbox_.capacity(), capacity_)));
            } catch (...) {
                n = 0;  // no memory to grow: every event of this batch is lost, say so
            }
        }
        // One range insert (no per-event capacity check or call); cannot throw
        // after the reserve, since moving an Event does not allocate.
        inbox_.insert(inbox_.end(), std::make_move_iterator(events.begin()),
                      std::make_move_iterator(events.begin() + static_cast<std::ptrdiff_t>(n)));
        pushed_ += n;
        accepted_ += n;
        accepted = n;
        if (n < events.size())
            countDropsLocked(events.size() - n, events[n].timeNs);
    }
    events.clear();  // frees the moved-from shells outside the lock
    return accepted;
}

bool EventStream::push(const Event& event) noexcept {
    if (!isEnabled())
        return false;
    try {
        Event copy = event;  // copy outside the lock: it may allocate
        return push(std::move(copy));
    } catch (...) {
        recordDropped(1, event.timeNs);
        return false;
    }
}

void EventStream::recordDropped(std::uint64_t count, std::int64_t timeNs) noexcept {
    if (count == 0)
        return;
    std::lock_guard lock(producerMutex_);
    countDropsLocked(count, timeNs);
}

void EventStream::setCapacity(std::size_t capacity) {
    std::lock_guard lock(producerMutex_);
    capacity_ = std::max<std::size_t>(capacity, 1);
}

std::size_t EventStream::capacity() const {
    std::lock_guard lock(producerMutex_);
    return capacity_;
}

Event EventStream::makeNotice(const DropMark& mark, std::size_t capacity) {
    noticedDrops_ += mark.count;
    Event notice;
    notice.timeNs = mark.firstNs;
    notice.kind = EventKind::EventsDropped;
    notice.source = EventSource::Pool;
    notice.actor = "event-stream";
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    notice.value = static_cast<std::int64_t>(std::min(mark.count, kMax));
    notice.count2 = static_cast<std::int64_t>(std::min(noticedDrops_, kMax));
    notice.detail = std::to_string(mark.count) +
                    " events dropped: the reader fell behind (buffer capacity " +
                    std::to_string(capacity) + ")";
    return notice;
}

std::size_t EventStream::takeBatch(std::vector<Event>& out, std::size_t max) {
    std::lock_guard readerLock(readerMutex_);
    std::size_t taken = 0;
    bool swapped = false;
    while (taken < max) {
        const bool markPending = outboxMarkPos_ < outboxMarks_.size();
        if (markPending && outboxMarks_[outboxMarkPos_].index == outboxPos_) {
            out.push_back(makeNotice(outboxMarks_[outboxMarkPos_], outboxCapacity_));
            ++outboxMarkPos_;
            ++notices_;
            ++taken;
            continue;
        }
        if (outboxPos_ < outbox_.size()) {
            std::size_t n = std::min(max - taken, outbox_.size() - outboxPos_);
            if (markPending)
                n = std::min(n, outboxMarks_[outboxMarkPos_].index - outboxPos_);
            const auto first = outbox_.begin() + static_cast<std::ptrdiff_t>(outboxPos_);
            out.insert(out.end(), std::make_move_iterator(first),
                       std::make_move_iterator(first + static_cast<std::ptrdiff_t>(n)));
            outboxPos_ += n;
            delivered_ += n;
            taken += n;
            continue;
        }
        if (swapped)
            break;
        swapped = true;
        // Clearing destroys the moved-from shells outside the producer lock.
        outbox_.clear();
        outboxPos_ = 0;
        outboxMarks_.clear();
        outboxMarkPos_ = 0;
        {
            std::lock_guard producerLock(producerMutex_);
            outbox_.swap(inbox_);
            outboxMarks_.swap(inboxMarks_);
            outboxCapacity_ = capacity_;
        }
        if (out.empty() && !outbox_.empty() && outboxMarks_.empty() &&
            outbox_.size() <= max - taken) {
            // The whole buffer goes to a reader with an empty vector: hand it
            // over instead of moving event by event. The reader's old buffer
            // (its capacity) becomes the next producer buffer.
            out.swap(outbox_);
            delivered_ += out.size();
            taken += out.size();
            outbox_.clear();
            break;
        }
    }
    return taken;
}
std::vector<Event> EventStream::takeBatch(std::size_t max) {
    std::vector<Event> out;
    takeBatch(out, max);
    return out;
}

std::size_t EventStream::drain(std::vector<Event>& out) {
    return takeBatch(out, std::numeric_limits<std::size_t>::max());
}

std::uint64_t EventStream::pushedCount() const {
    std::lock_guard lock(producerMutex_);
    return pushed_;
}

std::uint64_t EventStream::droppedCount() const {
    std::lock_guard lock(producerMutex_);
    return dropped_;
}

std::uint64_t EventStream::deliveredCount() const {
    std::lock_guard lock(readerMutex_);
    return delivered_;
}

EventStreamStats EventStream::stats() const {
    std::lock_guard readerLock(readerMutex_);
    std::lock_guard producerLock(producerMutex_);
    EventStreamStats s;
    s.pushed = pushed_;
    s.accepted = accepted_;
    s.dropped = dropped_;
    s.delivered = delivered_;
    s.notices = notices_;
    s.waiting = inbox_.size() + (outbox_.size() - outboxPos_);  // notices not included
    s.capacity = capacity_;
    return s;
}

}  // namespace qs
