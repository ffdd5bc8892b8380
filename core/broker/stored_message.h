#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace qs::broker {

// Rarely set names, kept out of line so the common message stays small.
struct MessageRouting {
    std::string maxReceiveQueue;    // Policy.MaxReceiveQueue
    std::string reRoutedFromQueue;  // Attributes.ReRoutedFromQueue (dead-letter copies)
};

// One stored copy of a queue message as the engine keeps it. The client's own
// fields (MessageID, ClientID, Metadata, Body, Tags, ...) travel as one opaque
// encoded blob (see message_codec.h) so a queued message costs one allocation
// plus this struct. Attributes and the enforced Policy are plain fields.
struct StoredMessage {
    std::string content;
    std::int64_t timestamp = 0;     // Unix ns when this copy was stored
    std::int64_t expirationAt = 0;  // Unix ns, 0 = never
    std::int64_t delayedTo = 0;     // Unix ns while delayed (and copied into dead letters)
    std::uint64_t sequence = 0;     // in the channel it is stored in
    std::int32_t receiveCount = 0;  // stored count c; every hand-out shows c + 1
    std::int32_t expirationSeconds = 0;
    std::int32_t delaySeconds = 0;
    std::int32_t maxReceiveCount = 0;  // 0 = unlimited (dead-letter copies)
    bool reRouted = false;
    std::shared_ptr<const MessageRouting> routing;  // null = both names empty

    const std::string& maxReceiveQueue() const;
    const std::string& reRoutedFromQueue() const;
    void setRouting(std::string maxReceiveQueue, std::string reRoutedFromQueue);
};

// MessageID of an encoded content blob (its first field); empty if absent.
std::string_view messageIdOf(std::string_view content);

}  // namespace qs::broker
