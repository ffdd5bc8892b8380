// The side-by-side comparison (docs/ui.md, "Comparing two runs"): pairs of
// recorded runs built to differ in one known way, compared by the core
// (analysis::compareRuns) and shown by ComparisonModel / TaskDifferenceModel
// under QAbstractItemModelTester. A task another worker did is allowed by the
// semantics; a task lost in one run is a real difference, in the totals and
// in the table of tasks; the view's verdict line says which.
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

#include "analysis/recorded_run.h"
#include "analysis/run_comparison.h"
#include "controllers/recording_comparer.h"
#include "models/comparison_model.h"
#include "models/task_difference_model.h"
#include "panels/comparison_view.h"
#include "recording_factory.h"

using namespace qs;
using namespace qs::ui;

namespace {

// The row named `name` in the section titled `section` (invalid when absent).
QModelIndex rowNamed(const ComparisonModel& model, const QString& section, const QString& name) {
    const QModelIndex parent = model.sectionIndex(section);
    for (int r = 0; r < model.rowCount(parent); ++r) {
        const QModelIndex i = model.index(r, ComparisonModel::Name, parent);
        if (i.data().toString() == name) {
            return i;
        }
    }
    return {};
}

QString cell(const QModelIndex& row, int column) {
    return row.sibling(row.row(), column).data().toString();
}

const QString kTotals = QStringLiteral("Totals");
const QString kWorkers = QStringLiteral("Per worker");

}  // namespace

class TestComparisonModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void aTaskOnAnotherWorkerIsAllowed();
    void aLostTaskIsARealDifference();
    void theViewSaysTheVerdict();
    void aNewComparisonResetsTheModels();

private:
    QString write(const char* name, const std::vector<test::PlannedTask>& tasks,
                  const std::string& tag);
    ComparisonResult compare(const QString& a, const QString& b);

    QTemporaryDir dir_;
    QString base_, otherWorker_, lost_;
};

QString TestComparisonModel::write(const char* name, const std::vector<test::PlannedTask>& tasks,
                                   const std::string& tag) {
    const QString path = dir_.filePath(QString::fromLatin1(name));
    std::string error;
    if (!test::writePlannedRun(path, tasks, tag, &error)) {
        qWarning("%s", error.c_str());
        return {};
    }
    return path;
}

ComparisonResult TestComparisonModel::compare(const QString& a, const QString& b) {
    return compareRecordings(a, b);  // what the comparer's thread runs
}

void TestComparisonModel::initTestCase() {
    QVERIFY(dir_.isValid());
    // Four tasks: worker-1 does 1 and 3, worker-2 does 2 and 4.
    base_ = write("base.qsrun", test::roundRobin(4, 2), "a");
    // The same work, task 2 done by worker-1 instead.
    std::vector<test::PlannedTask> moved = test::roundRobin(4, 2);
    moved[1].worker = "worker-1";
    otherWorker_ = write("other-worker.qsrun", moved, "b");
    // Task 3 handed out and never settled: lost.
    std::vector<test::PlannedTask> lost = test::roundRobin(4, 2);
    lost[2].acked = false;
    lost_ = write("lost.qsrun", lost, "c");
    QVERIFY(!base_.isEmpty() && !otherWorker_.isEmpty() && !lost_.isEmpty());
}

