#include "client/argument_checks.h"

#include <string>

namespace qs::client {

namespace {

Error invalid(std::string message) {
    return Error{ErrorCategory::InvalidArgument, std::move(message), 0};
}

bool isWhitespace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

}  // namespace

std::optional<Error> checkChannelName(std::string_view channel, std::string_view what) {
    const std::string name(what);
    if (channel.empty()) {
        return invalid(name + " is required");
    }
    if (channel.back() == '.') {
        return invalid(name + " '" + std::string(channel) + "' must not end with '.'");
    }
    for (char c : channel) {
        if (isWhitespace(c)) {
            return invalid(name + " '" + std::string(channel) + "' must not contain whitespace");
        }
        if (c == '*' || c == '>') {
            return invalid(name + " '" + std::string(channel) +
                           "' must not contain the wildcards '*' or '>'");
        }
    }
    return std::nullopt;
}

std::optional<Error> checkMaxMessages(int maxMessages) {
    if (maxMessages < 1 || maxMessages > kMaxMessagesLimit) {
        return invalid("max messages must be between 1 and " + std::to_string(kMaxMessagesLimit) +
                       " (got " + std::to_string(maxMessages) + ")");
    }
    return std::nullopt;
}

std::optional<Error> checkWaitTimeout(std::chrono::milliseconds wait) {
    if (wait.count() < 0 || wait > kMaxWaitTimeout) {
        return invalid("wait timeout must be between 0 and " +
                       std::to_string(kMaxWaitTimeout.count()) + " seconds (got " +
                       std::to_string(wait.count()) + " ms)");
    }
    return std::nullopt;
}

std::optional<Error> checkMessage(const QueueMessage& message) {
    if (auto error = checkChannelName(message.channel, "channel")) {
        return error;
    }
    if (message.metadata.empty() && message.body.empty()) {
        return invalid("message to '" + message.channel +
                       "' needs a body or metadata (tags alone do not count)");
    }
    const MessagePolicy& policy = message.policy;
    if (policy.expirationSeconds < 0 || policy.expirationSeconds > kMaxExpirationSeconds) {
        return invalid("expiration seconds must be between 0 and " +
                       std::to_string(kMaxExpirationSeconds) + " (got " +
                       std::to_string(policy.expirationSeconds) + ")");
    }
    if (policy.delaySeconds < 0 || policy.delaySeconds > kMaxDelaySeconds) {
        return invalid("delay seconds must be between 0 and " + std::to_string(kMaxDelaySeconds) +
                       " (got " + std::to_string(policy.delaySeconds) + ")");
    }
    if (policy.maxReceiveCount < 0 || policy.maxReceiveCount > kMaxReceiveCountLimit) {
        return invalid("max receive count must be between 0 and " +
                       std::to_string(kMaxReceiveCountLimit) + " (got " +
                       std::to_string(policy.maxReceiveCount) + ")");
    }
    if (!policy.deadLetterQueue.empty()) {
        if (auto error = checkChannelName(policy.deadLetterQueue, "dead-letter queue")) {
            return error;
        }
    }
    return std::nullopt;
}

}  // namespace qs::client
