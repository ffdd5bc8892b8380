#include "message_table_model.h"

#include <algorithm>

#include "event_time.h"

namespace qs::ui {

namespace {
// Event string fields are read as std::string_view (core may change how it stores them).
QString qstr(std::string_view s) {
    return fromView(s);
}
constexpr std::size_t kMaxDeadLetterCopies = 4096;
}  // namespace

MessageTableModel::MessageTableModel(QObject* parent) : QAbstractTableModel(parent) {}

int MessageTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : committed_;
}

int MessageTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

const MessageRecord* MessageTableModel::record(int row) const {
    if (row < 0 || row >= committed_) {
        return nullptr;
    }
    return &rows_[static_cast<std::size_t>(row)];
}

int MessageTableModel::rowOfKey(const QString& key) const {
    const auto it = index_.constFind(key);
    if (it == index_.constEnd()) {
        return -1;
    }
    const qint64 row = it.value() - base_;
    return row < committed_ ? static_cast<int>(row) : -1;
}

const MessageRecord* MessageTableModel::recordByKey(const QString& key) const {
    // Includes rows not yet shown to the views (see setCommitIntervalMs()).
    const auto it = index_.constFind(key);
    if (it == index_.constEnd()) {
        return nullptr;
    }
    return &rows_[static_cast<std::size_t>(it.value() - base_)];
}

