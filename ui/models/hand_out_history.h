#pragma once

#include <cstdint>

#include "events/event.h"
#include "run/run.h"

// Whether the message that event `index` of `run` hands out (a
// MessageAssigned) was handed out before in the same channel: what the live
// timeline and charts remember in a set of their own (TimelineModel,
// ChartsModel), read from the message's trail in the Run instead, so a
// projection at the time cursor (TimelineAtCursor, ChartsAtCursor) keeps no
// such set and a copy of it stays small. The live sets forget everything past
// 300,000 messages; the trail forgets nothing.
namespace qs::ui {

// `e` is run.event(index), decoded already by the caller (no second decode).
inline bool handedOutBefore(const Run& run, std::uint64_t index, const Event& e) {
    const std::optional<std::uint32_t> message = run.messageIndex(e.messageId.view());
    if (!message) {
        return false;
    }
    for (const std::uint32_t earlier : run.messageEvents(*message)) {
        if (earlier >= index) {
            break;
        }
        if (run.eventKind(earlier) == EventKind::MessageAssigned &&
            run.eventChannel(earlier) == e.channel) {
            return true;
        }
    }
    return false;
}

inline bool handedOutBefore(const Run& run, std::uint64_t index) {
    return handedOutBefore(run, index, run.event(index));
}

}  // namespace qs::ui
