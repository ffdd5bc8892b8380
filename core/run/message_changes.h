#pragma once

#include <cstddef>
#include <cstdint>

#include "run/spilling_chunks.h"
#include "run/run_state.h"

namespace qs::run {

// New views of messages (MessageAt), event by event, oldest first, most in 16
// bytes: a change names only what a message's change usually is, given its
// view before - its first sight (state and channel), a new state, a hand-out
// (state, worker, receive count, one more delivery), a move (state and
// channel). Any other change takes one more entry with the whole view.
//
// A change reads back exactly when replayed in order onto the message's view
// before it, as ChangeLog replays. The ledger reports a message at most once
// per event, so the changes of one event are of different messages.
// Threading: none (that of its owner).
class MessageChanges {
public:
    // Message `message` became `after` in event `event` (events in
    // non-decreasing order); `before` is its view before, nullptr when the
    // message is new (message == the number of messages so far).
    void push(std::uint32_t event, std::uint32_t message, const MessageAt* before,
              const MessageAt& after);

    // Positions are entries; firstFrom: the first position of a change of
    // event `eventCount` or later (size() if none).
    std::size_t size() const { return entries_.size(); }
    std::size_t firstFrom(std::uint64_t eventCount) const;

    // Calls visit(message, after) for the changes from position `from` up to
    // the first of event `toEvent` or later. `viewOf(message)` must give the
    // message's view before the change (anything for a new message).
    template <typename ViewOf, typename Visit>
    void forEach(std::size_t from, std::uint64_t toEvent, ViewOf&& viewOf, Visit&& visit) const {
        for (std::size_t i = from; i < entries_.size() && entries_[i].event < toEvent;) {
            const Entry e = entries_[i];
            // A first sight and a whole view name every field: no view before.
            const bool complete = e.form == kCreated || e.form == kWhole;
            const MessageAt after = complete ? read(i, nullptr) : read(i, &viewOf(e.message));
            visit(e.message, after);
        }
    }

    std::size_t memoryBytes() const { return entries_.memoryBytes(); }

    // Old entries leave RAM for `file` (SpillingChunks::spillTo).
    void spillTo(std::shared_ptr<SpillFile> file, std::size_t chunksInRam) {
        entries_.spillTo(std::move(file), chunksInRam);
    }
    const std::string& spillError() const { return entries_.spillError(); }
    std::uint64_t spilledBytes() const { return entries_.spilledBytes(); }

private:
    enum Form : std::uint8_t {
        kCreated,  // a new message: state, channel = name; no hand-out yet
        kState,    // only the state changed
        kHandOut,  // state, worker = name, receive count = small, deliveries + 1
        kMoved,    // state, channel = name
        kWhole,    // state, channel = name; the next two entries hold the rest
    };
    // A whole view's two extra entries repeat the event (a search by event
    // never lands on one): the first holds deliveries in `message` and the
    // worker in `name`, the second the receive count in `message`.
    struct Entry {
        std::uint32_t event;
        std::uint32_t message;
        Name name;
        MessageState state;
        Form form;
        std::int16_t small;
    };
    static_assert(sizeof(Entry) == 16);

    MessageAt read(std::size_t& index, const MessageAt* before) const;  // moves index on

    SpillingChunks<Entry, 8192> entries_;
};

}  // namespace qs::run
