#pragma once

#include <QAbstractTableModel>
#include <QElapsedTimer>
#include <QHash>
#include <QSet>
#include <array>
#include <deque>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "events/event.h"
#include "message_record.h"

// One row per task (message identity), built incrementally from event batches.
// Rows are appended in first-seen order; beyond maxRows the oldest rows are
// removed in one chunk and only counted (summarised), so memory stays bounded.
// UI thread only.
namespace qs::ui {

class MessageTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        TaskColumn,
        SequenceColumn,
        IdColumn,
        BodyColumn,
        StateColumn,
        WorkerColumn,
        ReceiveCountColumn,
        SentColumn,
        AssignedColumn,
        SettledColumn,
        LatencyColumn,
        ColumnCount
    };
    enum Role {
        KeyRole = Qt::UserRole + 1,  // QString identity
        StateRole,                   // int(MessageState)
        WorkerRole,                  // QString current/last worker
        SortRole,                    // numeric where the column is numeric
    };

    explicit MessageTableModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    void applyEvents(const std::vector<Event>& batch);
    void clear();

    // Body text for a TaskSent event (the event carries no body); optional.
    void setBodyFunction(std::function<QString(const Event&)> fn) { bodyFn_ = std::move(fn); }

    // New rows reach the views at most this often (0 = every batch). A table
    // view lays out and repaints all of its visible rows on every insertion,
    // which is wasted at 30 insertions a second; the rows are known at once to
    // recordByKey() and stateCounts() either way.
    void setCommitIntervalMs(int ms) { commitIntervalMs_ = ms; }
    // Shows rows still held back by the commit interval (tests, end of a run).
    void commitPendingRows();

    void setMaxRows(int maxRows);
    int maxRows() const { return maxRows_; }
    // Rows removed to keep memory bounded, and their states when removed.
    qint64 trimmedRows() const { return trimmed_; }

    const MessageRecord* record(int row) const;
    const MessageRecord* recordByKey(const QString& key) const;  // null when unknown / trimmed
    int rowOfKey(const QString& key) const;  // -1 when unknown / trimmed / not yet a row

    // Tasks per state: current rows plus trimmed rows (in the state they had when trimmed).
    std::array<qint64, static_cast<int>(MessageState::Count)> stateCounts() const;
    // Tasks per state on one channel (current and trimmed rows). A dead-lettered
    // task counts on its own channel as dead-lettered, never as waiting in its
    // dead-letter channel.
    std::array<qint64, static_cast<int>(MessageState::Count)> channelStateCounts(
        const QString& channel) const;
    // Tasks per state among current rows only.
    std::array<qint64, static_cast<int>(MessageState::Count)> rowStateCounts() const {
        return counts_;
    }

    // The one record a details pane shows; watchedRecordChanged() fires when it changes.
    void setWatchedKey(const QString& key) { watchedKey_ = key; }
    QStringList workers() const;
    // The longest dead-letter channel name any task went to (sizes the State column).
    const QString& longestDeadLetterChannel() const { return longestDeadLetter_; }

    static constexpr int kMaxHistory = 48;

Q_SIGNALS:
    void watchedRecordChanged();

private:
    MessageRecord* touch(const Event& e, bool create);
    void addHistory(MessageRecord& r, const Event& e);
    const QString& actorName(Name actor);
    void setState(MessageRecord& r, MessageState s);
    // The task whose dead-lettered copy `e` (a BrokerStored) is, or null.
    MessageRecord* deadLetterSource(const Event& e);
    void markChanged(const MessageRecord& r);
    void flushChanges();
    void trimIfNeeded();

    std::deque<MessageRecord> rows_;
    qint64 base_ = 0;  // absolute index of rows_.front()
    QHash<QString, qint64> index_;
    QHash<QString, QSet<QString>> inFlightByWorker_;
    std::vector<int> changedRows_;
    std::array<qint64, static_cast<int>(MessageState::Count)> counts_{};
    int maxRows_ = 20000;
    qint64 trimmed_ = 0;
    int taskCounter_ = 0;
    qint64 taskBase_ = 0;
    qint64 lastProducerN_ = 0;
    QSet<QString> workers_;
    std::unordered_map<Name, QString> actors_;
    int committed_ = 0;  // rows the views know about (a prefix of rows_)
    std::array<qint64, static_cast<int>(MessageState::Count)> trimmedCounts_{};
    // Per channel, current and trimmed rows together (trimming does not change them).
    QHash<QString, std::array<qint64, static_cast<int>(MessageState::Count)>> channelCounts_;
    // Dead-letter channel + id → the task's key, until the copy's BrokerStored arrives.
    QHash<QString, QString> deadLetterCopies_;
    QString longestDeadLetter_;
    QString watchedKey_;
    std::function<QString(const Event&)> bodyFn_;
    bool watchedTouched_ = false;
    int commitIntervalMs_ = 0;
    QElapsedTimer lastCommit_;
};

}  // namespace qs::ui
