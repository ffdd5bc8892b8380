#pragma once

#include <chrono>
#include <optional>
#include <string_view>

#include "client/error.h"
#include "client/queue_message.h"

// Client-side argument checks, as the official SDKs do them. Each returns
// nullopt when the argument is fine, else an InvalidArgument Error. Pure
// functions; safe from any thread.
namespace qs::client {

inline constexpr int kMaxMessagesLimit = 1024;
inline constexpr std::chrono::seconds kMaxWaitTimeout{3600};
inline constexpr int kMaxExpirationSeconds = 43200;
inline constexpr int kMaxDelaySeconds = 43200;
inline constexpr int kMaxReceiveCountLimit = 1024;

// Spec §2.2: required; no trailing '.', no space, no '*' or '>'. Any other
// whitespace is rejected too (a real server hangs on a TAB, spec §6 item 3).
std::optional<Error> checkChannelName(std::string_view channel, std::string_view what = "channel");
std::optional<Error> checkMaxMessages(int maxMessages);                 // 1..1024
std::optional<Error> checkWaitTimeout(std::chrono::milliseconds wait);  // 0..3600 s
// Channel, non-empty metadata or body, policy ranges, dead-letter queue name.
std::optional<Error> checkMessage(const QueueMessage& message);

}  // namespace qs::client
