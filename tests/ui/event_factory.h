#pragma once

#include <string>

#include "events/event.h"

// Builds events the way the workers and the producer emit them, for model
// tests that need exact control over ordering and timing.
namespace qs::ui::test {

inline Event ev(EventKind kind, std::int64_t tMs, const std::string& actor = {},
                const std::string& id = {}, std::uint64_t seq = 0, int receiveCount = 0) {
    Event e;
    e.timeNs = tMs * 1'000'000 + 1'000'000'000'000LL;
    e.kind = kind;
    e.source = kind == EventKind::TaskSent        ? EventSource::Producer
               : kind == EventKind::ConfigChanged ? EventSource::Pool
                                                  : EventSource::Worker;
    e.actor = actor;
    e.channel = "tasks";
    e.messageId = id;
    e.sequence = seq;
    e.receiveCount = receiveCount;
    return e;
}

inline Event sent(std::int64_t tMs, const std::string& id, int n) {
    Event e = ev(EventKind::TaskSent, tMs, "producer", id);
    e.count2 = n;
    return e;
}

}  // namespace qs::ui::test
