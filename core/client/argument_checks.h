#pragma once

#include <chrono>
#include <optional>
#include <string_view>

#include "client/error.h"
#include "client/queue_message.h"
#include "common/protocol_limits.h"

// Client-side argument checks, as the official SDKs do them, against the
// protocol's limits (common/protocol_limits.h). Each returns nullopt when the
// argument is fine, else an InvalidArgument Error. Pure functions; safe from
// any thread.
namespace qs::client {

// ' ', '\t', '\n', '\r', '\v' and '\f', whatever the locale.
bool isAsciiWhitespace(char c);

// Spec §2.2: required; no trailing '.', no space, no '*' or '>'. Any other
// whitespace is rejected too (a real server hangs on a TAB, spec §6 item 3).
std::optional<Error> checkChannelName(std::string_view channel, std::string_view what = "channel");
// protocol::kMaxNumberOfMessages, for pulls, peeks and downstream Gets alike
// (the server would serve a bigger Get; the Python SDK refuses it too).
std::optional<Error> checkMaxMessages(int maxMessages);
// protocol::kWaitTimeSeconds, for every receive.
std::optional<Error> checkWaitTimeout(std::chrono::milliseconds wait);
// protocol::kVisibilitySeconds without its 0 (= the server's 60 s): 1..43200 s,
// for the v1 stream's receive and extend.
std::optional<Error> checkVisibility(std::chrono::seconds visibility);
// Channel, non-empty metadata or body, policy ranges, dead-letter queue name.
std::optional<Error> checkMessage(const QueueMessage& message);

}  // namespace qs::client