QVariant MessageTableModel::data(const QModelIndex& index, int role) const {
    const MessageRecord* r = index.isValid() ? record(index.row()) : nullptr;
    if (!r) {
        return {};
    }
    switch (role) {
        case KeyRole:
            return r->key;
        case StateRole:
            return static_cast<int>(r->state);
        case WorkerRole:
            return r->worker;
        case Qt::TextAlignmentRole:
            switch (index.column()) {
                case BodyColumn:
                case IdColumn:
                case StateColumn:
                case WorkerColumn:
                    return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
                default:
                    break;
            }
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        case Qt::ToolTipRole:
            if (index.column() == StateColumn || index.column() == TaskColumn) {
                QString tip =
                    QStringLiteral("Task #%1 — %2").arg(r->task).arg(messageStateName(r->state));
                if (r->state == MessageState::DeadLettered) {
                    tip += r->deadLetterChannel.isEmpty()
                               ? QStringLiteral(
                                     "\nMaxReceiveCount reached and no dead-letter channel: "
                                     "the broker dropped it")
                               : QStringLiteral(
                                     "\nMaxReceiveCount reached: the broker moved it "
                                     "to channel %1")
                                         .arg(r->deadLetterChannel) +
                                     (r->deadLetterSequence > 0
                                          ? QStringLiteral(" (sequence %1 there)")
                                                .arg(r->deadLetterSequence)
                                          : QString());
                }
                if (r->deliveries > 1) {
                    tip += QStringLiteral("\nDelivered %1 times (at-least-once delivery)")
                               .arg(r->deliveries);
                }
                return tip;
            }
            // Both columns share what the table has left and may be elided.
            if (index.column() == IdColumn) {
                return r->messageId;
            }
            if (index.column() == BodyColumn) {
                return r->body.size() > 500 ? r->body.left(500) + QStringLiteral("…") : r->body;
            }
            return {};
        default:
            break;
    }
    if (role == SortRole) {
        switch (index.column()) {
            case TaskColumn:
                return r->task;
            case SequenceColumn:
                return QVariant::fromValue<qulonglong>(r->sequence);
            case ReceiveCountColumn:
                return r->receiveCount;
            case SentColumn:
                return QVariant::fromValue<qlonglong>(r->sentNs);
            case AssignedColumn:
                return QVariant::fromValue<qlonglong>(r->lastAssignedNs);
            case SettledColumn:
                return QVariant::fromValue<qlonglong>(r->settledNs);
            case LatencyColumn:
                return QVariant::fromValue<qlonglong>(r->latencyNs());
            case StateColumn:
                return static_cast<int>(r->state);
            default:
                break;
        }
        role = Qt::DisplayRole;
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (index.column()) {
        case TaskColumn:
            return r->task > 0 ? QVariant(r->task) : QVariant(QStringLiteral("–"));
        case SequenceColumn:
            return r->sequence > 0 ? QVariant::fromValue<qulonglong>(r->sequence) : QVariant();
        case IdColumn:
            return r->messageId;
        case BodyColumn:
            return r->body;
        case StateColumn:
            return describeState(*r);
        case WorkerColumn:
            return r->worker;
        case ReceiveCountColumn:
            return r->receiveCount;
        case SentColumn:
            return r->sentNs > 0 ? formatClock(r->sentNs, true) : QString();
        case AssignedColumn:
            return r->lastAssignedNs > 0 ? formatClock(r->lastAssignedNs, true) : QString();
        case SettledColumn:
            return r->settledNs > 0 ? formatClock(r->settledNs, true) : QString();
        case LatencyColumn:
            return r->latencyNs() >= 0 ? formatDurationNs(r->latencyNs()) : QString();
        default:
            break;
    }
    return {};
}

QVariant MessageTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) {
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (section) {
            case TaskColumn:
                return QStringLiteral("Task");
            case SequenceColumn:
                return QStringLiteral("Seq");
            case IdColumn:
                return QStringLiteral("ID");  // the column may be narrow: its tooltip says more
            case BodyColumn:
                return QStringLiteral("Body");
            case StateColumn:
                return QStringLiteral("State");
            case WorkerColumn:
                return QStringLiteral("Worker");
            case ReceiveCountColumn:
                return QStringLiteral("Recv");
            case SentColumn:
                return QStringLiteral("Sent");
            case AssignedColumn:
                return QStringLiteral("Assigned");
            case SettledColumn:
                return QStringLiteral("Settled");
            case LatencyColumn:
                return QStringLiteral("Latency");
            default:
                break;
        }
    } else if (role == Qt::ToolTipRole) {
        switch (section) {
            case TaskColumn:
                return QStringLiteral("The task's number in the order the producer sent them.");
            case IdColumn:
                return QStringLiteral(
                    "Message ID: the task's identity across redeliveries and NAck copies\n"
                    "(hover a cell for the whole ID).");
            case SentColumn:
                return QStringLiteral("When the producer sent the task.");
            case AssignedColumn:
                return QStringLiteral("When the broker last handed the task to a worker.");
            case SettledColumn:
                return QStringLiteral(
                    "When the task was settled for good: acked, re-queued, expired or "
                    "dead-lettered.");
            case SequenceColumn:
                return QStringLiteral(
                    "Broker sequence of the stored copy. A NAck stores a new copy at the tail,\n"
                    "so the sequence changes while the message ID stays the same.");
            case StateColumn:
                return QStringLiteral(
                    "Where the task is now: waiting in the queue, in flight at a worker,\n"
                    "or settled (acked, re-queued, dead-lettered, expired).");
            case WorkerColumn:
                return QStringLiteral("The worker holding the task now, or the last one that did.");
            case ReceiveCountColumn:
                return QStringLiteral(
                    "ReceiveCount the broker reported at the last hand-out. It grows only when a "
                    "task is\n"
                    "NAcked (re-enqueued as a new copy); a crash returns the same copy unchanged.");
            case LatencyColumn:
                return QStringLiteral("Time from sending to final settlement.");
            default:
                break;
        }
    }
    return {};
}

void MessageTableModel::setMaxRows(int maxRows) {
    maxRows_ = std::max(100, maxRows);
    trimIfNeeded();
}

void MessageTableModel::clear() {
    beginResetModel();
    rows_.clear();
    index_.clear();
    inFlightByWorker_.clear();
    changedRows_.clear();
    counts_.fill(0);
    trimmedCounts_.fill(0);
    channelCounts_.clear();
    deadLetterCopies_.clear();
    longestDeadLetter_.clear();
    base_ = 0;
    committed_ = 0;
    lastCommit_.invalidate();
    trimmed_ = 0;
    taskCounter_ = 0;
    taskBase_ = 0;
    lastProducerN_ = 0;
    workers_.clear();
    endResetModel();
}

std::array<qint64, static_cast<int>(MessageState::Count)> MessageTableModel::stateCounts() const {
    auto total = counts_;
    for (std::size_t i = 0; i < total.size(); ++i) {
        total[i] += trimmedCounts_[i];
    }
    return total;
}

