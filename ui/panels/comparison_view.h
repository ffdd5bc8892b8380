#pragma once

#include <QDialog>
#include <QString>

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

// How the window names the two runs and says its verdict. The defaults are
// File → Compare with recording's; a parity check (Run → Parity check…)
// names the embedded broker and the server and says the parity verdict.
struct ComparisonLabels {
    QString title;  // the window's title; "" = "Compare runs — A and B" (file names)
    QString aName = QStringLiteral("This run");
    QString bName = QStringLiteral("Other recording");
    QString aCovers;  // what of A was compared, said after its file ("" = nothing)
    QString bCovers;  // the same for B
    QString verdict;  // "" = the comparison's own verdict line
};

class ComparisonView : public QDialog {
    Q_OBJECT
public:
    // `covers` says what of this run was compared ("the recording shown", "the
    // run so far (N events)").
    ComparisonView(const ComparisonResult& result, const QString& covers,
                   QWidget* parent = nullptr);
    ComparisonView(const ComparisonResult& result, ComparisonLabels labels,
                   QWidget* parent = nullptr);

    const ComparisonModel* comparisonModel() const { return comparison_; }
    const TaskDifferenceModel* taskModel() const { return tasks_; }
    QString verdictLine() const;
    QString textCopy() const { return result_.text; }  // what "Copy as text" copies
    const ComparisonResult& result() const { return result_; }  // A and B, compared

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    QWidget* buildHeading();
    QWidget* buildTables();
    QString tasksHeading() const;

    ComparisonResult result_;
    ComparisonLabels labels_;
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
