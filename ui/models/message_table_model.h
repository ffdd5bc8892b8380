#pragma once

#include <QAbstractTableModel>
#include <QElapsedTimer>
#include <QStringList>
#include <QTimer>
#include <functional>
#include <optional>
#include <vector>

#include "models/task_view.h"
#include "run/run_state.h"

// One row per task (message identity) of the console's run, in first-seen
// order: a projection of the core Run at the time cursor (its head while
// live; at a fixed t, the tasks seen by then, as Run::stateAt(t) has them). It keeps no state about
// messages; every cell is read from the Run (TaskView). After each appended
// batch it tells the views which rows changed and which were added.
// While live it may show only the newest tasks (setLiveWindow; the console
// shows 100,000), so that a long run's rows do not grow without end in the
// views and their proxies; at a fixed time every task seen by then is a row.
// UI thread only.
namespace qs::ui {

class ConsoleRun;
class TimeCursor;

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
        KeyRole = Qt::UserRole + 1,  // QString identity (messageKey)
        StateRole,                   // int(TaskState)
        WorkerRole,                  // QString current/last worker
        SortRole,                    // numeric where the column is numeric
    };

    // `run` is not owned and must outlive the model.
    explicit MessageTableModel(const ConsoleRun* run, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // New rows reach the views at most this often (0 = every batch), and at
    // the latest this long after the run saw them, appends or not. A table
    // view lays out and repaints all of its visible rows on every insertion,
    // and its header places every row again (a cost that grows with the
    // rows), which is wasted at 30 insertions a second; taskByKey() knows
    // them at once.
    void setCommitIntervalMs(int ms) { commitIntervalMs_ = ms; }
    // Shows rows still held back by the commit interval (tests, end of a run).
    void commitPendingRows();
    // While live, at most about `rows` rows: the newest tasks (0, the
    // default: every task). Over it by an eighth, the oldest rows go in one
    // removal, down to `rows`.
    void setLiveWindow(int rows);
    int liveWindow() const { return liveWindow_; }
    // Tasks of the run at the cursor that are not rows (the oldest, while live).
    int tasksBeforeFirstRow() const { return static_cast<int>(first_); }

    // Follows `cursor` (not owned; it outlives the model). Without one: the head.
    void setCursor(const TimeCursor* cursor);

    const ConsoleRun& consoleRun() const { return *run_; }
    // The run's counts at the cursor (the head's while live).
    const LedgerSummary& summary() const;
    // Events of the run at the cursor: later ones have not happened yet there.
    std::uint64_t eventsShown() const;
    std::optional<TaskView> task(int row) const;
    // Also tasks not yet shown as rows (commit interval).
    std::optional<TaskView> taskByKey(const QString& key) const;
    int rowOfKey(const QString& key) const;  // -1 when unknown / not yet a row
    // The body as its TaskSent event recorded it (its first 200 bytes); "" when
    // this run did not send it.
    QString bodyOf(const TaskView& task) const;

    // The one task a details pane shows; watchedTaskChanged() fires when it changes.
    void setWatchedKey(const QString& key) {
        watchedKey_ = key;
        watchedIndex_.reset();
    }
    QStringList workers() const;
    // The longest dead-letter channel name any task went to (sizes the State column).
    QString longestDeadLetterChannel() const;

Q_SIGNALS:
    void watchedTaskChanged();

private:
    void runAppended();
    void runReset();
    void cursorMoved();
    bool atFixedTime() const;
    // The rows become the tasks before message index `end` (from first_).
    void setRowEnd(std::uint32_t end);
    // Leaves only the newest liveWindow_ rows while live.
    void keepToLiveWindow();
    // Every task seen by the cursor's instant a row again (a fixed time).
    void showEveryTask();
    std::uint32_t messageOf(int row) const { return first_ + static_cast<std::uint32_t>(row); }
    void signalChangedRows();
    // One dataChanged per run of nearby rows of these tasks (message indexes;
    // and watchedTaskChanged when it is among them).
    void signalRows(std::vector<std::uint32_t> tasks);
    // The tasks (message indexes) shown before `end` whose state the move changed.
    std::vector<std::uint32_t> tasksChangedByMove(std::uint32_t end) const;
    void commitRows(bool force);
    const TaskView& cachedView(int row) const;
    QVariant displayData(const TaskView& t, int column) const;
    QVariant sortData(const TaskView& t, int column) const;
    QVariant toolTip(const TaskView& t, int column) const;

    const ConsoleRun* run_;
    const TimeCursor* cursor_ = nullptr;
    std::vector<MessageAt> shown_;  // what the rows showed at the last fixed-time move
    bool shownFixed_ = false;        // the rows show shown_ (else the head)
    // The rows the views know about are the run's messages first_ .. committed_ - 1.
    std::uint32_t first_ = 0;
    int committed_ = 0;
    int liveWindow_ = 0;
    QString watchedKey_;
    std::optional<std::uint32_t> watchedIndex_;
    int commitIntervalMs_ = 0;
    QElapsedTimer lastCommit_;
    QTimer commitLater_;  // shows the rows held back when no append comes to do it
    // The view of the last row read: a view asks for every column and role of a row in turn.
    mutable std::optional<TaskView> cache_;
    mutable std::uint64_t cacheGeneration_ = 0;
    std::uint64_t generation_ = 1;  // bumped by every append and cursor move
};

}  // namespace qs::ui
