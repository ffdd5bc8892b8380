#include "broker/recovered_state.h"

#include <algorithm>

namespace qs::broker {

namespace {
constexpr std::size_t kSnapshotChunkBytes = 1 << 20;
}

void RecoveredState::apply(StoreRecord record) {
    if (!record.replacesChannel.empty()) {
        auto source = channels.find(record.replacesChannel);
        if (source != channels.end())
            source->second.messages.erase(record.replacesSequence);
    }
    if (record.releasedDelayId != 0)
        delayed.erase(record.releasedDelayId);
    switch (record.type) {
        case RecordType::Put: {
            RecoveredChannel& channel = channels[record.channel];
            channel.nextSequence = std::max(channel.nextSequence, record.sequence + 1);
            channel.lastTimestamp = std::max(channel.lastTimestamp, record.message.timestamp);
            channel.messages.insert_or_assign(record.sequence, std::move(record.message));
            break;
        }
        case RecordType::Remove: {
            auto channel = channels.find(record.channel);
            if (channel != channels.end())
                channel->second.messages.erase(record.sequence);
            break;
        }
        case RecordType::Delay:
            nextDelayId = std::max(nextDelayId, record.delayId + 1);
            delayed.insert_or_assign(record.delayId,
                                     RecoveredDelay{record.channel, std::move(record.message)});
            break;
        case RecordType::Channel: {
            RecoveredChannel& channel = channels[record.channel];
            channel.nextSequence = std::max(channel.nextSequence, record.sequence);
            channel.lastTimestamp = std::max(channel.lastTimestamp, record.timestamp);
            break;
        }
        case RecordType::DeleteChannel:
            channels.erase(record.channel);
            std::erase_if(
                delayed, [&](const auto& entry) { return entry.second.channel == record.channel; });
            break;
    }
}

std::size_t RecoveredState::messageCount() const {
    std::size_t count = delayed.size();
    for (const auto& entry : channels)
        count += entry.second.messages.size();
    return count;
}

std::size_t RecoveredState::liveBytes() const {
    std::size_t bytes = 0;
    for (const auto& [name, channel] : channels) {
        for (const auto& entry : channel.messages)
            bytes += storedFootprint(name, entry.second);
    }
    for (const auto& entry : delayed)
        bytes += storedFootprint(entry.second.channel, entry.second.message);
    return bytes;
}

void RecoveredState::forEachFrame(const std::function<void(std::string& frames)>& sink) const {
    std::string frames;
    auto flushIfFull = [&] {
        if (frames.size() >= kSnapshotChunkBytes) {
            sink(frames);
            frames.clear();
        }
    };
    for (const auto& [name, channel] : channels) {
        appendChannelFrame(frames, name, channel.nextSequence, channel.lastTimestamp);
        for (const auto& entry : channel.messages) {
            appendPutFrame(frames, name, entry.second, {});
            flushIfFull();
        }
    }
    for (const auto& [id, entry] : delayed) {
        appendDelayFrame(frames, id, entry.channel, entry.message, {});
        flushIfFull();
    }
    if (!frames.empty())
        sink(frames);
}

}  // namespace qs::broker
