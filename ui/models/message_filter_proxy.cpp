#include "models/message_filter_proxy.h"

#include "models/message_table_model.h"

namespace qs::ui {

MessageFilterProxy::MessageFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(MessageTableModel::SortRole);
    setFilterKeyColumn(MessageTableModel::BodyColumn);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
}

void MessageFilterProxy::setStateFilter(std::optional<TaskState> state) {
    if (state_ == state) {
        return;
    }
    state_ = state;
    invalidateFilter();
}

void MessageFilterProxy::setWorkerFilter(const QString& worker) {
    if (worker_ == worker) {
        return;
    }
    worker_ = worker;
    invalidateFilter();
}

void MessageFilterProxy::sort(int column, Qt::SortOrder order) {
    const bool sourceOrder = column == MessageTableModel::TaskColumn && order == Qt::AscendingOrder;
    QSortFilterProxyModel::sort(sourceOrder ? -1 : column, order);
}

bool MessageFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QModelIndex idx = sourceModel()->index(sourceRow, 0, sourceParent);
    if (state_ && idx.data(MessageTableModel::StateRole).toInt() != static_cast<int>(*state_)) {
        return false;
    }
    if (!worker_.isEmpty() && idx.data(MessageTableModel::WorkerRole).toString() != worker_) {
        return false;
    }
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

bool MessageFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    if (left.column() == MessageTableModel::TaskColumn &&
        right.column() == MessageTableModel::TaskColumn) {
        return left.row() < right.row();
    }
    return QSortFilterProxyModel::lessThan(left, right);
}

}  // namespace qs::ui
