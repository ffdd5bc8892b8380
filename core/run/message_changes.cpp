#include "run/message_changes.h"

#include <algorithm>
#include <limits>

#include "run/first_from_event.h"

namespace qs::run {

void MessageChanges::push(std::uint32_t event, std::uint32_t message, const MessageAt* before,
                          const MessageAt& after) {
    const bool smallCount = after.receiveCount >= std::numeric_limits<std::int16_t>::min() &&
                            after.receiveCount <= std::numeric_limits<std::int16_t>::max();
    const auto small = static_cast<std::int16_t>(smallCount ? after.receiveCount : 0);
    if (before == nullptr) {
        if (after.deliveries == 0 && after.receiveCount == 0 && after.worker.empty()) {
            entries_.push_back({event, message, after.channel, after.state, kCreated, 0});
            return;
        }
    } else if (after.deliveries == before->deliveries &&
               after.receiveCount == before->receiveCount && after.worker == before->worker) {
        if (after.channel == before->channel) {
            entries_.push_back({event, message, Name(), after.state, kState, 0});
        } else {
            entries_.push_back({event, message, after.channel, after.state, kMoved, 0});
        }
        return;
    } else if (after.deliveries == before->deliveries + 1 && after.channel == before->channel &&
               smallCount) {
        entries_.push_back({event, message, after.worker, after.state, kHandOut, small});
        return;
    }
    entries_.push_back({event, message, after.channel, after.state, kWhole, 0});
    entries_.push_back({event, after.deliveries, after.worker, after.state, kWhole, 0});
    entries_.push_back(
        {event, static_cast<std::uint32_t>(after.receiveCount), Name(), after.state, kWhole, 0});
}

MessageAt MessageChanges::read(std::size_t& index, const MessageAt* before) const {
    const Entry& e = entries_[index++];
    MessageAt after = before != nullptr ? *before : MessageAt{};
    after.state = e.state;
    switch (e.form) {
        case kCreated:
            after = MessageAt{};
            after.state = e.state;
            after.channel = e.name;
            break;
        case kState:
            break;
        case kHandOut:
            after.worker = e.name;
            after.receiveCount = e.small;
            ++after.deliveries;
            break;
        case kMoved:
            after.channel = e.name;
            break;
        case kWhole: {
            after.channel = e.name;
            const Entry& rest = entries_[index++];
            after.deliveries = rest.message;
            after.worker = rest.name;
            after.receiveCount = static_cast<std::int32_t>(entries_[index++].message);
            break;
        }
    }
    return after;
}

std::size_t MessageChanges::firstFrom(std::uint64_t eventCount) const {
    return firstEntryFromEvent(entries_, eventCount);
}

}  // namespace qs::run
