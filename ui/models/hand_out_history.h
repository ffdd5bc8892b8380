#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

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
    const std::optional<std::uint32_t> message = run.messageOfEvent(index);
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

// handedOutBefore() remembered per event once asked: the answer costs a hash
// lookup of the message id and a walk of its trail, and a projection feeds
// the same hand-outs again on every move back. The Run only appends, so an
// answer holds for as long as the run does; clear() when it is reset or
// replaced. Two bits per event of the run (0.25 MB at a million events).
// Threading: that of the Run.
class HandOutMarks {
public:
    // handedOutBefore(run, index, e), for `e` a MessageAssigned: run.event(index).
    bool handedOutBefore(const Run& run, std::uint64_t index, const Event& e) {
        const std::size_t word = index / 64;
        const std::uint64_t bit = std::uint64_t{1} << (index % 64);
        if (word >= known_.size()) {
            const std::size_t words = std::max<std::size_t>(word + 1, run.eventCount() / 64 + 1);
            known_.resize(words, 0);
            repeat_.resize(words, 0);
        }
        if ((known_[word] & bit) == 0) {
            known_[word] |= bit;
            if (qs::ui::handedOutBefore(run, index, e)) {
                repeat_[word] |= bit;
            }
        }
        return (repeat_[word] & bit) != 0;
    }
    void clear() {
        known_.clear();
        repeat_.clear();
        known_.shrink_to_fit();
        repeat_.shrink_to_fit();
    }
    std::size_t bytes() const { return (known_.capacity() + repeat_.capacity()) * 8; }

private:
    std::vector<std::uint64_t> known_;   // bit i: event i asked already
    std::vector<std::uint64_t> repeat_;  // bit i: its answer
};

}  // namespace qs::ui
