#pragma once

#include <QDialog>

#include "controllers/recording_comparer.h"

class QLabel;
class QTreeView;
class QTableView;

// File → Compare with recording… (docs/ui.md, "Comparing two runs"): the run
// shown and another recording side by side, as the core compares them
// (analysis::compareRuns): a verdict across the top, the totals, each
// worker's share, latency percentiles and hand-out timing in two columns
// (this run / the other recording), and the tasks that ended differently,
// every difference marked "real difference" or "allowed by the semantics"
// with the core's reason. "Copy as text" copies what `queuescope compare`
// prints. Not modal: the console goes on beside it.
//
// Threading: UI thread only.
namespace qs::ui {

class ComparisonModel;
class TaskDifferenceModel;

class ComparisonView : public QDialog {
    Q_OBJECT
public:
    // `covers` says what of this run was compared ("the recording shown", "the
    // run so far (N events)").
    ComparisonView(const ComparisonResult& result, const QString& covers,
                   QWidget* parent = nullptr);

    const ComparisonModel* comparisonModel() const { return comparison_; }
    const TaskDifferenceModel* taskModel() const { return tasks_; }
    QString verdictLine() const;
    QString textCopy() const { return result_.text; }  // what "Copy as text" copies

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    QWidget* buildHeading(const QString& covers);
    QWidget* buildTables();
    QString tasksHeading() const;

    ComparisonResult result_;
    ComparisonModel* comparison_;
    TaskDifferenceModel* tasks_;
    QLabel* verdict_ = nullptr;
    QTreeView* tree_ = nullptr;
    QTableView* taskTable_ = nullptr;
    bool fitting_ = false;  // the columns are being fitted to the window
    bool treeSizedByHand_ = false;
    bool tasksSizedByHand_ = false;
};

}  // namespace qs::ui
