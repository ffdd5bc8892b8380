// The Polls dock (docs/ui.md, "Polls") on a live run of the embedded broker:
// three workers take batches of 5 of 10 tasks with a 10 s wait (scenario 01),
// so one of them gets nothing. Its rows and Jain's index are the core's
// runner::computePollFairness over the head ledger (the numbers `queuescope
// run` prints); at a past cursor they are the workers of Run::stateAt(t),
// with the hoarding columns unknown.
#include <QAbstractItemModelTester>
#include <QStandardPaths>
#include <QTest>
#include <memory>

#include "controllers/console_run.h"
#include "controllers/time_cursor.h"
#include "main_window.h"
#include "models/poll_fairness_model.h"
#include "panels/poll_panel.h"
#include "run/run.h"
#include "runner/poll_fairness.h"
#include "window_fixture.h"

using namespace qs;
using namespace qs::ui;

namespace {

constexpr int kDeadlineMs = 60000;

QString cell(const PollFairnessModel& m, int row, int column) {
    return m.index(row, column).data().toString();
}

}  // namespace

class TestPollPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void rowsAreTheCoresFairness();
    void pastCursorReadsTheStateThen();
    void cleanupTestCase();

private:
    PollFairnessModel& model() const { return *window_->pollFairness(); }
    const Run& run() const { return window_->consoleRun()->run(); }

    std::unique_ptr<MainWindow> window_;
    std::unique_ptr<QAbstractItemModelTester> tester_;
};

void TestPollPanel::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    MainWindowOptions options = test::offlineOptions();
    options.recordRuns = false;
    window_ = std::make_unique<MainWindow>(options);
    tester_ = std::make_unique<QAbstractItemModelTester>(
        window_->pollFairness(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    window_->resize(1600, 1000);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    window_->showDock(QStringLiteral("pollsDock"));
    QTRY_VERIFY(model().isActive());
    QCOMPARE(window_->pollPanel()->summaryText(), QStringLiteral("No worker has polled yet."));
    QString error;
    QVERIFY2(window_->connection()->startEmbedded(0, &error), qPrintable(error));
    QVERIFY2(window_->playScenario(QStringLiteral("01-classic-work-queue"), &error),
             qPrintable(error));
}

void TestPollPanel::rowsAreTheCoresFairness() {
    QTRY_VERIFY_WITH_TIMEOUT(run().summaryNow().count(MessageState::Acked) == 10, kDeadlineMs);
    // The coalesced rebuild follows by itself.
    QTRY_VERIFY_WITH_TIMEOUT(model().rowCount() == 3 && model().fairness().polls >= 2, kDeadlineMs);
    model().rebuild();  // the model and the core read at the same instant
    const TimeCursor& cursor = *window_->timeCursor();
    const runner::PollFairness want = runner::computePollFairness(
        run().ledger().workers(), static_cast<double>(cursor.headNs() - cursor.startNs()) / 1e9);
    const runner::PollFairness& got = model().fairness();
    QVERIFY(model().hoardingKnown());
    QCOMPARE(got.workers.size(), want.workers.size());
    QCOMPARE(got.jainIndex, want.jainIndex);
    QCOMPARE(got.polls, want.polls);
    QCOMPARE(got.emptyPolls, want.emptyPolls);
    for (int r = 0; r < model().rowCount(); ++r) {
        const runner::WorkerPollFairness& w = want.workers[static_cast<std::size_t>(r)];
        QCOMPARE(cell(model(), r, PollFairnessModel::Worker).toStdString(), w.worker);
        QCOMPARE(cell(model(), r, PollFairnessModel::Polls), QString::number(w.polls));
        QCOMPARE(cell(model(), r, PollFairnessModel::MaxHeld), QString::number(w.maxHeld));
        QCOMPARE(cell(model(), r, PollFairnessModel::Share),
                 QStringLiteral("%1%").arg(w.share * 100.0, 0, 'f', 0));
    }
    // Two workers took five each, one none: Jain's index is (10)² / (3 · 50) = 2/3.
    QCOMPARE(QString::number(got.jainIndex, 'f', 2), QStringLiteral("0.67"));
    QVERIFY2(window_->pollPanel()->summaryText().startsWith(QStringLiteral("Jain's index 0.67")),
             qPrintable(window_->pollPanel()->summaryText()));
}

// Before any hand-out: nobody has received anything yet; hoarding is unknown.
void TestPollPanel::pastCursorReadsTheStateThen() {
    TimeCursor& cursor = *window_->timeCursor();
    cursor.moveTo(cursor.startNs());
    model().rebuild();
    QVERIFY(!model().hoardingKnown());
    const RunState& state = cursor.state();
    std::uint64_t received = 0;
    for (const WorkerAt& w : state.workers)
        received += static_cast<std::uint64_t>(w.count(WorkerCounter::Received));
    QCOMPARE(received, std::uint64_t{0});
    for (int r = 0; r < model().rowCount(); ++r) {
        QCOMPARE(cell(model(), r, PollFairnessModel::Share), QStringLiteral("0%"));
        QCOMPARE(cell(model(), r, PollFairnessModel::MaxHeld), QStringLiteral("—"));
    }
    const QString summary = window_->pollPanel()->summaryText();
    if (model().rowCount() == 0)
        QCOMPARE(summary, QStringLiteral("No worker has polled yet."));
    else
        QVERIFY2(summary.contains(QStringLiteral("known live only")), qPrintable(summary));
    cursor.goLive();
    model().rebuild();
    QVERIFY(model().hoardingKnown());
    QCOMPARE(model().rowCount(), 3);
}

void TestPollPanel::cleanupTestCase() {
    tester_.reset();
    window_.reset();
}

QTEST_MAIN(TestPollPanel)
#include "tst_poll_panel.moc"
