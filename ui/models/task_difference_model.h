#pragma once

#include <QAbstractTableModel>
#include <QString>
#include <vector>

#include "analysis/run_comparison.h"

// The tasks that ended differently in two runs, or were handed out a
// different number of times (analysis::RunComparison::tasks), in the core's
// order: real differences first. Each row: the task, how it went in this run
// and in the other recording, and the core's verdict with its reason.
//
// Threading: UI thread only.
namespace qs::ui {

class TaskDifferenceModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Task, ThisRun, OtherRun, Verdict, Why, ColumnCount };
    enum Role {
        VerdictRole = Qt::UserRole + 1,  // analysis::Verdict as an int
    };

    explicit TaskDifferenceModel(QObject* parent = nullptr);

    void setDifferences(const std::vector<analysis::TaskDifference>& differences);

    // The headers of the two value columns: "This run" and "Other recording"
    // unless set (a parity check names the embedded broker and the server).
    void setSideNames(const QString& a, const QString& b);
    QString sideName(int column) const { return column == ThisRun ? aName_ : bName_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QString aName_ = QStringLiteral("This run");
    QString bName_ = QStringLiteral("Other recording");
    std::vector<analysis::TaskDifference> rows_;
};

}  // namespace qs::ui
