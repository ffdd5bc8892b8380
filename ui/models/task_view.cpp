#include "models/task_view.h"

#include <limits>

#include "run/run.h"

namespace qs::ui {

QString taskStateName(TaskState state) {
    switch (state) {
        case TaskState::Waiting:
            return QStringLiteral("waiting");
        case TaskState::Delayed:
            return QStringLiteral("delayed");
        case TaskState::InFlight:
            return QStringLiteral("in flight");
        case TaskState::Acked:
            return QStringLiteral("acked");
        case TaskState::Rejected:
            return QStringLiteral("rejected → waiting");
        case TaskState::Returned:
            return QStringLiteral("returned → waiting");
        case TaskState::Requeued:
            return QStringLiteral("re-queued");
        case TaskState::DeadLettered:
            return QStringLiteral("dead-lettered");
        case TaskState::Dropped:
            return QStringLiteral("dropped (max receives)");
        case TaskState::Expired:
            return QStringLiteral("expired");
        case TaskState::SendFailed:
            return QStringLiteral("send failed");
        case TaskState::Purged:
            return QStringLiteral("purged");
        case TaskState::Count:
            break;
    }
    return QStringLiteral("unknown");
}

namespace {

// The latest hand-out of `record` by stream time `atNs`; null = none by then.
const DeliveryRecord* latestDelivery(const MessageRecord* record, std::int64_t atNs) {
    if (record == nullptr)
        return nullptr;
    for (auto it = record->deliveries.rbegin(); it != record->deliveries.rend(); ++it) {
        if (it->assignedNs <= atNs)
            return &*it;
    }
    return nullptr;
}

// Why a waiting task waits again: how its latest hand-out (by then) ended.
TaskState waitingState(const DeliveryRecord* latest) {
    if (latest == nullptr)
        return TaskState::Waiting;
    switch (latest->outcome) {
        case DeliveryOutcome::Rejected:
            return TaskState::Rejected;
        case DeliveryOutcome::Requeued:
            return TaskState::Requeued;
        case DeliveryOutcome::Returned:
        case DeliveryOutcome::Superseded:
            return TaskState::Returned;
        default:
            return TaskState::Waiting;
    }
}

TaskState taskState(MessageState core, const DeliveryRecord* latest) {
    switch (core) {
        case MessageState::Waiting:
            return waitingState(latest);
        case MessageState::Delayed:
            return TaskState::Delayed;
        case MessageState::InFlight:
            return TaskState::InFlight;
        case MessageState::Acked:
            return TaskState::Acked;
        case MessageState::DeadLettered:
            return TaskState::DeadLettered;
        case MessageState::Dropped:
            return TaskState::Dropped;
        case MessageState::Expired:
            return TaskState::Expired;
        case MessageState::SendFailed:
            return TaskState::SendFailed;
        case MessageState::Purged:
            return TaskState::Purged;
    }
    return TaskState::Waiting;
}

// The channel the task was first seen in: its key stays the same when a
// copy moves (dead-letter, re-queue).
QString firstChannel(const Run& run, std::uint32_t index) {
    const std::optional<std::uint32_t> first = run.messageFirstEvent(index);
    return first ? fromView(run.event(*first).channel.view()) : QString();
}

}  // namespace

QString taskKey(const Run& run, std::uint32_t index) {
    return firstChannel(run, index) + QLatin1Char('\n') + fromView(run.messageId(index));
}

std::optional<std::uint32_t> taskIndexOfKey(const Run& run, const QString& key) {
    return run.messageIndex(messageIdOfKey(key).toStdString());
}

TaskView taskViewAt(const Run& run, std::uint32_t index) {
    return taskViewAt(run, index, run.messageNow(index), std::numeric_limits<std::int64_t>::max());
}

TaskView taskViewAt(const Run& run, std::uint32_t index, const MessageAt& at, std::int64_t atNs) {
    const std::string id = run.messageId(index);
    const MessageRecord* record = run.ledger().message(id);
    const DeliveryRecord* latest = latestDelivery(record, atNs);
    TaskView v;
    v.index = index;
    v.task = static_cast<int>(index) + 1;
    v.messageId = fromView(id);
    v.key = taskKey(run, index);
    v.channel = fromView(at.channel.view());
    v.state = taskState(at.state, latest);
    v.worker = fromView(at.worker.view());
    v.receiveCount = at.receiveCount;
    v.deliveries = at.deliveries;
    v.detailsForgotten = record == nullptr;
    if (record == nullptr)
        return v;
    // A NAck stores a new copy: at the head the record knows its sequence; back
    // in time the hand-out's is the one known then.
    const bool head = atNs == std::numeric_limits<std::int64_t>::max();
    v.sequence = head || latest == nullptr ? record->sequence : latest->sequence;
    if (record->sentNs <= atNs)
        v.sentNs = record->sentNs;
    if (latest != nullptr)
        v.lastAssignedNs = latest->assignedNs;
    if (isTerminal(at.state))
        v.settledNs = record->endedNs;
    if (at.state == MessageState::DeadLettered)
        v.deadLetterChannel = QString::fromStdString(record->endDetail);
    return v;
}

QString describeState(const TaskView& task) {
    if (task.state == TaskState::DeadLettered) {
        return task.deadLetterChannel.isEmpty()
                   ? QStringLiteral("dead-lettered (max receives)")
                   : QStringLiteral("dead-lettered → ") + task.deadLetterChannel;
    }
    return taskStateName(task.state);
}

QString describeHistoryEvent(const Event& e) {
    const QString actor = fromView(e.actor.view());
    const QString detail = QString::fromStdString(e.detail);
    const QString who = actor.isEmpty() ? QString() : QStringLiteral(" by ") + actor;
    switch (e.kind) {
        case EventKind::TaskSent:
            return QStringLiteral("sent by the producer");
        case EventKind::SendFailed:
            return QStringLiteral("send failed: ") + detail;
        case EventKind::BrokerStored:
            return QStringLiteral("stored by the broker in %1 as sequence %2")
                .arg(fromView(e.channel.view()))
                .arg(e.sequence);
        case EventKind::BrokerDelayed:
            return QStringLiteral("held back (delay)");
        case EventKind::BrokerReleased:
            return QStringLiteral("delay over: now waiting");
        case EventKind::MessageAssigned:
            return QStringLiteral("assigned to %1 (receive count %2)")
                .arg(actor)
                .arg(e.receiveCount);
        case EventKind::BrokerDelivered:
            return QStringLiteral("handed out by the broker to %1").arg(actor);
        case EventKind::Redelivered:
            return QStringLiteral("redelivery: previously with %1").arg(detail);
        case EventKind::WorkStarted:
            return QStringLiteral("work started") + who;
        case EventKind::WorkFinished:
            return QStringLiteral("work finished") + who;
        case EventKind::Acked:
            return QStringLiteral("acked") + who;
        case EventKind::BrokerAcked:
            return QStringLiteral("ack taken by the broker");
        case EventKind::Rejected:
            return QStringLiteral("rejected (NAck)") + who;
        case EventKind::Requeued:
            return QStringLiteral("re-queued to %1").arg(detail) + who;
        case EventKind::WorkerCrashed:
            return QStringLiteral("%1 crashed before settling it: returned to the queue")
                .arg(actor);
        case EventKind::WorkerStopped:
            return QStringLiteral("%1 stopped before settling it: returned to the queue")
                .arg(actor);
        case EventKind::BrokerReturned:
            return QStringLiteral("returned to the queue by the broker");
        case EventKind::BrokerExpired:
            return QStringLiteral("expired in the queue");
        case EventKind::BrokerDeadLettered:
            return detail.isEmpty()
                       ? QStringLiteral("dropped: MaxReceiveCount reached")
                       : QStringLiteral("dead-lettered to %1 (MaxReceiveCount reached)")
                             .arg(detail);
        case EventKind::BrokerNacked:
            return QStringLiteral("broker re-enqueued a new copy at the tail");
        case EventKind::BrokerRequeued:
            return QStringLiteral("broker copied it to %1").arg(detail);
        case EventKind::BrokerPeeked:
            return QStringLiteral("peeked at (not delivered, nothing changed)");
        case EventKind::BrokerPurged:
            return QStringLiteral("purged: removed from %1 by a purge of the channel")
                .arg(fromView(e.channel.view()));
        case EventKind::ChannelPurged:
            return QStringLiteral("purged: %1 purged channel %2")
                .arg(actor.isEmpty() ? QStringLiteral("the console") : actor,
                     fromView(e.channel.view()));
        default:
            break;
    }
    return fromView(toString(e.kind)) + who;
}

}  // namespace qs::ui
