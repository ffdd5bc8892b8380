#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "events/event.h"

// The raw event log: a window on the console's run, its newest `capacity`
// events (up to a tenth more between trims), oldest first. It holds no events
// of its own: every row is read from the run, which keeps them all (exports
// read the run, not the window). Older events leave the window in chunks of a
// tenth of the capacity (one rowsRemoved), new ones arrive in one
// rowsInserted per appended batch. UI thread only.
namespace qs::ui {

class ConsoleRun;

class EventLogModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        TimeColumn,
        SourceColumn,
        KindColumn,
        ActorColumn,
        ChannelColumn,
        SequenceColumn,
        MessageIdColumn,
        DetailColumn,
        ColumnCount
    };
    enum Role {
        SourceRole = Qt::UserRole + 1,  // int(EventSource)
        KindRole,                       // int(EventKind)
        ProblemRole,                    // bool: crash, rejection, error, dead-letter, ...
    };

    // `run` is not owned and must outlive the model.
    explicit EventLogModel(const ConsoleRun* run, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    void setCapacity(int capacity);
    int capacity() const { return capacity_; }
    // Paused (its table hidden behind another tab), the rows stay as they
    // are and new events are not announced: the filter and the view above
    // would take thousands of rows a frame of a live run for nobody.
    // Unpausing brings the rows up to the run at once.
    void setPaused(bool paused);
    bool isPaused() const { return paused_; }
    // Brings the rows up to the run now, paused or not.
    void catchUp();
    // Every event of the run, in the window or not.
    std::uint64_t totalSeen() const;
    const ConsoleRun& consoleRun() const { return *run_; }

    Event event(int row) const;  // decoded from the run (a value)
    // The row of the run's event `index` (Run::event), -1 = not in the window;
    // and back.
    int rowOfEvent(std::uint64_t index) const;
    std::uint64_t eventIndex(int row) const { return first_ + static_cast<std::uint64_t>(row); }

    static bool isProblem(EventKind kind);
    static QString detailText(const Event& e);
    // What a column shows for an event (the search matches these).
    static QString cellText(const Event& e, int column);

private:
    void runAppended();
    void runReset();
    void trimTo(std::uint64_t keep);

    const ConsoleRun* run_;
    std::uint64_t first_ = 0;  // the run's index of row 0
    std::uint64_t end_ = 0;    // one past the run's index of the last row
    int capacity_ = 20000;
    bool paused_ = false;
};

}  // namespace qs::ui
