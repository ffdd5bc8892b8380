#include "broker/channel_name.h"

namespace qs::broker {

ChannelNameCheck checkChannelName(std::string_view name) {
    if (name.empty() || name.back() == '.')
        return ChannelNameCheck::Invalid;
    for (char c : name) {
        // The real server tests only ' '; a TAB or other control character makes
        // its NATS connection fail (spec §6.3), so reject them the same way.
        if (c == ' ' || c == '*' || c == '>' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            return ChannelNameCheck::Invalid;
    }
    if (name.front() == '.' || name.find('/') != std::string_view::npos ||
        name.find("..") != std::string_view::npos)
        return ChannelNameCheck::PublishRejected;
    if (name.find(':') != std::string_view::npos)
        return ChannelNameCheck::ReceiveRejected;
    return ChannelNameCheck::Valid;
}

bool canPublishTo(std::string_view name) {
    const auto check = checkChannelName(name);
    return check == ChannelNameCheck::Valid || check == ChannelNameCheck::ReceiveRejected;
}

bool canReceiveFrom(std::string_view name) {
    return checkChannelName(name) == ChannelNameCheck::Valid;
}

}  // namespace qs::broker
