#include "events/event_fields.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <vector>

#include "events/config_change.h"

namespace qs {

EventFieldNames eventFieldNames(EventKind kind) {
    switch (kind) {
        case EventKind::TaskSent:
            return {"delay_seconds", "task_number", "body_excerpt"};
        case EventKind::SendFailed:
            return {{}, "task_number", "error"};
        case EventKind::PollStarted:
            return {"max_messages", "wait_timeout_ms", {}};
        case EventKind::PollReturned:
            return {"received", "waited_ms", {}};
        case EventKind::Redelivered:
            return {"handout_number", {}, "previous_worker"};
        case EventKind::WorkStarted:
            return {"planned_work_ns", {}, {}};
        case EventKind::WorkFinished:
            return {"work_ns", {}, {}};
        case EventKind::Acked:
            return {{}, {}, "ack_mode"};
        case EventKind::Rejected:
            return {{}, {}, "reason"};
        case EventKind::Requeued:
        case EventKind::BrokerRequeued:
            return {{}, {}, "destination"};
        case EventKind::WorkerCrashed:
        case EventKind::WorkerStopped:
            return {"unsettled", {}, "reason"};
        case EventKind::ConfigChanged:
            return {"changed_settings", {}, "changes"};
        case EventKind::Error:
            return {{}, {}, "error"};
        case EventKind::BrokerDelayed:
            return {"delay_seconds", {}, {}};
        case EventKind::BrokerNacked:
            return {{}, "new_sequence", "reason"};
        case EventKind::MessageAssigned:
            return {"visibility_ms", {}, {}};
        case EventKind::VisibilityExpired:
            return {{}, {}, "error"};
        case EventKind::BrokerDeadLettered:
            return {{}, {}, "dead_letter_channel"};
        case EventKind::BrokerClientConnected:
        case EventKind::BrokerClientDisconnected:
            return {{}, {}, "peer"};
        case EventKind::EventsDropped:
            return {"dropped", "dropped_total", "notice"};
        case EventKind::ChannelPeeked:
            return {"messages", "expired_removed", {}};
        case EventKind::ChannelPurged:
            return {"messages", {}, {}};
        case EventKind::MessageRedriven:
            return {{}, {}, "from_channel"};
        case EventKind::WorkerStarted:
        case EventKind::WorkerPaused:
        case EventKind::WorkerResumed:
        case EventKind::WorkerReconnected:
        case EventKind::BrokerStored:
        case EventKind::BrokerReleased:
        case EventKind::BrokerDelivered:
        case EventKind::BrokerAcked:
        case EventKind::BrokerReturned:
        case EventKind::BrokerExpired:
        case EventKind::BrokerPeeked:
        case EventKind::BrokerPurged:
            break;
    }
    return {};
}

namespace {

std::vector<std::string_view> collectNames() {
    std::vector<std::string_view> names;
    auto add = [&names](std::string_view name) {
        if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) {
            names.push_back(name);
        }
    };
    for (int k = 0; k <= static_cast<int>(kLastEventKind); ++k) {
        const EventFieldNames n = eventFieldNames(static_cast<EventKind>(k));
        add(n.value);
        add(n.count2);
        add(n.detail);
    }
    return names;
}

}  // namespace

std::span<const std::string_view> allEventFieldNames() {
    static const std::vector<std::string_view> names = collectNames();
    return names;
}

void upgradeLegacyEventFields(Event& e) {
    if (e.kind == EventKind::PollStarted && !e.detail.empty()) {
        std::int64_t waitMs = 0;
        const char* end = e.detail.data() + e.detail.size();
        if (const auto [ptr, ec] = std::from_chars(e.detail.data(), end, waitMs);
            ec == std::errc() && ptr == end) {
            e.count2 = waitMs;
            e.detail.clear();
        }
    } else if (e.kind == EventKind::ConfigChanged && e.value == 0) {
        for (const SettingChange& c : settingChangesOf(e)) {
            e.value |= settingBit(c.setting);
        }
    }
}

}  // namespace qs
