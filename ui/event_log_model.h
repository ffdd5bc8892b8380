#pragma once

#include <QAbstractTableModel>
#include <deque>
#include <vector>

#include "events/event.h"

// The raw event log: the newest `capacity` events (up to a tenth more between
// trims), oldest first. Older events leave in chunks of a tenth of the capacity
// (one rowsRemoved), new ones arrive in one rowsInserted per frame. UI thread only.
namespace qs::ui {

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

    explicit EventLogModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    void append(const std::vector<Event>& batch);
    void clear();
    void setCapacity(int capacity);
    int capacity() const { return capacity_; }
    std::uint64_t totalSeen() const { return total_; }

    const Event& event(int row) const { return events_[static_cast<std::size_t>(row)]; }

    static bool isProblem(EventKind kind);
    static QString detailText(const Event& e);

private:
    std::deque<Event> events_;
    int capacity_ = 20000;
    std::uint64_t total_ = 0;
};

}  // namespace qs::ui
