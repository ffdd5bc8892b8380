#include "models/message_table_model.h"

#include <algorithm>

#include "controllers/console_run.h"
#include "controllers/time_cursor.h"
#include "models/event_time.h"
#include "run/run.h"

namespace qs::ui {

MessageTableModel::MessageTableModel(const ConsoleRun* run, QObject* parent)
    : QAbstractTableModel(parent), run_(run) {
    connect(run_, &ConsoleRun::appended, this, &MessageTableModel::runAppended);
    connect(run_, &ConsoleRun::wasReset, this, &MessageTableModel::runReset);
    commitLater_.setSingleShot(true);
    connect(&commitLater_, &QTimer::timeout, this, &MessageTableModel::commitPendingRows);
}

int MessageTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : committed_ - static_cast<int>(first_);
}

int MessageTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

void MessageTableModel::setCursor(const TimeCursor* cursor) {
    cursor_ = cursor;
    connect(cursor_, &TimeCursor::moved, this, &MessageTableModel::cursorMoved);
}

const LedgerSummary& MessageTableModel::summary() const {
    return atFixedTime() ? cursor_->state().summary : run_->run().summaryNow();
}

std::uint64_t MessageTableModel::eventsShown() const {
    return atFixedTime() ? cursor_->eventCount() : run_->run().eventCount();
}

bool MessageTableModel::atFixedTime() const {
    return cursor_ != nullptr && !cursor_->isLive();
}

const TaskView& MessageTableModel::cachedView(int row) const {
    const Run& run = run_->run();
    const std::uint32_t index = messageOf(row);
    if (!cache_ || cache_->index != index || cacheGeneration_ != generation_) {
        if (atFixedTime()) {
            const RunState& state = cursor_->state();
            cache_ = taskViewAt(run, index, state.messages[index], state.timeNs);
        } else {
            cache_ = taskViewAt(run, index);
        }
        cacheGeneration_ = generation_;
    }
    return *cache_;
}

std::optional<TaskView> MessageTableModel::task(int row) const {
    if (row < 0 || row >= rowCount()) {
        return std::nullopt;
    }
    return cachedView(row);
}

std::optional<TaskView> MessageTableModel::taskByKey(const QString& key) const {
    const Run& run = run_->run();
    const auto index = taskIndexOfKey(run, key);
    if (!index) {
        return std::nullopt;
    }
    if (atFixedTime()) {
        const RunState& state = cursor_->state();
        if (*index >= state.messages.size()) {
            return std::nullopt;  // not seen yet at the cursor
        }
        return taskViewAt(run, *index, state.messages[*index], state.timeNs);
    }
    return taskViewAt(run, *index);
}

int MessageTableModel::rowOfKey(const QString& key) const {
    const auto index = taskIndexOfKey(run_->run(), key);
    return index && *index >= first_ && static_cast<int>(*index) < committed_
               ? static_cast<int>(*index - first_)
               : -1;
}

QString MessageTableModel::bodyOf(const TaskView& t) const {
    const Run& run = run_->run();
    for (const std::uint32_t i : run.messageEvents(t.index)) {
        const Event& e = run.event(i);
        if (e.kind == EventKind::TaskSent) {
            return QString::fromStdString(e.detail);
        }
    }
    return {};
}

QStringList MessageTableModel::workers() const {
    QStringList list;
    for (const WorkerStats& w : run_->run().ledger().workerCounts()) {
        if (w.received > 0) {
            list << QString::fromStdString(w.worker);
        }
    }
    std::sort(list.begin(), list.end(), [](const QString& a, const QString& b) {
        return a.size() != b.size() ? a.size() < b.size() : a < b;
    });
    return list;
}

QString MessageTableModel::longestDeadLetterChannel() const {
    QString longest;
    for (const ChannelAt& c : run_->run().channelsNow()) {
        if (c.count(MessageState::DeadLettered) > 0 &&
            c.channel.view().size() > static_cast<std::size_t>(longest.size())) {
            longest = fromView(c.channel.view());
        }
    }
    return longest;
}

QVariant MessageTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const std::size_t known = atFixedTime() ? cursor_->state().messages.size()
                                            : run_->run().messageCount();
    if (messageOf(index.row()) >= known) {
        return {};  // a row on its way out (a move or reset being signalled)
    }
    if (role == SortRole && index.column() == TaskColumn) {
        // The default order: sorting thousands of new rows reads it.
        return static_cast<qulonglong>(messageOf(index.row())) + 1;
    }
    const TaskView& t = cachedView(index.row());
    switch (role) {
        case KeyRole:
            return t.key;
        case StateRole:
            return static_cast<int>(t.state);
        case WorkerRole:
            return t.worker;
        case SortRole:
            return sortData(t, index.column());
        case Qt::ToolTipRole:
            return toolTip(t, index.column());
        case Qt::DisplayRole:
            return displayData(t, index.column());
        case Qt::TextAlignmentRole:
            switch (index.column()) {
                case BodyColumn:
                case IdColumn:
                case StateColumn:
                case WorkerColumn:
                    return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
                default:
                    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
            }
        default:
            return {};
    }
}