std::array<qint64, static_cast<int>(MessageState::Count)> MessageTableModel::channelStateCounts(
    const QString& channel) const {
    return channelCounts_.value(channel);
}

QStringList MessageTableModel::workers() const {
    QStringList list(workers_.begin(), workers_.end());
    std::sort(list.begin(), list.end(), [](const QString& a, const QString& b) {
        return a.size() != b.size() ? a.size() < b.size() : a < b;
    });
    return list;
}

MessageRecord* MessageTableModel::touch(const Event& e, bool create) {
    if (std::string_view(e.messageId).empty()) {
        return nullptr;
    }
    const QString key = messageKey(e.channel, e.messageId);
    const auto it = index_.constFind(key);
    if (it != index_.constEnd()) {
        return &rows_[static_cast<std::size_t>(it.value() - base_)];
    }
    if (!create) {
        return nullptr;
    }
    MessageRecord r;
    r.history.reserve(6);  // sent, assigned, started, finished, acked: one allocation
    r.key = key;
    r.messageId = qstr(e.messageId);
    r.channel = qstr(e.channel);
    index_.insert(key, base_ + static_cast<qint64>(rows_.size()));
    ++channelCounts_[r.channel][static_cast<int>(MessageState::Waiting)];
    rows_.push_back(std::move(r));
    ++counts_[static_cast<int>(MessageState::Waiting)];
    return &rows_.back();
}

const QString& MessageTableModel::actorName(Name actor) {
    // A handful of workers write every event: share their names instead of
    // converting (and storing) one copy per history entry (found by id, not text).
    if (actors_.size() > 4096) {
        actors_.clear();
    }
    const auto it = actors_.find(actor);
    if (it != actors_.end()) {
        return it->second;
    }
    return actors_.emplace(actor, qstr(actor)).first->second;
}

void MessageTableModel::addHistory(MessageRecord& r, const Event& e) {
    if (static_cast<int>(r.history.size()) >= kMaxHistory) {
        // Keep the first entries (how it started) and the newest ones.
        r.history.erase(r.history.begin() + 4);
        ++r.droppedHistory;
    }
    HistoryEntry h;
    h.timeNs = e.timeNs;
    h.kind = e.kind;
    h.actor = actorName(e.actor);
    h.receiveCount = e.receiveCount;
    h.sequence = e.sequence;
    h.detail = qstr(e.detail);
    r.history.push_back(std::move(h));
}

void MessageTableModel::setState(MessageRecord& r, MessageState s) {
    if (r.state == s) {
        return;
    }
    --counts_[static_cast<int>(r.state)];
    ++counts_[static_cast<int>(s)];
    auto& perChannel = channelCounts_[r.channel];
    --perChannel[static_cast<int>(r.state)];
    ++perChannel[static_cast<int>(s)];
    r.state = s;
}

MessageRecord* MessageTableModel::deadLetterSource(const Event& e) {
    if (deadLetterCopies_.isEmpty()) {
        return nullptr;
    }
    const auto it = deadLetterCopies_.constFind(messageKey(e.channel, e.messageId));
    if (it == deadLetterCopies_.constEnd()) {
        return nullptr;
    }
    const QString source = it.value();
    deadLetterCopies_.erase(it);
    const auto row = index_.constFind(source);
    return row == index_.constEnd() ? nullptr
                                    : &rows_[static_cast<std::size_t>(row.value() - base_)];
}

void MessageTableModel::markChanged(const MessageRecord& r) {
    if (!watchedKey_.isEmpty() && r.key == watchedKey_) {
        watchedTouched_ = true;
    }
    const auto it = index_.constFind(r.key);
    const qint64 row = it.value() - base_;
    if (row < committed_) {
        changedRows_.push_back(static_cast<int>(row));
    }
}

