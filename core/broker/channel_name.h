#pragma once

#include <string_view>

namespace qs::broker {

// How KubeMQ v2.4.0 treats a queue name (spec §2.2). The server validation
// yields Error 120; the NATS-Streaming layer below it rejects more names on
// publish ("stan: invalid publish request") and on subscribe (Error 121).
enum class ChannelNameCheck {
    Valid,
    Invalid,          // Error 120 everywhere (empty, trailing '.', ' ', '*', '>', control chars)
    PublishRejected,  // '/', leading '.', or '..': send fails, receive Error 121
    ReceiveRejected,  // ':': sending works, every receive path Error 121
};

ChannelNameCheck checkChannelName(std::string_view name);

// True when a message may be stored under this name (Valid or ReceiveRejected).
bool canPublishTo(std::string_view name);
// True when a consumer may subscribe to this name (only Valid).
bool canReceiveFrom(std::string_view name);

}  // namespace qs::broker
