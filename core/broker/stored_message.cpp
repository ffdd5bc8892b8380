#include "broker/stored_message.h"

namespace qs::broker {

namespace {
const std::string& emptyString() {
    static const std::string empty;
    return empty;
}
}  // namespace

const std::string& StoredMessage::maxReceiveQueue() const {
    return routing ? routing->maxReceiveQueue : emptyString();
}

const std::string& StoredMessage::reRoutedFromQueue() const {
    return routing ? routing->reRoutedFromQueue : emptyString();
}

void StoredMessage::setRouting(std::string maxQueue, std::string fromQueue) {
    if (maxQueue.empty() && fromQueue.empty()) {
        routing.reset();
        return;
    }
    routing = std::make_shared<const MessageRouting>(
        MessageRouting{std::move(maxQueue), std::move(fromQueue)});
}

std::string_view messageIdOf(std::string_view content) {
    // Field 1, wire type 2 (tag byte 0x0A) is always encoded first.
    if (content.size() < 2 || static_cast<unsigned char>(content[0]) != 0x0A)
        return {};
    std::size_t pos = 1;
    std::uint64_t length = 0;
    for (int shift = 0; pos < content.size() && shift < 64; shift += 7) {
        const auto byte = static_cast<unsigned char>(content[pos++]);
        length |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
        if ((byte & 0x80) == 0) {
            if (length > content.size() - pos)
                return {};
            return content.substr(pos, static_cast<std::size_t>(length));
        }
    }
    return {};
}

}  // namespace qs::broker
