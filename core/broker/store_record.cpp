#include "broker/store_record.h"

#include "broker/frame_checksum.h"

#include <bit>
#include <cstring>

namespace qs::broker {

static_assert(std::endian::native == std::endian::little, "the store files are little-endian");

namespace {

constexpr std::size_t kMessageFixedBytes = 8 * 4 + 4 * 4 + 1;  // see putMessage

template <typename T>
void putValue(std::string& out, T value) {
    char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    out.append(bytes, sizeof(T));
}

void putText(std::string& out, std::string_view text) {
    putValue<std::uint32_t>(out, static_cast<std::uint32_t>(text.size()));
    out.append(text);
}

void putMessage(std::string& out, const StoredMessage& message) {
    putValue(out, message.sequence);
    putValue(out, message.timestamp);
    putValue(out, message.expirationAt);
    putValue(out, message.delayedTo);
    putValue(out, message.receiveCount);
    putValue(out, message.expirationSeconds);
    putValue(out, message.delaySeconds);
    putValue(out, message.maxReceiveCount);
    putValue<std::uint8_t>(out, message.reRouted ? 1 : 0);
    putText(out, message.maxReceiveQueue());
    putText(out, message.reRoutedFromQueue());
    putText(out, message.content);
}

void putOrigin(std::string& out, const RecordOrigin& origin) {
    putText(out, origin.replacesChannel);
    putValue(out, origin.replacesSequence);
    putValue(out, origin.releasedDelayId);
}

// Reserves the frame header, lets `fill` write the payload, then fills in the
// payload's length and checksum.
template <typename Fill>
void appendFrame(std::string& out, RecordType type, Fill&& fill) {
    const std::size_t start = out.size();
    out.append(kFrameHeaderBytes, '\0');
    putValue<std::uint8_t>(out, static_cast<std::uint8_t>(type));
    fill();
    const std::size_t payload = out.size() - start - kFrameHeaderBytes;
    const auto length = static_cast<std::uint32_t>(payload);
    const std::uint32_t crc =
        frameChecksum(std::string_view(out).substr(start + kFrameHeaderBytes, payload));
    std::memcpy(out.data() + start, &length, 4);
    std::memcpy(out.data() + start + 4, &crc, 4);
}

// Bounds-checked reading of a payload; any overrun marks it bad.
class PayloadReader {
public:
    explicit PayloadReader(std::string_view data) : data_(data) {}

    template <typename T>
    T value() {
        T result{};
        if (data_.size() - pos_ < sizeof(T)) {
            bad_ = true;
            return result;
        }
        std::memcpy(&result, data_.data() + pos_, sizeof(T));
        pos_ += sizeof(T);
        return result;
    }

    std::string text() {
        const auto length = value<std::uint32_t>();
        if (bad_ || data_.size() - pos_ < length) {
            bad_ = true;
            return {};
        }
        std::string result(data_.substr(pos_, length));
        pos_ += length;
        return result;
    }