QVariant MessageTableModel::toolTip(const TaskView& t, int column) const {
    if (column == StateColumn || column == TaskColumn) {
        QString tip = QStringLiteral("Task #%1 — %2").arg(t.task).arg(describeState(t));
        if (t.state == TaskState::DeadLettered) {
            tip += t.deadLetterChannel.isEmpty()
                       ? QStringLiteral(
                             "\nMaxReceiveCount reached (no broker report of where "
                             "it went)")
                       : QStringLiteral(
                             "\nMaxReceiveCount reached: the broker moved it to "
                             "channel %1")
                             .arg(t.deadLetterChannel);
        } else if (t.state == TaskState::Dropped) {
            tip += QStringLiteral(
                "\nMaxReceiveCount reached and no dead-letter channel: the broker dropped it");
        }
        if (t.deliveries > 1) {
            tip +=
                QStringLiteral("\nDelivered %1 times (at-least-once delivery)").arg(t.deliveries);
        }
        if (t.detailsForgotten) {
            tip += QStringLiteral(
                "\nIts times and sequence are no longer held in memory (an old, finished "
                "task); its state and events are.");
        }
        return tip;
    }
    if (column == IdColumn) {
        return t.messageId;  // the column may be narrow
    }
    if (column == BodyColumn) {
        const QString body = bodyOf(t);
        return body.size() > 500 ? body.left(500) + QStringLiteral("…") : body;
    }
    return {};
}

QVariant MessageTableModel::sortData(const TaskView& t, int column) const {
    switch (column) {
        case TaskColumn:
            return t.task;
        case SequenceColumn:
            return QVariant::fromValue<qulonglong>(t.sequence);
        case ReceiveCountColumn:
            return t.receiveCount;
        case SentColumn:
            return QVariant::fromValue<qlonglong>(t.sentNs);
        case AssignedColumn:
            return QVariant::fromValue<qlonglong>(t.lastAssignedNs);
        case SettledColumn:
            return QVariant::fromValue<qlonglong>(t.settledNs);
        case LatencyColumn:
            return QVariant::fromValue<qlonglong>(t.latencyNs());
        case StateColumn:
            return static_cast<int>(t.state);
        default:
            return displayData(t, column);
    }
}

