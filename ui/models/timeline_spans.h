#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

// What the timeline's paint reads of each bar of a lane (TimelineModel), packed
// and contiguous: its times, outcome, sub-row and its message's id.
// The bars themselves sit in a deque, a handful to a block, with their key and
// poll; a paint over 64 busy lanes walks hundreds of thousands of them, and
// reading 24 packed bytes per bar instead costs a fraction. Kept in step with
// the lane's bars by the model (spans[i] is bars[i]); UI thread only.
namespace qs::ui {

struct TimelineSpan {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;     // 0 = still open
    std::uint32_t key = 0;      // the bar's message (TimelineBar::key)
    std::uint8_t outcome = 0;   // Outcome
    std::uint8_t slot = 0;
};

class TimelineSpans {
public:
    std::size_t size() const { return items_.size() - head_; }
    bool empty() const { return size() == 0; }
    const TimelineSpan* begin() const { return items_.data() + head_; }
    const TimelineSpan* end() const { return items_.data() + items_.size(); }
    TimelineSpan& operator[](std::size_t i) { return items_[head_ + i]; }
    const TimelineSpan& operator[](std::size_t i) const { return items_[head_ + i]; }

    void push_back(const TimelineSpan& span) { items_.push_back(span); }
    // Drops the oldest; the storage is compacted once half of it is dropped
    // ones (at least kCompactAfter), so a lane holds at most about twice its
    // spans: a vector never gives back what it once grew to, and 64 lanes of
    // a budget of 100,000 bars with thousands of dropped spans each would
    // take twice the RAM (and reach it slowly, as the lanes' shares vary).
    void pop_front() {
        ++head_;
        if (head_ >= kCompactAfter && head_ * 2 >= items_.size()) {
            items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
            head_ = 0;
        }
    }

private:
    static constexpr std::size_t kCompactAfter = 256;

    std::vector<TimelineSpan> items_;
    std::size_t head_ = 0;  // items_[head_] is the oldest kept
};

}  // namespace qs::ui
