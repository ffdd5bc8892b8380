#include "broker/recovered_state.h"

#include <algorithm>

namespace qs::broker {

namespace {
constexpr std::size_t kSnapshotChunkBytes = 1 << 20;
}

bool RecoveredMessages::put(StoredMessage message, std::uint64_t maxGap) {
    const std::uint64_t sequence = message.sequence;
    if (slots_.empty()) {
        base_ = sequence;
        slots_.push_back(std::move(message));
        ++live_;
        return true;
    }
    const std::uint64_t end = base_ + slots_.size();
    if (sequence >= end) {
        if (sequence - end > maxGap)
            return false;
        slots_.resize(slots_.size() + static_cast<std::size_t>(sequence - end));
        slots_.push_back(std::move(message));
        ++live_;
    } else if (sequence < base_) {
        if (base_ - sequence > maxGap)
            return false;
        for (std::uint64_t gap = base_ - sequence - 1; gap > 0; --gap)
            slots_.emplace_front();
        slots_.push_front(std::move(message));
        base_ = sequence;
        ++live_;
    } else {
        StoredMessage& slot = slots_[static_cast<std::size_t>(sequence - base_)];
        if (slot.sequence == 0)
            ++live_;
        slot = std::move(message);
    }
    return true;
}

void RecoveredMessages::remove(std::uint64_t sequence) {
    if (slots_.empty() || sequence < base_ || sequence >= base_ + slots_.size())
        return;
    StoredMessage& slot = slots_[static_cast<std::size_t>(sequence - base_)];
    if (slot.sequence == 0)
        return;
    slot = StoredMessage{};
    --live_;
    trim();
}

void RecoveredMessages::trim() {
    while (!slots_.empty() && slots_.front().sequence == 0) {
        slots_.pop_front();
        ++base_;
    }
    while (!slots_.empty() && slots_.back().sequence == 0)
        slots_.pop_back();
    if (slots_.empty())
        base_ = 0;
}

bool RecoveredState::apply(StoreRecord record) {
    if (!record.replacesChannel.empty()) {
        auto source = channels.find(record.replacesChannel);
        if (source != channels.end())
            source->second.messages.remove(record.replacesSequence);
    }
    if (record.releasedDelayId != 0)
        delayed.erase(record.releasedDelayId);
    switch (record.type) {
        case RecordType::Put: {
            RecoveredChannel& channel = channels[record.channel];
            channel.nextSequence = std::max(channel.nextSequence, record.sequence + 1);
            channel.lastTimestamp = std::max(channel.lastTimestamp, record.message.timestamp);
            record.message.sequence = record.sequence;
            if (!channel.messages.put(std::move(record.message), maxSequenceGap))
                return false;
            break;
        }
        case RecordType::Remove: {
            auto channel = channels.find(record.channel);
            if (channel != channels.end())
                channel->second.messages.remove(record.sequence);
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
    return true;
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
        for (const auto& message : channel.messages.slots()) {
            if (message.sequence != 0)
                bytes += storedFootprint(name, message);
        }
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
        for (const auto& message : channel.messages.slots()) {
            if (message.sequence == 0)
                continue;
            appendPutFrame(frames, name, message, {});
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