void TestComparisonModel::aTaskOnAnotherWorkerIsAllowed() {
    const ComparisonResult result = compare(base_, otherWorker_);
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QVERIFY(!result.differs);
    ComparisonModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setComparison(result.comparison);

    // Every total the same; each worker's share differs, as allowed.
    const QModelIndex totals = model.sectionIndex(kTotals);
    QVERIFY(totals.isValid());
    QVERIFY(model.rowCount(totals) > 10);
    for (int r = 0; r < model.rowCount(totals); ++r) {
        const QModelIndex row = model.index(r, ComparisonModel::Name, totals);
        QVERIFY2(cell(row, ComparisonModel::Verdict) == QStringLiteral("same"),
                 qPrintable(cell(row, ComparisonModel::Name)));
    }
    const QModelIndex w1 = rowNamed(model, kWorkers, QStringLiteral("worker-1"));
    const QModelIndex w2 = rowNamed(model, kWorkers, QStringLiteral("worker-2"));
    QVERIFY(w1.isValid() && w2.isValid());
    QVERIFY2(cell(w1, ComparisonModel::ThisRun).startsWith(QStringLiteral("share 50%, 2 received")),
             qPrintable(cell(w1, ComparisonModel::ThisRun)));
    QVERIFY2(
        cell(w1, ComparisonModel::OtherRun).startsWith(QStringLiteral("share 75%, 3 received")),
        qPrintable(cell(w1, ComparisonModel::OtherRun)));
    for (const QModelIndex& w : {w1, w2}) {
        QCOMPARE(cell(w, ComparisonModel::Verdict), QStringLiteral("allowed by the semantics"));
        QCOMPARE(
            w.sibling(w.row(), ComparisonModel::Verdict).data(ComparisonModel::VerdictRole).toInt(),
            static_cast<int>(analysis::Verdict::Allowed));
    }
    // The section row sums it up.
    QCOMPARE(model.index(model.sectionIndex(kWorkers).row(), ComparisonModel::Verdict).data(),
             QVariant(QStringLiteral("2 allowed")));
    QCOMPARE(model.index(totals.row(), ComparisonModel::Verdict).data(),
             QVariant(QStringLiteral("all the same")));

    // No task ended differently: the one on another worker is only counted.
    TaskDifferenceModel tasks;
    QAbstractItemModelTester taskTester(&tasks,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
    tasks.setDifferences(result.comparison.tasks);
    QCOMPARE(tasks.rowCount(), 0);
    QCOMPARE(result.comparison.tasksOnOtherWorkers, std::size_t{1});
    QCOMPARE(result.comparison.tasksMatched, std::size_t{4});
}

void TestComparisonModel::aLostTaskIsARealDifference() {
    const ComparisonResult result = compare(base_, lost_);
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QVERIFY(result.differs);
    ComparisonModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setComparison(result.comparison);

    const QModelIndex lostRow = rowNamed(model, kTotals, QStringLiteral("LOST (no end state)"));
    QVERIFY(lostRow.isValid());
    QCOMPARE(cell(lostRow, ComparisonModel::ThisRun), QStringLiteral("0"));
    QCOMPARE(cell(lostRow, ComparisonModel::OtherRun), QStringLiteral("1"));
    QCOMPARE(cell(lostRow, ComparisonModel::Verdict), QStringLiteral("real difference"));
    QCOMPARE(lostRow.sibling(lostRow.row(), ComparisonModel::Verdict)
                 .data(ComparisonModel::VerdictRole)
                 .toInt(),
             static_cast<int>(analysis::Verdict::Differs));
    const QModelIndex acked = rowNamed(model, kTotals, QStringLiteral("acked"));
    QCOMPARE(cell(acked, ComparisonModel::ThisRun), QStringLiteral("4"));
    QCOMPARE(cell(acked, ComparisonModel::OtherRun), QStringLiteral("3"));
    QCOMPARE(cell(acked, ComparisonModel::Verdict), QStringLiteral("real difference"));
    // A real difference is marked: its row has a background, the section says how many.
    QVERIFY(lostRow.sibling(lostRow.row(), ComparisonModel::ThisRun)
                .data(Qt::BackgroundRole)
                .isValid());
    QVERIFY(model.index(model.sectionIndex(kTotals).row(), ComparisonModel::Verdict)
                .data()
                .toString()
                .endsWith(QStringLiteral("real differences")));

    // The task itself, in the table: acked here, in flight (lost) there.
    TaskDifferenceModel tasks;
    QAbstractItemModelTester taskTester(&tasks,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
    tasks.setDifferences(result.comparison.tasks);
    QCOMPARE(tasks.rowCount(), 1);
    QCOMPARE(tasks.index(0, TaskDifferenceModel::Task).data().toString(),
             QStringLiteral("Task #3"));
    QVERIFY2(tasks.index(0, TaskDifferenceModel::ThisRun)
                 .data()
                 .toString()
                 .startsWith(QStringLiteral("acked after 1 hand-out (worker-1)")),
             qPrintable(tasks.index(0, TaskDifferenceModel::ThisRun).data().toString()));
    QVERIFY2(tasks.index(0, TaskDifferenceModel::OtherRun)
                 .data()
                 .toString()
                 .contains(QStringLiteral("no end state")),
             qPrintable(tasks.index(0, TaskDifferenceModel::OtherRun).data().toString()));
    QCOMPARE(tasks.index(0, TaskDifferenceModel::Verdict).data().toString(),
             QStringLiteral("real difference"));
    QCOMPARE(tasks.index(0, TaskDifferenceModel::Verdict).data(TaskDifferenceModel::VerdictRole),
             QVariant(static_cast<int>(analysis::Verdict::Differs)));
    QVERIFY(!tasks.index(0, TaskDifferenceModel::Why).data().toString().isEmpty());
}

void TestComparisonModel::theViewSaysTheVerdict() {
    ComparisonView same(compare(base_, otherWorker_), QStringLiteral("the recording shown"));
    QVERIFY2(same.verdictLine().startsWith(QStringLiteral("The same work")),
             qPrintable(same.verdictLine()));
    auto* heading = same.findChild<QLabel*>(QStringLiteral("taskDifferencesHeading"));
    QVERIFY(heading != nullptr);
    QVERIFY2(heading->text().contains(QStringLiteral("1 ended alike on another worker")),
             qPrintable(heading->text()));
    QVERIFY(same.findChild<QTableView*>(QStringLiteral("taskDifferences"))->isHidden());

    const ComparisonResult lost = compare(base_, lost_);
    ComparisonView differs(lost, QStringLiteral("the recording shown"));
    differs.show();
    QVERIFY(QTest::qWaitForWindowExposed(&differs));
    // acked, LOST and Task #3 at least: as many as the core counts.
    const std::size_t real = lost.comparison.count(analysis::Verdict::Differs);
    QVERIFY(real >= 3);
    QVERIFY2(differs.verdictLine().startsWith(
                 QStringLiteral("The runs differ: %1 real differences").arg(real)),
             qPrintable(differs.verdictLine()));
    QVERIFY(differs.findChild<QTableView*>(QStringLiteral("taskDifferences"))->isVisible());
    QCOMPARE(differs.findChild<QLabel*>(QStringLiteral("comparisonVerdict"))->text(),
             differs.verdictLine());
    // "Copy as text" copies the comparison as `queuescope compare` prints it.
    differs.findChild<QPushButton*>(QStringLiteral("copyComparison"))->click();
    QCOMPARE(QApplication::clipboard()->text(), lost.text);
    QVERIFY(lost.text.contains(QStringLiteral("Result: DIFFERENT")));
}

void TestComparisonModel::aNewComparisonResetsTheModels() {
    ComparisonModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setComparison(compare(base_, lost_).comparison);
    const int sections = model.rowCount();
    QVERIFY(sections >= 3);
    model.setComparison(analysis::RunComparison{});
    QCOMPARE(model.rowCount(), 0);
    model.setComparison(compare(base_, otherWorker_).comparison);
    QVERIFY(model.rowCount() >= 3);
}

QTEST_MAIN(TestComparisonModel)
#include "tst_comparison_model.moc"
