#pragma once

#include <QSortFilterProxyModel>
#include <optional>

#include "models/task_view.h"

// Filters the message table by state and by worker; sorts numerically where
// the source column is numeric (SortRole).
namespace qs::ui {

class MessageFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit MessageFilterProxy(QObject* parent = nullptr);

    void setStateFilter(std::optional<TaskState> state);  // nullopt = all
    void setWorkerFilter(const QString& worker);          // empty = all
    // By task number ascending is the source's own order: the proxy then
    // keeps the source order (sort column -1), so the rows a move of the time
    // cursor inserts (up to every task) are placed without a comparison. The
    // view's header still shows the task column sorted.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    // The task column by task number, which is the source row + 1: no data()
    // and no QVariant per comparison (a move of the time cursor inserts tens
    // of thousands of rows, each placed by comparisons).
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    std::optional<TaskState> state_;
    QString worker_;
};

}  // namespace qs::ui
