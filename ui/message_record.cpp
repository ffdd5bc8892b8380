#include "message_record.h"

namespace qs::ui {

QString messageStateName(MessageState state) {
    switch (state) {
        case MessageState::Waiting:
            return QStringLiteral("waiting");
        case MessageState::Delayed:
            return QStringLiteral("delayed");
        case MessageState::InFlight:
            return QStringLiteral("in flight");
        case MessageState::Acked:
            return QStringLiteral("acked");
        case MessageState::Rejected:
            return QStringLiteral("rejected → waiting");
        case MessageState::Returned:
            return QStringLiteral("returned → waiting");
        case MessageState::Requeued:
            return QStringLiteral("re-queued");
        case MessageState::DeadLettered:
            return QStringLiteral("dead-lettered");
        case MessageState::Expired:
            return QStringLiteral("expired");
        case MessageState::Count:
            break;
    }
    return QStringLiteral("unknown");
}

bool isSettled(MessageState state) {
    return state == MessageState::Acked || state == MessageState::Requeued ||
           state == MessageState::DeadLettered || state == MessageState::Expired;
}

QString messageKey(std::string_view channel, std::string_view messageId) {
    return fromView(channel) + QLatin1Char('\n') + fromView(messageId);
}

QString describeState(const MessageRecord& r) {
    if (r.state == MessageState::DeadLettered) {
        return r.deadLetterChannel.isEmpty()
                   ? QStringLiteral("dropped (max receives)")
                   : QStringLiteral("dead-lettered → ") + r.deadLetterChannel;
    }
    return messageStateName(r.state);
}

QString describeHistoryEntry(const HistoryEntry& e) {
    const QString who = e.actor.isEmpty() ? QString() : QStringLiteral(" by ") + e.actor;
    switch (e.kind) {
        case EventKind::TaskSent:
            return QStringLiteral("sent by the producer");
        case EventKind::BrokerStored:
            // detail = the dead-letter channel when this is the dead-lettered copy.
            return e.detail.isEmpty()
                       ? QStringLiteral("stored by the broker as sequence %1").arg(e.sequence)
                       : QStringLiteral("copy stored in dead-letter channel %1 as sequence %2")
                             .arg(e.detail)
                             .arg(e.sequence);
        case EventKind::BrokerDelayed:
            return QStringLiteral("held back (delay)");
        case EventKind::BrokerReleased:
            return QStringLiteral("delay over: now waiting");
        case EventKind::MessageAssigned:
            return QStringLiteral("assigned to %1 (receive count %2)")
                .arg(e.actor)
                .arg(e.receiveCount);
        case EventKind::Redelivered:
            return QStringLiteral("redelivery: previously with %1").arg(e.detail);
        case EventKind::WorkStarted:
            return QStringLiteral("work started") + who;
        case EventKind::WorkFinished:
            return QStringLiteral("work finished") + who;
        case EventKind::Acked:
            return QStringLiteral("acked") + who;
        case EventKind::Rejected:
            return QStringLiteral("rejected (NAck)") + who +
                   QStringLiteral(": back to the tail of the queue");
        case EventKind::Requeued:
            return QStringLiteral("re-queued to %1").arg(e.detail) + who;
        case EventKind::WorkerCrashed:
            return QStringLiteral("%1 crashed before settling it: returned to the queue")
                .arg(e.actor);
        case EventKind::BrokerReturned:
            return QStringLiteral("returned to the queue by the broker");
        case EventKind::BrokerExpired:
            return QStringLiteral("expired in the queue");
        case EventKind::BrokerDeadLettered:
            return e.detail.isEmpty()
                       ? QStringLiteral("dropped: MaxReceiveCount reached")
                       : QStringLiteral("dead-lettered to %1 (MaxReceiveCount reached)")
                             .arg(e.detail);
        case EventKind::BrokerNacked:
            return QStringLiteral("broker re-enqueued a new copy");
        default:
            break;
    }
    return QString::fromUtf8(toString(e.kind).data(), static_cast<int>(toString(e.kind).size())) +
           who;
}

}  // namespace qs::ui
