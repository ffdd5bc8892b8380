#include "client/proto_convert.h"

#include <string>

namespace qs::client::detail {

void toProto(const QueueMessage& message, kubemq::QueueMessage* out) {
    out->set_messageid(message.id);
    out->set_clientid(message.clientId);
    out->set_channel(message.channel);
    out->set_metadata(message.metadata);
    out->set_body(message.body);
    for (const auto& [key, value] : message.tags) {
        (*out->mutable_tags())[key] = value;
    }
    const MessagePolicy& policy = message.policy;
    if (policy.expirationSeconds != 0 || policy.delaySeconds != 0 || policy.maxReceiveCount != 0 ||
        !policy.deadLetterQueue.empty()) {
        kubemq::QueueMessagePolicy* p = out->mutable_policy();
        p->set_expirationseconds(policy.expirationSeconds);
        p->set_delayseconds(policy.delaySeconds);
        p->set_maxreceivecount(policy.maxReceiveCount);
        p->set_maxreceivequeue(policy.deadLetterQueue);
    }
}

namespace {

// The scalar parts both conversions share (the strings are copied or moved by
// the caller).
void copyAttributesAndPolicy(const kubemq::QueueMessage& message, QueueMessage& out) {
    const kubemq::QueueMessageAttributes& a = message.attributes();
    out.attributes.timestamp = a.timestamp();
    out.attributes.sequence = a.sequence();
    out.attributes.receiveCount = a.receivecount();
    out.attributes.reRouted = a.rerouted();
    out.attributes.reRoutedFrom = a.reroutedfromqueue();
    out.attributes.expirationAt = a.expirationat();
    out.attributes.delayedTo = a.delayedto();
    const kubemq::QueueMessagePolicy& p = message.policy();
    out.policy.expirationSeconds = p.expirationseconds();
    out.policy.delaySeconds = p.delayseconds();
    out.policy.maxReceiveCount = p.maxreceivecount();
    out.policy.deadLetterQueue = p.maxreceivequeue();
}

}  // namespace

QueueMessage fromProto(const kubemq::QueueMessage& message) {
    QueueMessage out;
    out.id = message.messageid();
    out.clientId = message.clientid();
    out.channel = message.channel();
    out.metadata = message.metadata();
    out.body = message.body();
    for (const auto& [key, value] : message.tags()) {
        out.tags.emplace(key, value);
    }
    copyAttributesAndPolicy(message, out);
    return out;
}

QueueMessage fromProto(kubemq::QueueMessage&& message) {
    QueueMessage out;
    out.id = std::move(*message.mutable_messageid());
    out.clientId = std::move(*message.mutable_clientid());
    out.channel = std::move(*message.mutable_channel());
    out.metadata = std::move(*message.mutable_metadata());
    out.body = std::move(*message.mutable_body());
    for (auto& [key, value] : *message.mutable_tags()) {
        out.tags.emplace(key, std::move(value));
    }
    copyAttributesAndPolicy(message, out);
    return out;
}

SendResult fromProto(const kubemq::SendQueueMessageResult& result) {
    SendResult out;
    out.messageId = result.messageid();
    out.sentAt = result.sentat();
    out.expirationAt = result.expirationat();
    out.delayedTo = result.delayedto();
    out.isError = result.iserror();
    out.error = result.error();
    return out;
}

ServerInfo fromProto(const kubemq::PingResult& result) {
    return ServerInfo{result.host(), result.version(), result.serverstarttime(),
                      result.serveruptimeseconds()};
}

QueueChannelInfo fromProto(const kubemq::QueueInfo& info) {
    QueueChannelInfo out;
    out.name = info.name();
    out.source = ChannelInfoSource::QueuesInfo;
    out.incoming.messages = info.sent();
    out.incoming.volume = info.bytes();
    out.incoming.waiting = info.waiting();
    out.outgoing.messages = info.delivered();
    out.outgoing.waiting = info.waiting();
    out.isActive = info.subscribers() > 0;
    out.storedMessages = info.messages();
    out.storedBytes = info.bytes();
    out.firstSequence = info.firstsequence();
    out.lastSequence = info.lastsequence();
    out.subscribers = info.subscribers();
    out.clients = info.subscribers();
    return out;
}

Error fromStatus(const grpc::Status& status, bool cancelledByUs, std::string_view what) {
    const int code = static_cast<int>(status.error_code());
    std::string text(what);
    text += ": ";
    text += status.error_message().empty() ? std::string("(no message)") : status.error_message();
    switch (status.error_code()) {
        case grpc::StatusCode::OK:
            return Error{ErrorCategory::ServerError, std::string(what) + ": unexpected OK", 0};
        case grpc::StatusCode::CANCELLED:
            if (cancelledByUs) {
                return Error{ErrorCategory::Cancelled, std::string(what) + ": cancelled", code};
            }
            return Error{ErrorCategory::Unavailable, text, code};
        case grpc::StatusCode::UNAVAILABLE:
            return Error{ErrorCategory::Unavailable, text, code};
        case grpc::StatusCode::DEADLINE_EXCEEDED:
            return Error{ErrorCategory::Timeout, text, code};
        case grpc::StatusCode::UNAUTHENTICATED:
        case grpc::StatusCode::PERMISSION_DENIED:
            return Error{ErrorCategory::Auth, text, code};
        case grpc::StatusCode::INVALID_ARGUMENT:
        case grpc::StatusCode::RESOURCE_EXHAUSTED:
        case grpc::StatusCode::OUT_OF_RANGE:
            return Error{ErrorCategory::InvalidArgument, text, code};
        case grpc::StatusCode::UNIMPLEMENTED:
            return Error{ErrorCategory::Unsupported, text, code};
        default:
            return Error{ErrorCategory::ServerError, text, code};
    }
}

}  // namespace qs::client::detail
