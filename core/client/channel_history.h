#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "client/queue_channel_info.h"

// The history of a server's queue channels, poll by poll (docs/ui.md,
// "Channels"): what the channel list said at each poll, and per channel the
// rates per second derived from its counters between two polls. It works for
// any channel the server lists, whoever's clients use it: the server's
// counters are the only source.
//
// Counters (sent = incoming messages, delivered = outgoing messages, expired)
// only grow while a channel lives; a counter that went down was reset (a
// server restart, the channel deleted and created again). Then, as
// Prometheus' rate() does, the interval counts the new value from zero and is
// marked as a reset. Waiting, delayed and clients are levels, kept as read.
//
// Memory: at most `maxPolls` points per channel (the oldest go first).
// Threading: none; one owner (the console's UI thread).
namespace qs::client {

struct ChannelRatePoint {
    std::int64_t timeNs = 0;   // the poll that ended the interval
    double seconds = 0;        // the interval's length
    double sentPerSecond = 0;  // incoming messages
    double deliveredPerSecond = 0;
    double expiredPerSecond = 0;
    std::int64_t waiting = 0;  // levels at the poll
    std::int64_t delayed = 0;
    std::int64_t clients = -1;  // consumers polling at the poll; -1 = not reported
    bool counterReset = false;  // a counter went down in this interval
};

class ChannelHistory {
public:
    explicit ChannelHistory(std::size_t maxPolls = 3600) : maxPolls_(maxPolls) {}

    // One poll of the channel list at `timeNs` (a monotonic clock). A poll no
    // later than the last one is ignored (rates need time to pass). A channel
    // missing from a poll keeps its history; when it comes back its counters
    // are compared with the last ones it had.
    void record(std::int64_t timeNs, const std::vector<QueueChannelInfo>& channels);

    // The channel's rate points, oldest first; empty before its second poll.
    const std::deque<ChannelRatePoint>& rates(std::string_view channel) const;
    // The newest point, or nullptr.
    const ChannelRatePoint* latest(std::string_view channel) const;
    std::size_t polls() const { return polls_; }
    void clear();

private:
    struct Counters {
        std::int64_t timeNs = 0;
        std::int64_t sent = 0, delivered = 0, expired = 0;
    };
    struct Channel {
        Counters last;
        bool seen = false;
        std::deque<ChannelRatePoint> points;
    };

    std::size_t maxPolls_;
    std::size_t polls_ = 0;
    std::int64_t lastPollNs_ = 0;
    std::map<std::string, Channel, std::less<>> channels_;
};

}  // namespace qs::client
