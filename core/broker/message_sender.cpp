#include "broker/message_sender.h"

#include "broker/channel_name.h"
#include "broker/kubemq_errors.h"
#include "broker/message_codec.h"
#include "common/clock.h"
#include "common/ids.h"
#include "common/protocol_limits.h"

namespace qs::broker {

std::string_view MessageSender::validate(const kubemq::QueueMessage& message) {
    if (message.clientid().empty())
        return errors::kClientId;
    if (checkChannelName(message.channel()) == ChannelNameCheck::Invalid)
        return errors::kQueueName;
    if (message.metadata().empty() && message.body().empty())
        return errors::kEmptyMessage;
    const auto& policy = message.policy();
    if (!protocol::kExpirationSeconds.contains(policy.expirationseconds()))
        return errors::kExpiration;
    if (!protocol::kMaxReceiveCount.contains(policy.maxreceivecount()))
        return errors::kMaxReceiveCount;
    if (!protocol::kDelaySeconds.contains(policy.delayseconds()))
        return errors::kDelay;
    if (!policy.maxreceivequeue().empty() &&
        checkChannelName(policy.maxreceivequeue()) == ChannelNameCheck::Invalid)
        return errors::kQueueName;
    return {};
}

StoredMessage MessageSender::toStored(const kubemq::QueueMessage& message,
                                      std::string_view messageId) {
    StoredMessage stored;
    stored.content = encodeContent(message, messageId);
    const auto& policy = message.policy();
    stored.expirationSeconds = policy.expirationseconds();
    stored.delaySeconds = policy.delayseconds();
    stored.maxReceiveCount = policy.maxreceivecount() == 0 ? protocol::kDefaultMaxReceiveCount
                                                           : policy.maxreceivecount();
    if (!policy.maxreceivequeue().empty())
        stored.setRouting(policy.maxreceivequeue(), {});
    return stored;
}

kubemq::SendQueueMessageResult MessageSender::send(const kubemq::QueueMessage& message,
                                                   bool* brokerFailure) {
    kubemq::SendQueueMessageResult result;
    const std::string messageId = message.messageid().empty() ? newNuid() : message.messageid();
    result.set_messageid(messageId);
    std::string_view error = validate(message);
    if (error.empty()) {
        error = QueueEngine::publishError(message.channel());
        if (!error.empty() && brokerFailure != nullptr)
            *brokerFailure = true;
    }
    if (!error.empty()) {
        result.set_iserror(true);
        result.set_error(std::string(error));
        return result;
    }
    const StoreResult stored =
        engine_.send(message.channel(), toStored(message, messageId), message.clientid());
    result.set_sentat(unixNanos());
    result.set_expirationat(stored.expirationAt);
    result.set_delayedto(stored.delayedTo);
    return result;
}

}  // namespace qs::broker
