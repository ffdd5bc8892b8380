#include "events/event.h"

namespace qs {

std::string_view toString(EventKind kind) {
    switch (kind) {
        case EventKind::TaskSent:
            return "task-sent";
        case EventKind::SendFailed:
            return "send-failed";
        case EventKind::PollStarted:
            return "poll-started";
        case EventKind::PollReturned:
            return "poll-returned";
        case EventKind::MessageAssigned:
            return "assigned";
        case EventKind::Redelivered:
            return "redelivered";
        case EventKind::WorkStarted:
            return "work-started";
        case EventKind::WorkFinished:
            return "work-finished";
        case EventKind::Acked:
            return "acked";
        case EventKind::Rejected:
            return "rejected";
        case EventKind::Requeued:
            return "requeued";
        case EventKind::WorkerStarted:
            return "worker-started";
        case EventKind::WorkerPaused:
            return "worker-paused";
        case EventKind::WorkerResumed:
            return "worker-resumed";
        case EventKind::WorkerCrashed:
            return "worker-crashed";
        case EventKind::WorkerReconnected:
            return "worker-reconnected";
        case EventKind::WorkerStopped:
            return "worker-stopped";
        case EventKind::ConfigChanged:
            return "config-changed";
        case EventKind::Error:
            return "error";
        case EventKind::BrokerStored:
            return "broker-stored";
        case EventKind::BrokerDelayed:
            return "broker-delayed";
        case EventKind::BrokerReleased:
            return "broker-released";
        case EventKind::BrokerDelivered:
            return "broker-delivered";
        case EventKind::BrokerAcked:
            return "broker-acked";
        case EventKind::BrokerNacked:
            return "broker-nacked";
        case EventKind::BrokerRequeued:
            return "broker-requeued";
        case EventKind::BrokerReturned:
            return "broker-returned";
        case EventKind::BrokerExpired:
            return "broker-expired";
        case EventKind::BrokerDeadLettered:
            return "broker-dead-lettered";
        case EventKind::BrokerClientConnected:
            return "client-connected";
        case EventKind::BrokerClientDisconnected:
            return "client-disconnected";
        case EventKind::EventsDropped:
            return "events-dropped";
        case EventKind::BrokerPeeked:
            return "broker-peeked";
        case EventKind::BrokerPurged:
            return "broker-purged";
        case EventKind::ChannelPeeked:
            return "channel-peeked";
        case EventKind::ChannelPurged:
            return "channel-purged";
        case EventKind::MessageRedriven:
            return "message-redriven";
        case EventKind::VisibilityExpired:
            return "visibility-expired";
    }
    return "unknown";
}

std::string_view toString(EventSource source) {
    switch (source) {
        case EventSource::Producer:
            return "producer";
        case EventSource::Worker:
            return "worker";
        case EventSource::Pool:
            return "pool";
        case EventSource::Broker:
            return "broker";
        case EventSource::Client:
            return "client";
    }
    return "unknown";
}

std::optional<EventKind> eventKindFromString(std::string_view name) {
    for (int i = 0; i <= static_cast<int>(kLastEventKind); ++i) {
        const auto kind = static_cast<EventKind>(i);
        if (toString(kind) == name)
            return kind;
    }
    return std::nullopt;
}

std::optional<EventSource> eventSourceFromString(std::string_view name) {
    for (int i = 0; i <= static_cast<int>(kLastEventSource); ++i) {
        const auto source = static_cast<EventSource>(i);
        if (toString(source) == name)
            return source;
    }
    return std::nullopt;
}

}  // namespace qs
