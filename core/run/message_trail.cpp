#include "run/message_trail.h"

#include <algorithm>

namespace qs::run {

void MessageTrail::link(std::uint32_t message, std::uint32_t event) {
    lastLink_.growTo(std::size_t{message} + 1, kNone);
    firstEvent_.growTo(lastLink_.size(), kNone);
    const std::uint32_t last = lastLink_[message];
    if (last == kNone)
        firstEvent_.set(message, event);
    if (last != kNone && links_[last].event == event)
        return;
    lastLink_.set(message, static_cast<std::uint32_t>(links_.size()));
    links_.push_back({event, last});
}

std::vector<std::uint32_t> MessageTrail::events(std::uint32_t message) const {
    std::vector<std::uint32_t> out;
    if (message >= lastLink_.size())
        return out;
    for (std::uint32_t at = lastLink_[message]; at != kNone; at = links_[at].previous)
        out.push_back(links_[at].event);
    std::reverse(out.begin(), out.end());
    return out;
}

}  // namespace qs::run