void MessageTableModel::applyEvents(const std::vector<Event>& batch) {
    for (const Event& e : batch) {
        MessageRecord* r = nullptr;
        switch (e.kind) {
            case EventKind::TaskSent:
                r = touch(e, true);
                if (r) {
                    if (r->task == 0) {
                        // The producer numbers its tasks from 1 (count2); a second send
                        // continues the numbering so task numbers stay unique in a run.
                        if (e.count2 > 0) {
                            if (e.count2 <= lastProducerN_) {
                                taskBase_ = taskCounter_;
                            }
                            lastProducerN_ = e.count2;
                            r->task = static_cast<int>(taskBase_ + e.count2);
                        } else {
                            r->task = taskCounter_ + 1;
                        }
                        taskCounter_ = std::max(taskCounter_, r->task);
                    }
                    r->sentNs = e.timeNs;
                    if (!e.detail.empty()) {
                        r->body = qstr(e.detail);
                    } else if (bodyFn_) {
                        r->body = bodyFn_(e);
                    }
                    if (e.value > 0 && r->state == MessageState::Waiting) {
                        setState(*r, MessageState::Delayed);
                    }
                }
                break;
            case EventKind::BrokerStored:
                // The dead-lettered copy is the same task in another channel: it
                // belongs on the task's row, not on a new "waiting" one.
                if ((r = deadLetterSource(e)) != nullptr) {
                    r->deadLetterSequence = e.sequence;
                    addHistory(*r, e);
                    r->history.back().detail = r->deadLetterChannel;
                    markChanged(*r);
                    r = nullptr;
                    break;
                }
                r = touch(e, true);
                if (r) {
                    r->sequence = e.sequence;
                }
                break;
            case EventKind::BrokerDelayed:
                r = touch(e, true);
                if (r && r->state == MessageState::Waiting) {
                    setState(*r, MessageState::Delayed);
                }
                break;
            case EventKind::BrokerReleased:
                r = touch(e, false);
                if (r && r->state == MessageState::Delayed) {
                    setState(*r, MessageState::Waiting);
                }
                break;
            case EventKind::MessageAssigned: {
                r = touch(e, true);
                if (!r) {
                    break;
                }
                const QString actor = actorName(e.actor);
                if (r->state == MessageState::InFlight && !r->worker.isEmpty() &&
                    r->worker != actor) {
                    inFlightByWorker_[r->worker].remove(r->key);  // returned without a crash event
                }
                workers_.insert(actor);
                r->worker = actor;
                r->receiveCount = e.receiveCount;
                if (e.sequence > 0) {
                    r->sequence = e.sequence;
                }
                ++r->deliveries;
                if (r->firstAssignedNs == 0) {
                    r->firstAssignedNs = e.timeNs;
                }
                r->lastAssignedNs = e.timeNs;
                r->settledNs = 0;
                setState(*r, MessageState::InFlight);
                inFlightByWorker_[actor].insert(r->key);
                break;
            }
            case EventKind::Redelivered:
            case EventKind::WorkStarted:
            case EventKind::WorkFinished:
            case EventKind::BrokerDelivered:
            case EventKind::BrokerAcked:
            case EventKind::BrokerNacked:
            case EventKind::BrokerRequeued:
                r = touch(e, false);
                break;
            case EventKind::Acked:
                r = touch(e, false);
                if (r) {
                    ++r->acks;
                    r->settledNs = e.timeNs;
                    setState(*r, MessageState::Acked);
                    inFlightByWorker_[actorName(e.actor)].remove(r->key);
                }
                break;
            case EventKind::Rejected:
                r = touch(e, false);
                if (r) {
                    // The broker reports the dead-lettering while it handles the
                    // reject, so its event can arrive before the worker's own.
                    if (r->state != MessageState::DeadLettered) {
                        setState(*r, MessageState::Rejected);
                    }
                    inFlightByWorker_[actorName(e.actor)].remove(r->key);
                }
                break;
            case EventKind::Requeued:
                r = touch(e, false);
                if (r) {
                    r->settledNs = e.timeNs;
                    setState(*r, MessageState::Requeued);
                    inFlightByWorker_[actorName(e.actor)].remove(r->key);
                }
                break;
            case EventKind::BrokerReturned:
                r = touch(e, false);
                if (r && r->state == MessageState::InFlight) {
                    inFlightByWorker_[r->worker].remove(r->key);
                    setState(*r, MessageState::Returned);
                }
                break;
            case EventKind::BrokerExpired:
                r = touch(e, false);
                if (r) {
                    r->settledNs = e.timeNs;
                    setState(*r, MessageState::Expired);
                }
                break;
            case EventKind::BrokerDeadLettered:
                r = touch(e, false);
                if (r) {
                    r->settledNs = e.timeNs;
                    setState(*r, MessageState::DeadLettered);
                    inFlightByWorker_[r->worker].remove(r->key);
                    r->deadLetterChannel = qstr(e.detail);
                    if (r->deadLetterChannel.size() > longestDeadLetter_.size()) {
                        longestDeadLetter_ = r->deadLetterChannel;
                    }
                    if (!r->deadLetterChannel.isEmpty()) {
                        // The broker stores the copy right after this event (same thread).
                        if (static_cast<std::size_t>(deadLetterCopies_.size()) >=
                            kMaxDeadLetterCopies) {
                            deadLetterCopies_.clear();
                            longestDeadLetter_.clear();  // copies whose store was never seen
                        }
                        deadLetterCopies_.insert(messageKey(e.detail, e.messageId), r->key);
                    }
                }
                break;
            case EventKind::WorkerCrashed:
            case EventKind::WorkerStopped: {
                // Whatever the worker held unsettled goes back to the queue.
                const QString actor = actorName(e.actor);
                const QSet<QString> held = inFlightByWorker_.take(actor);
                for (const QString& key : held) {
                    const auto it = index_.constFind(key);
                    if (it == index_.constEnd()) {
                        continue;
                    }
                    MessageRecord& m = rows_[static_cast<std::size_t>(it.value() - base_)];
                    if (m.state != MessageState::InFlight) {
                        continue;
                    }
                    setState(m, MessageState::Returned);
                    addHistory(m, e);
                    markChanged(m);
                }
                break;
            }
            default:
                break;
        }
        if (r) {
            addHistory(*r, e);
            markChanged(*r);
        }
    }
    flushChanges();
    trimIfNeeded();
}

