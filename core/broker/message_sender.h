#pragma once

#include <string_view>

#include "broker/queue_engine.h"
#include "kubemq.pb.h"

namespace qs::broker {

// The send path every producer RPC shares (spec §2.3): defaults, validation
// with the exact error texts, then storing through the engine.
class MessageSender {
public:
    explicit MessageSender(QueueEngine& engine) : engine_(engine) {}

    // Validates and stores one message; errors are reported in-band.
    // `brokerFailure` (optional) is set when the store itself refused it.
    kubemq::SendQueueMessageResult send(const kubemq::QueueMessage& message,
                                        bool* brokerFailure = nullptr);

    // First validation error of §2.3 step 5 for `message`, or "" when valid.
    static std::string_view validate(const kubemq::QueueMessage& message);

    // The stored form of a valid message (policy enforced, id assigned).
    static StoredMessage toStored(const kubemq::QueueMessage& message, std::string_view messageId);

private:
    QueueEngine& engine_;
};

}  // namespace qs::broker
