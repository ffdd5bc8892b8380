#include "broker/message_codec.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

namespace qs::broker {

namespace {
using google::protobuf::io::CodedOutputStream;

constexpr std::uint32_t lengthTag(int field) {
    return static_cast<std::uint32_t>(field << 3 | 2);
}

std::size_t fieldSize(std::size_t length) {
    return 1 + CodedOutputStream::VarintSize32(static_cast<std::uint32_t>(length)) + length;
}

void writeString(CodedOutputStream& out, int field, std::string_view value) {
    if (value.empty())
        return;
    out.WriteTag(lengthTag(field));
    out.WriteVarint32(static_cast<std::uint32_t>(value.size()));
    out.WriteRaw(value.data(), static_cast<int>(value.size()));
}
}  // namespace

std::string encodeContent(const kubemq::QueueMessage& message, std::string_view messageId) {
    std::string out;
    out.reserve(16 + messageId.size() + message.clientid().size() + message.metadata().size() +
                message.body().size());
    {
        google::protobuf::io::StringOutputStream stream(&out);
        CodedOutputStream coded(&stream);
        writeString(coded, 1, messageId);
        writeString(coded, 2, message.clientid());
        writeString(coded, 4, message.metadata());
        writeString(coded, 5, message.body());
        for (const auto& [key, value] : message.tags()) {
            const std::size_t entry = fieldSize(key.size()) + fieldSize(value.size());
            coded.WriteTag(lengthTag(6));
            coded.WriteVarint32(static_cast<std::uint32_t>(entry));
            coded.WriteTag(lengthTag(1));
            coded.WriteVarint32(static_cast<std::uint32_t>(key.size()));
            coded.WriteRaw(key.data(), static_cast<int>(key.size()));
            coded.WriteTag(lengthTag(2));
            coded.WriteVarint32(static_cast<std::uint32_t>(value.size()));
            coded.WriteRaw(value.data(), static_cast<int>(value.size()));
        }
        writeString(coded, 9, message.topic());
        if (message.partition() != 0) {
            coded.WriteTag(10 << 3);
            coded.WriteVarint64(
                static_cast<std::uint64_t>(static_cast<std::int64_t>(message.partition())));
        }
        writeString(coded, 11, message.partitionkey());
    }
    return out;
}

void decodeMessage(const StoredMessage& stored, const std::string& channel,
                   kubemq::QueueMessage* out) {
    out->ParsePartialFromString(stored.content);
    out->set_channel(channel);
    auto* attributes = out->mutable_attributes();
    attributes->set_timestamp(stored.timestamp);
    attributes->set_sequence(stored.sequence);
    attributes->set_receivecount(stored.receiveCount);
    attributes->set_rerouted(stored.reRouted);
    attributes->set_reroutedfromqueue(stored.reRoutedFromQueue());
    attributes->set_expirationat(stored.expirationAt);
    attributes->set_delayedto(stored.delayedTo);
    auto* policy = out->mutable_policy();
    policy->set_expirationseconds(stored.expirationSeconds);
    policy->set_delayseconds(stored.delaySeconds);
    policy->set_maxreceivecount(stored.maxReceiveCount);
    policy->set_maxreceivequeue(stored.maxReceiveQueue());
}

}  // namespace qs::broker