void MessageTableModel::flushChanges() {
    const int total = static_cast<int>(rows_.size());
    if (!changedRows_.empty()) {
        std::sort(changedRows_.begin(), changedRows_.end());
        changedRows_.erase(std::unique(changedRows_.begin(), changedRows_.end()),
                           changedRows_.end());
        const int lastCol = ColumnCount - 1;
        // One signal per run of nearby rows. Not one range from the first to the last
        // changed row: a single old task touched again would make that range cover the
        // rows on screen, and the table would repaint every frame for nothing.
        constexpr int kGap = 8;
        std::size_t i = 0;
        while (i < changedRows_.size()) {
            std::size_t j = i;
            while (j + 1 < changedRows_.size() && changedRows_[j + 1] <= changedRows_[j] + kGap) {
                ++j;
            }
            Q_EMIT dataChanged(index(changedRows_[i], 0), index(changedRows_[j], lastCol));
            i = j + 1;
        }
        changedRows_.clear();
    }
    if (total > committed_ && (commitIntervalMs_ <= 0 || !lastCommit_.isValid() ||
                               lastCommit_.elapsed() >= commitIntervalMs_)) {
        beginInsertRows({}, committed_, total - 1);
        committed_ = total;
        endInsertRows();
        lastCommit_.start();
    }
    if (watchedTouched_) {
        watchedTouched_ = false;
        Q_EMIT watchedRecordChanged();
    }
}

void MessageTableModel::commitPendingRows() {
    const int total = static_cast<int>(rows_.size());
    if (total > committed_) {
        beginInsertRows({}, committed_, total - 1);
        committed_ = total;
        endInsertRows();
        lastCommit_.start();
    }
    trimIfNeeded();
}

void MessageTableModel::trimIfNeeded() {
    const int slack = std::max(50, maxRows_ / 10);
    if (committed_ <= maxRows_ + slack) {
        return;
    }
    const int removeCount = committed_ - maxRows_;
    beginRemoveRows({}, 0, removeCount - 1);
    for (int i = 0; i < removeCount; ++i) {
        MessageRecord& r = rows_.front();
        index_.remove(r.key);
        if (r.state == MessageState::InFlight) {
            inFlightByWorker_[r.worker].remove(r.key);
        }
        --counts_[static_cast<int>(r.state)];
        ++trimmedCounts_[static_cast<int>(r.state)];
        rows_.pop_front();
    }
    base_ += removeCount;
    committed_ -= removeCount;
    trimmed_ += removeCount;
    endRemoveRows();
}

}  // namespace qs::ui
