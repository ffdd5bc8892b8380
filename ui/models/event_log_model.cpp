#include "models/event_log_model.h"

#include <algorithm>

#include "controllers/console_run.h"
#include "models/event_time.h"
#include "run/run.h"

namespace qs::ui {

namespace {
QString sv(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<int>(s.size()));
}
}  // namespace

EventLogModel::EventLogModel(const ConsoleRun* run, QObject* parent)
    : QAbstractTableModel(parent), run_(run) {
    connect(run_, &ConsoleRun::appended, this, &EventLogModel::runAppended);
    connect(run_, &ConsoleRun::wasReset, this, &EventLogModel::runReset);
}

int EventLogModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(end_ - first_);
}

std::uint64_t EventLogModel::totalSeen() const {
    return run_->run().eventCount();
}

Event EventLogModel::event(int row) const {
    return run_->run().event(first_ + static_cast<std::uint64_t>(row));
}

int EventLogModel::rowOfEvent(std::uint64_t index) const {
    return index >= first_ && index < end_ ? static_cast<int>(index - first_) : -1;
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
            return QStringLiteral("max %1, wait %2 ms").arg(e.value).arg(e.count2);
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

QString EventLogModel::cellText(const Event& e, int column) {
    switch (column) {
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
            return e.sequence ? QString::number(e.sequence) : QString();
        case MessageIdColumn:
            return sv(e.messageId);
        case DetailColumn:
            return detailText(e);
        default:
            return {};
    }
}

QVariant EventLogModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const Event& e = event(index.row());
    switch (role) {
        case SourceRole:
            return static_cast<int>(e.source);
        case KindRole:
            return static_cast<int>(e.kind);
        case ProblemRole:
            return isProblem(e.kind);
        case Qt::DisplayRole:
            if (index.column() == SequenceColumn) {
                return e.sequence ? QVariant::fromValue<qulonglong>(e.sequence) : QVariant();
            }
            return cellText(e, index.column());
        default:
            return {};
    }
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

void EventLogModel::runAppended() {
    if (!paused_) {
        catchUp();
    }
}

void EventLogModel::setPaused(bool paused) {
    paused_ = paused;
    if (!paused_) {
        catchUp();
    }
}

void EventLogModel::catchUp() {
    const std::uint64_t total = run_->run().eventCount();
    if (total == end_) {
        return;
    }
    // Only the newest `capacity_` can stay. The oldest rows leave in chunks of a
    // tenth of the capacity, not every frame: each removal costs the filter proxy
    // and the view a pass over all rows, however few rows go.
    const auto cap = static_cast<std::uint64_t>(capacity_);
    const std::uint64_t incoming = total - end_;
    if (end_ - first_ + incoming > cap + cap / 10) {
        trimTo(incoming >= cap ? 0 : cap - incoming);
    }
    if (end_ == first_) {  // an empty window starts at the newest `cap` events
        first_ = end_ = std::max(end_, total > cap ? total - cap : 0);
    }
    const int firstRow = static_cast<int>(end_ - first_);
    beginInsertRows({}, firstRow, firstRow + static_cast<int>(total - end_) - 1);
    end_ = total;
    endInsertRows();
}

// Keeps the newest `keep` rows of the window.
void EventLogModel::trimTo(std::uint64_t keep) {
    const std::uint64_t rows = end_ - first_;
    if (rows <= keep) {
        return;
    }
    const auto remove = static_cast<int>(rows - keep);
    beginRemoveRows({}, 0, remove - 1);
    first_ += static_cast<std::uint64_t>(remove);
    endRemoveRows();
}

void EventLogModel::runReset() {
    beginResetModel();
    first_ = end_ = 0;
    endResetModel();
}

void EventLogModel::setCapacity(int capacity) {
    capacity_ = std::max(100, capacity);
    trimTo(static_cast<std::uint64_t>(capacity_));
}

}  // namespace qs::ui
