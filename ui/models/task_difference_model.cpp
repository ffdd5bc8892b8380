#include "models/task_difference_model.h"

#include <QColor>
#include <QFont>

#include "models/comparison_model.h"
#include "models/core_text.h"

namespace qs::ui {

TaskDifferenceModel::TaskDifferenceModel(QObject* parent) : QAbstractTableModel(parent) {}

void TaskDifferenceModel::setDifferences(const std::vector<analysis::TaskDifference>& differences) {
    beginResetModel();
    rows_ = differences;
    endResetModel();
}

int TaskDifferenceModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int TaskDifferenceModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TaskDifferenceModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(rows_.size())) {
        return {};
    }
    const analysis::TaskDifference& d = rows_[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    switch (role) {
        case Qt::DisplayRole:
            switch (column) {
                case Task:
                    return fromView(d.task);
                case ThisRun:
                    return d.a == "-" ? QStringLiteral("— not in this run") : fromView(d.a);
                case OtherRun:
                    return d.b == "-" ? QStringLiteral("— not in the other") : fromView(d.b);
                case Verdict:
                    return verdictText(d.verdict);
                case Why:
                    return fromView(d.why);
                default:
                    return {};
            }
        case Qt::ToolTipRole:
            return column == Task ? QVariant() : data(index, Qt::DisplayRole);
        case Qt::ForegroundRole:
            return column == Verdict || d.verdict == analysis::Verdict::Differs
                       ? QVariant(verdictColor(d.verdict))
                       : QVariant();
        case Qt::FontRole:
            if (column == Verdict && d.verdict == analysis::Verdict::Differs) {
                QFont bold;
                bold.setBold(true);
                return bold;
            }
            return {};
        case Qt::BackgroundRole: {
            const QColor c = verdictBackground(d.verdict);
            return c.isValid() ? QVariant(c) : QVariant();
        }
        case VerdictRole:
            return static_cast<int>(d.verdict);
        default:
            return {};
    }
}

void TaskDifferenceModel::setSideNames(const QString& a, const QString& b) {
    aName_ = a;
    bName_ = b;
    Q_EMIT headerDataChanged(Qt::Horizontal, ThisRun, OtherRun);
}

QVariant TaskDifferenceModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case Task:
            return QStringLiteral("Task");
        case ThisRun:
            return aName_;
        case OtherRun:
            return bName_;
        case Verdict:
            return QStringLiteral("Verdict");
        case Why:
            return QStringLiteral("Why");
        default:
            return {};
    }
}

}  // namespace qs::ui
