#include "broker/store_record.h"

#include "broker/frame_checksum.h"

#include <bit>
#include <cassert>
#include <cstring>

namespace qs::broker {

static_assert(std::endian::native == std::endian::little, "the store files are little-endian");

namespace {

constexpr std::size_t kMessageFixedBytes = 8 * 4 + 4 * 4 + 1;  // see putMessage
constexpr std::size_t kTextPrefixBytes = 4;

// Writes a payload into memory sized for it beforehand (each frame's size is
// computed first, so a frame costs one resize and plain copies).
class PayloadWriter {
public:
    explicit PayloadWriter(char* at) : at_(at) {}

    template <typename T>
    void value(T value) {
        std::memcpy(at_, &value, sizeof(T));
        at_ += sizeof(T);
    }

    void text(std::string_view text) {
        value<std::uint32_t>(static_cast<std::uint32_t>(text.size()));
        if (!text.empty())
            std::memcpy(at_, text.data(), text.size());
        at_ += text.size();
    }

    const char* at() const { return at_; }

private:
    char* at_;
};

std::size_t textBytes(std::string_view text) {
    return kTextPrefixBytes + text.size();
}

std::size_t messageBytes(const StoredMessage& message) {
    return kMessageFixedBytes + textBytes(message.maxReceiveQueue()) +
           textBytes(message.reRoutedFromQueue()) + textBytes(message.content);
}

std::size_t originBytes(const RecordOrigin& origin) {
    return textBytes(origin.replacesChannel) + 8 + 8;
}

void putMessage(PayloadWriter& out, const StoredMessage& message) {
    out.value(message.sequence);
    out.value(message.timestamp);
    out.value(message.expirationAt);
    out.value(message.delayedTo);
    out.value(message.receiveCount);
    out.value(message.expirationSeconds);
    out.value(message.delaySeconds);
    out.value(message.maxReceiveCount);
    out.value<std::uint8_t>(message.reRouted ? 1 : 0);
    out.text(message.maxReceiveQueue());
    out.text(message.reRoutedFromQueue());
    out.text(message.content);
}

void putOrigin(PayloadWriter& out, const RecordOrigin& origin) {
    out.text(origin.replacesChannel);
    out.value(origin.replacesSequence);
    out.value(origin.releasedDelayId);
}

// Appends a frame whose payload after the type byte is `bodyBytes` long and
// written by `fill`, then fills in the header's length and checksum.
template <typename Fill>
void appendFrame(std::string& out, RecordType type, std::size_t bodyBytes, Fill&& fill) {
    const std::size_t start = out.size();
    const std::size_t payload = 1 + bodyBytes;
    out.resize(start + kFrameHeaderBytes + payload);
    char* const payloadStart = out.data() + start + kFrameHeaderBytes;
    PayloadWriter writer(payloadStart);
    writer.value<std::uint8_t>(static_cast<std::uint8_t>(type));
    fill(writer);
    assert(writer.at() == payloadStart + payload);
    const auto length = static_cast<std::uint32_t>(payload);
    const std::uint32_t crc = frameChecksum(std::string_view(payloadStart, payload));
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
    appendFrame(out, RecordType::Put,
                textBytes(channel) + messageBytes(message) + originBytes(origin),
                [&](PayloadWriter& writer) {
                    writer.text(channel);
                    putMessage(writer, message);
                    putOrigin(writer, origin);
                });
}

void appendRemoveFrame(std::string& out, std::string_view channel, std::uint64_t sequence) {
    appendFrame(out, RecordType::Remove, textBytes(channel) + 8, [&](PayloadWriter& writer) {
        writer.text(channel);
        writer.value(sequence);
    });
}

void appendDelayFrame(std::string& out, std::uint64_t delayId, std::string_view channel,
                      const StoredMessage& message, const RecordOrigin& origin) {
    appendFrame(out, RecordType::Delay,
                8 + textBytes(channel) + messageBytes(message) + originBytes(origin),
                [&](PayloadWriter& writer) {
                    writer.value(delayId);
                    writer.text(channel);
                    putMessage(writer, message);
                    putOrigin(writer, origin);
                });
}

void appendChannelFrame(std::string& out, std::string_view channel, std::uint64_t nextSequence,
                        std::int64_t lastTimestamp) {
    appendFrame(out, RecordType::Channel, textBytes(channel) + 8 + 8, [&](PayloadWriter& writer) {
        writer.text(channel);
        writer.value(nextSequence);
        writer.value(lastTimestamp);
    });
}

void appendDeleteChannelFrame(std::string& out, std::string_view channel) {
    appendFrame(out, RecordType::DeleteChannel, textBytes(channel),
                [&](PayloadWriter& writer) { writer.text(channel); });
}

std::size_t storedFootprint(std::string_view channel, const StoredMessage& message) {
    return kFrameHeaderBytes + 1 + textBytes(channel) + messageBytes(message) +
           originBytes(RecordOrigin{});
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
