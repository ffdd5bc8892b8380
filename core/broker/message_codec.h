#pragma once

#include <string>
#include <string_view>

#include "broker/stored_message.h"
#include "kubemq.pb.h"

namespace qs::broker {

// Encodes the client-owned fields of `message` (ClientID, Metadata, Body,
// Tags, Topic, Partition, PartitionKey) plus `messageId` as the opaque
// content blob of a StoredMessage. MessageID is written first.
std::string encodeContent(const kubemq::QueueMessage& message, std::string_view messageId);

// Fills `out` with the wire form of a stored copy held in `channel`: the
// content fields, Attributes (receive count as stored) and Policy.
void decodeMessage(const StoredMessage& stored, const std::string& channel,
                   kubemq::QueueMessage* out);

}  // namespace qs::broker
