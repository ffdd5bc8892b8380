#pragma once

// Private: conversions between the wire types and the client's value structs.
#include <grpcpp/grpcpp.h>

#include "client/error.h"
#include "client/queue_channel_info.h"
#include "client/queue_message.h"
#include "client/server_info.h"
#include "kubemq.pb.h"

namespace qs::client::detail {

void toProto(const QueueMessage& message, kubemq::QueueMessage* out);
QueueMessage fromProto(const kubemq::QueueMessage& message);
// Same, moving the strings out of `message` (left valid but unspecified).
QueueMessage fromProto(kubemq::QueueMessage&& message);
SendResult fromProto(const kubemq::SendQueueMessageResult& result);
ServerInfo fromProto(const kubemq::PingResult& result);
QueueChannelInfo fromProto(const kubemq::QueueInfo& info);

// gRPC status -> Error. cancelledByUs turns CANCELLED into Cancelled (else
// the peer or transport cancelled, which is Unavailable).
Error fromStatus(const grpc::Status& status, bool cancelledByUs, std::string_view what);

}  // namespace qs::client::detail
