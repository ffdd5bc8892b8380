#include "event_log_model.h"

#include <algorithm>

#include "event_time.h"

namespace qs::ui {

namespace {
QString sv(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<int>(s.size()));
}
}  // namespace

EventLogModel::EventLogModel(QObject* parent) : QAbstractTableModel(parent) {}

int EventLogModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(events_.size());
}

int EventLogModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

bool EventLogModel::isProblem(EventKind kind) {
    switch (kind) {
        case EventKind::SendFailed:
        case EventKind::Rejected:
        case EventKind::Redelivered:
        case EventKind::WorkerCrashed:
        case EventKind::Error:
        case EventKind::BrokerReturned:
        case EventKind::BrokerExpired:
        case EventKind::BrokerDeadLettered:
        case EventKind::EventsDropped:
            return true;
        default:
            return false;
    }
}

QString EventLogModel::detailText(const Event& e) {
    QString d = QString::fromStdString(e.detail);
    switch (e.kind) {
        case EventKind::PollStarted:
            return QStringLiteral("max %1, wait %2 ms").arg(e.value).arg(d);
        case EventKind::PollReturned:
            return QStringLiteral("%1 message(s) after %2 ms").arg(e.value).arg(e.count2);
        case EventKind::MessageAssigned:
            return QStringLiteral("receive count %1").arg(e.receiveCount);
        case EventKind::WorkFinished:
            return QStringLiteral("worked %1").arg(formatDurationNs(e.value));
        case EventKind::WorkerCrashed:
            return QStringLiteral("%1 unsettled").arg(e.value);
        case EventKind::EventsDropped:
            return QStringLiteral("%1 events dropped (total %2)").arg(e.value).arg(e.count2);
        case EventKind::BrokerNacked:
            return QStringLiteral("new copy sequence %1").arg(e.count2);
        default:
            break;
    }
    return d;
}

QVariant EventLogModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const Event& e = events_[static_cast<std::size_t>(index.row())];
    switch (role) {
        case SourceRole:
            return static_cast<int>(e.source);
        case KindRole:
            return static_cast<int>(e.kind);
        case ProblemRole:
            return isProblem(e.kind);
        case Qt::DisplayRole:
            switch (index.column()) {
                case TimeColumn:
                    return formatClock(e.timeNs, true);
                case SourceColumn:
                    return sv(toString(e.source));
                case KindColumn:
                    return sv(toString(e.kind));
                case ActorColumn:
                    return sv(e.actor);
                case ChannelColumn:
                    return sv(e.channel);
                case SequenceColumn:
                    return e.sequence ? QVariant::fromValue<qulonglong>(e.sequence) : QVariant();
                case MessageIdColumn:
                    return sv(e.messageId);
                case DetailColumn:
                    return detailText(e);
                default:
                    break;
            }
            break;
        default:
            break;
    }
    return {};
}

QVariant EventLogModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case TimeColumn:
            return QStringLiteral("Time");
        case SourceColumn:
            return QStringLiteral("Source");
        case KindColumn:
            return QStringLiteral("Event");
        case ActorColumn:
            return QStringLiteral("Actor");
        case ChannelColumn:
            return QStringLiteral("Channel");
        case SequenceColumn:
            return QStringLiteral("Seq");
        case MessageIdColumn:
            return QStringLiteral("Message ID");
        case DetailColumn:
            return QStringLiteral("Detail");
        default:
            break;
    }
    return {};
}

void EventLogModel::append(const std::vector<Event>& batch) {
    if (batch.empty()) {
        return;
    }
    total_ += batch.size();
    // Only the newest `capacity_` of this batch can survive. The oldest rows leave
    // in chunks of a tenth of the capacity, not every frame: each removal costs the
    // filter proxy and the view a pass over all rows, however few rows go.
    const auto cap = static_cast<std::size_t>(capacity_);
    const std::size_t slack = cap / 10;
    const std::size_t take = std::min(batch.size(), cap);
    const std::size_t overflow =
        events_.size() + take > cap + slack ? events_.size() + take - cap : 0;
    if (overflow > 0) {
        beginRemoveRows({}, 0, static_cast<int>(overflow) - 1);
        events_.erase(events_.begin(), events_.begin() + static_cast<std::ptrdiff_t>(overflow));
        endRemoveRows();
    }
    const int first = static_cast<int>(events_.size());
    beginInsertRows({}, first, first + static_cast<int>(take) - 1);
    events_.insert(events_.end(), batch.end() - static_cast<std::ptrdiff_t>(take), batch.end());
    endInsertRows();
}

void EventLogModel::clear() {
    beginResetModel();
    events_.clear();
    total_ = 0;
    endResetModel();
}

void EventLogModel::setCapacity(int capacity) {
    capacity_ = std::max(100, capacity);
    if (static_cast<int>(events_.size()) > capacity_) {
        const int overflow = static_cast<int>(events_.size()) - capacity_;
        beginRemoveRows({}, 0, overflow - 1);
        events_.erase(events_.begin(), events_.begin() + overflow);
        endRemoveRows();
    }
}

}  // namespace qs::ui
