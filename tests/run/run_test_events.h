#pragma once

// Hand-built events for the Run suites: timelines written event by event.
#include <cstdint>
#include <string>

#include "events/event.h"

namespace qs::test {

// An event of `kind` on channel "q"; with an actor it comes from that worker,
// without one from the producer.
inline Event makeEvent(std::int64_t timeNs, EventKind kind, const std::string& messageId = {},
                       const std::string& actor = {}) {
    Event e;
    e.timeNs = timeNs;
    e.kind = kind;
    e.source = actor.empty() ? EventSource::Producer : EventSource::Worker;
    e.actor = actor;
    e.channel = "q";
    e.messageId = messageId;
    return e;
}

// A hand-out of message `id` to `worker`, in a transaction named after both.
inline Event assigned(std::int64_t timeNs, const std::string& id, const std::string& worker,
                      std::uint64_t sequence, int receiveCount) {
    Event e = makeEvent(timeNs, EventKind::MessageAssigned, id, worker);
    e.sequence = sequence;
    e.receiveCount = receiveCount;
    e.transaction = "tx-" + worker + "-" + std::to_string(timeNs);
    return e;
}

// How `assignment` ended (ack, reject...), at `timeNs`.
inline Event settled(std::int64_t timeNs, EventKind kind, const Event& assignment) {
    Event e = assignment;
    e.timeNs = timeNs;
    e.kind = kind;
    return e;
}

// Every field equal: what a store or a spill must give back.
inline bool sameEvent(const Event& x, const Event& y) {
    return x.timeNs == y.timeNs && x.kind == y.kind && x.source == y.source && x.actor == y.actor &&
           x.channel == y.channel && x.messageId == y.messageId && x.sequence == y.sequence &&
           x.receiveCount == y.receiveCount && x.transaction == y.transaction &&
           x.value == y.value && x.count2 == y.count2 && x.detail == y.detail;
}

}  // namespace qs::test