    bool ok() const { return !bad_ && pos_ == data_.size(); }

private:
    std::string_view data_;
    std::size_t pos_ = 0;
    bool bad_ = false;
};

void readMessage(PayloadReader& in, StoredMessage& message) {
    message.sequence = in.value<std::uint64_t>();
    message.timestamp = in.value<std::int64_t>();
    message.expirationAt = in.value<std::int64_t>();
    message.delayedTo = in.value<std::int64_t>();
    message.receiveCount = in.value<std::int32_t>();
    message.expirationSeconds = in.value<std::int32_t>();
    message.delaySeconds = in.value<std::int32_t>();
    message.maxReceiveCount = in.value<std::int32_t>();
    message.reRouted = in.value<std::uint8_t>() != 0;
    std::string maxReceiveQueue = in.text();
    std::string reRoutedFromQueue = in.text();
    message.setRouting(std::move(maxReceiveQueue), std::move(reRoutedFromQueue));
    message.content = in.text();
}

void readOrigin(PayloadReader& in, StoreRecord& record) {
    record.replacesChannel = in.text();
    record.replacesSequence = in.value<std::uint64_t>();
    record.releasedDelayId = in.value<std::uint64_t>();
}

bool decodePayload(std::string_view payload, StoreRecord& record) {
    PayloadReader in(payload);
    const auto type = in.value<std::uint8_t>();
    record = StoreRecord{};
    switch (static_cast<RecordType>(type)) {
        case RecordType::Put:
            record.type = RecordType::Put;
            record.channel = in.text();
            readMessage(in, record.message);
            readOrigin(in, record);
            record.sequence = record.message.sequence;
            return in.ok() && record.sequence > 0;
        case RecordType::Remove:
            record.type = RecordType::Remove;
            record.channel = in.text();
            record.sequence = in.value<std::uint64_t>();
            return in.ok();
        case RecordType::Delay:
            record.type = RecordType::Delay;
            record.delayId = in.value<std::uint64_t>();
            record.channel = in.text();
            readMessage(in, record.message);
            readOrigin(in, record);
            return in.ok() && record.delayId > 0;
        case RecordType::Channel:
            record.type = RecordType::Channel;
            record.channel = in.text();
            record.sequence = in.value<std::uint64_t>();
            record.timestamp = in.value<std::int64_t>();
            return in.ok() && record.sequence > 0;
        case RecordType::DeleteChannel:
            record.type = RecordType::DeleteChannel;
            record.channel = in.text();
            return in.ok();
    }
    return false;
}

}  // namespace

void appendPutFrame(std::string& out, std::string_view channel, const StoredMessage& message,
                    const RecordOrigin& origin) {
    appendFrame(out, RecordType::Put, [&] {
        putText(out, channel);
        putMessage(out, message);
        putOrigin(out, origin);
    });
}

void appendRemoveFrame(std::string& out, std::string_view channel, std::uint64_t sequence) {
    appendFrame(out, RecordType::Remove, [&] {
        putText(out, channel);
        putValue(out, sequence);
    });
}

void appendDelayFrame(std::string& out, std::uint64_t delayId, std::string_view channel,
                      const StoredMessage& message, const RecordOrigin& origin) {
    appendFrame(out, RecordType::Delay, [&] {
        putValue(out, delayId);
        putText(out, channel);
        putMessage(out, message);
        putOrigin(out, origin);
    });
}

void appendChannelFrame(std::string& out, std::string_view channel, std::uint64_t nextSequence,
                        std::int64_t lastTimestamp) {
    appendFrame(out, RecordType::Channel, [&] {
        putText(out, channel);
        putValue(out, nextSequence);
        putValue(out, lastTimestamp);
    });
}

void appendDeleteChannelFrame(std::string& out, std::string_view channel) {
    appendFrame(out, RecordType::DeleteChannel, [&] { putText(out, channel); });
}

std::size_t storedFootprint(std::string_view channel, const StoredMessage& message) {
    return kFrameHeaderBytes + 1 + 4 + channel.size() + kMessageFixedBytes + 12 +
           message.maxReceiveQueue().size() + message.reRoutedFromQueue().size() +
           message.content.size() + 20;
}

FrameCheck readFrame(std::string_view data, StoreRecord* record, std::size_t* frameBytes) {
    if (data.size() < kFrameHeaderBytes)
        return FrameCheck::Truncated;
    std::uint32_t length = 0;
    std::uint32_t crc = 0;
    std::memcpy(&length, data.data(), 4);
    std::memcpy(&crc, data.data() + 4, 4);
    if (length == 0 || length > kMaxRecordPayload)
        return FrameCheck::Corrupt;
    if (data.size() - kFrameHeaderBytes < length)
        return FrameCheck::Truncated;
    const std::string_view payload = data.substr(kFrameHeaderBytes, length);
    if (frameChecksum(payload) != crc || !decodePayload(payload, *record))
        return FrameCheck::Corrupt;
    *frameBytes = kFrameHeaderBytes + length;
    return FrameCheck::Complete;
}

}  // namespace qs::broker
