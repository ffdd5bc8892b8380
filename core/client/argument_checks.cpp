#include "client/argument_checks.h"

#include <string>
#include <utility>

namespace qs::client {

bool isAsciiWhitespace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::optional<Error> checkChannelName(std::string_view channel, std::string_view what) {
    const std::string name(what);
    if (channel.empty()) {
        return invalidArgument(name + " is required");
    }
    if (channel.back() == '.') {
        return invalidArgument(name + " '" + std::string(channel) + "' must not end with '.'");
    }
    for (char c : channel) {
        if (isAsciiWhitespace(c)) {
            return invalidArgument(name + " '" + std::string(channel) +
                                   "' must not contain whitespace");
        }
        if (c == '*' || c == '>') {
            return invalidArgument(name + " '" + std::string(channel) +
                                   "' must not contain the wildcards '*' or '>'");
        }
    }
    return std::nullopt;
}

std::optional<Error> checkMaxMessages(int maxMessages) {
    if (std::string problem = protocol::kMaxNumberOfMessages.problem(maxMessages);
        !problem.empty()) {
        return invalidArgument(std::move(problem));
    }
    return std::nullopt;
}

std::optional<Error> checkWaitTimeout(std::chrono::milliseconds wait) {
    const auto& limit = protocol::kWaitTimeSeconds;
    if (wait.count() < 0 || wait > std::chrono::seconds(limit.max)) {
        return invalidArgument(std::string(limit.name) + " must be between " +
                               std::to_string(limit.min) + " and " + std::to_string(limit.max) +
                               " seconds (got " + std::to_string(wait.count()) + " ms)");
    }
    return std::nullopt;
}

std::optional<Error> checkVisibility(std::chrono::seconds visibility) {
    const auto& limit = protocol::kVisibilitySeconds;
    if (visibility.count() < 1 || visibility.count() > limit.max) {
        return invalidArgument(std::string(limit.name) + " must be between 1 and " +
                               std::to_string(limit.max) + " (got " +
                               std::to_string(visibility.count()) + ")");
    }
    return std::nullopt;
}

std::optional<Error> checkMessage(const QueueMessage& message) {
    if (auto error = checkChannelName(message.channel, "channel")) {
        return error;
    }
    if (message.metadata.empty() && message.body.empty()) {
        return invalidArgument("message to '" + message.channel +
                               "' needs a body or metadata (tags alone do not count)");
    }
    const MessagePolicy& policy = message.policy;
    for (const auto& [limit, value] :
         {std::pair{&protocol::kExpirationSeconds, policy.expirationSeconds},
          std::pair{&protocol::kDelaySeconds, policy.delaySeconds},
          std::pair{&protocol::kMaxReceiveCount, policy.maxReceiveCount}}) {
        if (std::string problem = limit->problem(value); !problem.empty()) {
            return invalidArgument(std::move(problem));
        }
    }
    if (!policy.deadLetterQueue.empty()) {
        if (auto error = checkChannelName(policy.deadLetterQueue, "dead-letter queue")) {
            return error;
        }
    }
    return std::nullopt;
}

}  // namespace qs::client