QVariant MessageTableModel::displayData(const TaskView& t, int column) const {
    switch (column) {
        case TaskColumn:
            return t.task;
        case SequenceColumn:
            return t.sequence > 0 ? QVariant::fromValue<qulonglong>(t.sequence) : QVariant();
        case IdColumn:
            return t.messageId;
        case BodyColumn:
            return bodyOf(t);
        case StateColumn:
            return describeState(t);
        case WorkerColumn:
            return t.worker;
        case ReceiveCountColumn:
            return t.receiveCount;
        case SentColumn:
            return t.sentNs > 0 ? formatClock(t.sentNs, true) : QString();
        case AssignedColumn:
            return t.lastAssignedNs > 0 ? formatClock(t.lastAssignedNs, true) : QString();
        case SettledColumn:
            return t.settledNs > 0 ? formatClock(t.settledNs, true) : QString();
        case LatencyColumn:
            return t.latencyNs() >= 0 ? formatDurationNs(t.latencyNs()) : QString();
        default:
            return {};
    }
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

void MessageTableModel::runReset() {
    beginResetModel();
    first_ = 0;
    committed_ = 0;
    shown_.clear();
    shownFixed_ = false;
    cache_.reset();
    watchedIndex_.reset();
    lastCommit_.invalidate();
    endResetModel();
}

void MessageTableModel::runAppended() {
    ++generation_;
    if (atFixedTime()) {
        return;  // the rows show the cursor's instant, which the new events do not change
    }
    signalChangedRows();
    commitRows(false);
}

// A move shows another instant: rows for the tasks seen by then, and a
// dataChanged for the rows whose state differs from what they showed (a
// whole-table signal would make the sorting proxy read every row each frame
// of a playback).
void MessageTableModel::cursorMoved() {
    const bool fixed = atFixedTime();
    if (!fixed && !shownFixed_) {
        return;  // the head grew: runAppended() has signalled it
    }
    ++generation_;
    if (!fixed && committed_ > static_cast<int>(run_->run().messageCount())) {
        runReset();  // the run was reset before this model heard of it
    }
    const auto oldEnd = static_cast<std::uint32_t>(committed_);
    if (fixed && first_ > 0) {
        showEveryTask();
    } else if (fixed) {
        setRowEnd(static_cast<std::uint32_t>(cursor_->state().messages.size()));
    } else {
        commitRows(true);
        keepToLiveWindow();  // also when no row was to come
    }
    signalRows(tasksChangedByMove(std::min(oldEnd, static_cast<std::uint32_t>(committed_))));
    shown_ = fixed ? cursor_->state().messages : std::vector<MessageAt>();
    shownFixed_ = fixed;
    Q_EMIT watchedTaskChanged();  // its history marks what comes after the cursor
}

void MessageTableModel::showEveryTask() {
    beginResetModel();
    first_ = 0;
    committed_ = static_cast<int>(cursor_->state().messages.size());
    cache_.reset();
    endResetModel();
}

std::vector<std::uint32_t> MessageTableModel::tasksChangedByMove(std::uint32_t end) const {
    const Run& run = run_->run();
    const bool fixed = atFixedTime();
    const std::vector<MessageAt>* now = fixed ? &cursor_->state().messages : nullptr;
    std::vector<std::uint32_t> changed;
    for (std::uint32_t i = first_; i < end; ++i) {
        const MessageAt& before = shownFixed_ && i < shown_.size() ? shown_[i] : run.messageNow(i);
        const MessageAt& after = now != nullptr ? (*now)[i] : run.messageNow(i);
        if (!(before == after) || (shownFixed_ && i >= shown_.size())) {
            changed.push_back(i);
        }
    }
    return changed;
}

void MessageTableModel::setRowEnd(std::uint32_t end) {
    const int rows = static_cast<int>(end) - static_cast<int>(first_);
    const int shown = rowCount();
    if (rows > shown) {
        beginInsertRows({}, shown, rows - 1);
        committed_ = static_cast<int>(end);
        endInsertRows();
    } else if (rows < shown) {
        beginRemoveRows({}, std::max(0, rows), shown - 1);
        committed_ = static_cast<int>(std::max(end, first_));
        endRemoveRows();
    }
}

void MessageTableModel::setLiveWindow(int rows) {
    liveWindow_ = std::max(0, rows);
    keepToLiveWindow();
}

void MessageTableModel::keepToLiveWindow() {
    const int rows = rowCount();
    if (liveWindow_ == 0 || atFixedTime() || rows <= liveWindow_ + liveWindow_ / 8) {
        return;
    }
    const int leaving = rows - liveWindow_;
    beginRemoveRows({}, 0, leaving - 1);
    first_ += static_cast<std::uint32_t>(leaving);
    cache_.reset();
    endRemoveRows();
}

void MessageTableModel::signalChangedRows() {
    signalRows(run_->touchedByLastAppend());
}

void MessageTableModel::signalRows(std::vector<std::uint32_t> tasks) {
    if (!watchedKey_.isEmpty() && !watchedIndex_) {
        watchedIndex_ = taskIndexOfKey(run_->run(), watchedKey_);
    }
    std::sort(tasks.begin(), tasks.end());
    // The watched task may be older than the first row (a live window).
    const bool watchedTouched =
        watchedIndex_ && std::binary_search(tasks.begin(), tasks.end(), *watchedIndex_);
    tasks.erase(tasks.begin(), std::lower_bound(tasks.begin(), tasks.end(), first_));
    // One signal per run of nearby tasks. Not one range from the first to the last
    // changed row: a single old task touched again would make that range cover the
    // rows on screen, and the table would repaint every frame for nothing.
    constexpr std::uint32_t kGap = 8;
    std::size_t i = 0;
    while (i < tasks.size()) {
        std::size_t j = i;
        while (j + 1 < tasks.size() && tasks[j + 1] <= tasks[j] + kGap) {
            ++j;
        }
        const int first = static_cast<int>(tasks[i] - first_);
        const int last = std::min(static_cast<int>(tasks[j] - first_), rowCount() - 1);
        if (first < rowCount()) {
            Q_EMIT dataChanged(index(first, 0), index(last, ColumnCount - 1));
        }
        i = j + 1;
    }
    if (watchedTouched) {
        Q_EMIT watchedTaskChanged();
    }
}

void MessageTableModel::commitRows(bool force) {
    const int total = static_cast<int>(run_->run().messageCount());
    if (total <= committed_ || atFixedTime()) {
        return;
    }
    if (!force && commitIntervalMs_ > 0 && lastCommit_.isValid() &&
        lastCommit_.elapsed() < commitIntervalMs_) {
        if (!commitLater_.isActive()) {
            commitLater_.start(static_cast<int>(commitIntervalMs_ - lastCommit_.elapsed()));
        }
        return;
    }
    commitLater_.stop();
    setRowEnd(static_cast<std::uint32_t>(total));
    keepToLiveWindow();
    lastCommit_.start();
}

void MessageTableModel::commitPendingRows() {
    commitRows(true);
}

}  // namespace qs::ui
