#include "client/channel_history.h"

#include <algorithm>

namespace qs::client {

namespace {

// What a counter grew by; a counter that went down restarted from zero.
std::int64_t increase(std::int64_t before, std::int64_t now, bool* reset) {
    if (now < before) {
        *reset = true;
        return now;
    }
    return now - before;
}

}  // namespace

void ChannelHistory::record(std::int64_t timeNs, const std::vector<QueueChannelInfo>& channels) {
    if (polls_ > 0 && timeNs <= lastPollNs_) {
        return;
    }
    ++polls_;
    lastPollNs_ = timeNs;
    for (const QueueChannelInfo& info : channels) {
        Channel& c = channels_[info.name];
        const Counters now{timeNs, info.incoming.messages, info.outgoing.messages,
                           info.incoming.expired};
        if (c.seen) {
            ChannelRatePoint p;
            p.timeNs = timeNs;
            p.seconds = static_cast<double>(timeNs - c.last.timeNs) / 1e9;
            const auto rate = [&](std::int64_t before, std::int64_t after) {
                return static_cast<double>(increase(before, after, &p.counterReset)) / p.seconds;
            };
            p.sentPerSecond = rate(c.last.sent, now.sent);
            p.deliveredPerSecond = rate(c.last.delivered, now.delivered);
            p.expiredPerSecond = rate(c.last.expired, now.expired);
            // Either direction may carry the level (list and QueuesInfo differ).
            p.waiting = std::max(info.incoming.waiting, info.outgoing.waiting);
            p.delayed = std::max(info.incoming.delayed, info.outgoing.delayed);
            p.clients = info.clients;
            c.points.push_back(p);
            while (c.points.size() > maxPolls_) {
                c.points.pop_front();
            }
        }
        c.last = now;
        c.seen = true;
    }
}

const std::deque<ChannelRatePoint>& ChannelHistory::rates(std::string_view channel) const {
    static const std::deque<ChannelRatePoint> none;
    const auto it = channels_.find(channel);
    return it == channels_.end() ? none : it->second.points;
}

const ChannelRatePoint* ChannelHistory::latest(std::string_view channel) const {
    const std::deque<ChannelRatePoint>& points = rates(channel);
    return points.empty() ? nullptr : &points.back();
}

void ChannelHistory::clear() {
    channels_.clear();
    polls_ = 0;
    lastPollNs_ = 0;
}

}  // namespace qs::client
