// The in-flight lease board (docs/ui.md, "In flight") on a live run of the
// embedded broker: four workers hold each task 1.5 s; task 1 is poison (max
// receive 2, so its second hand-out is its last). The board's rows are the
// core state's in-flight messages (owners, receive counts), oldest first and
// shaded; the last-chance hand-out is marked; rows leave when their message
// is acked; at a past cursor the board is the leases of Run::stateAt(t).
// Then a run of v1-stream workers: the note counts down the visibility.
#include <QAbstractItemModelTester>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>
#include <memory>
#include <set>
#include <tuple>

#include "controllers/console_run.h"
#include "controllers/scenario_player.h"
#include "controllers/time_cursor.h"
#include "main_window.h"
#include "models/lease_board_model.h"
#include "panels/lease_panel.h"
#include "run/leases.h"
#include "run/run.h"
#include "window_fixture.h"

using namespace qs;
using namespace qs::ui;

namespace {

constexpr const char* kScenario = R"({
  "name": "held leases",
  "channel": "tasks.leases",
  "tasks": { "count": 7, "body": "Task #{n}",
             "policy": { "maxReceiveCount": 2, "deadLetterQueue": "tasks.leases.dlq" },
             "poison": [1] },
  "workers": { "count": 4, "batch": 1, "waitSeconds": 1, "work": { "kind": "fixed", "ms": 1500 } },
  "until": "drained",
  "timeoutSeconds": 60
})";

// One v1-stream worker holds its task 20 s under a 30 s visibility.
constexpr const char* kV1Scenario = R"({
  "name": "v1 leases",
  "channel": "tasks.leases.v1",
  "tasks": { "count": 1, "body": "Task #{n}" },
  "workers": { "count": 1, "consume": "v1", "visibilitySeconds": 30, "waitSeconds": 1,
               "work": { "kind": "fixed", "ms": 20000 } },
  "until": "drained",
  "timeoutSeconds": 60
})";

constexpr int kDeadlineMs = 60000;

// The seconds of "visible again in 12.3 s" in the note of row 0; -1 when absent.
double visibleAgainSeconds(const LeaseBoardModel& board) {
    if (board.rowCount() == 0)
        return -1;
    const QString note = board.index(0, LeaseBoardModel::Note).data().toString();
    static const QRegularExpression pattern(QStringLiteral("visible again in ([0-9.]+) s"));
    const QRegularExpressionMatch match = pattern.match(note);
    return match.hasMatch() ? match.captured(1).toDouble() : -1;
}

using Row = std::tuple<std::string, std::string, int>;  // message id, holder, receive count

// The board's rows as (id, holder, receive count), in row order.
std::vector<Row> boardRows(const LeaseBoardModel& board) {
    std::vector<Row> rows;
    for (int r = 0; r < board.rowCount(); ++r) {
        rows.emplace_back(
            board.index(r, LeaseBoardModel::MessageId).data().toString().toStdString(),
            board.index(r, LeaseBoardModel::Worker).data().toString().toStdString(),
            board.index(r, LeaseBoardModel::Receives).data(Qt::UserRole).toInt());
    }
    return rows;
}

// The in-flight messages of `state` as (id, holder, receive count), as a set.
std::set<Row> inFlight(const Run& run, const RunState& state) {
    std::set<Row> rows;
    for (std::uint32_t i = 0; i < state.messages.size(); ++i) {
        const MessageAt& m = state.messages[i];
        if (m.state == MessageState::InFlight)
            rows.emplace(std::string(run.messageId(i)), m.worker.str(), m.receiveCount);
    }
    return rows;
}

// Empty when the board shows exactly the in-flight messages of `state`,
// oldest hand-out first, the first row shaded and no other.
QString boardDifference(const LeaseBoardModel& board, const Run& run, const RunState& state) {
    const std::vector<Row> rows = boardRows(board);
    if (std::set<Row>(rows.begin(), rows.end()) != inFlight(run, state) ||
        rows.size() != inFlight(run, state).size())
        return QStringLiteral("rows are not the in-flight messages (%1 rows, %2 in flight)")
            .arg(rows.size())
            .arg(inFlight(run, state).size());
    const std::vector<Lease>& leases = board.leases();
    for (std::size_t i = 1; i < leases.size(); ++i) {
        if (leases[i].handedOutNs < leases[i - 1].handedOutNs)
            return QStringLiteral("row %1 is older than the row before it").arg(i);
    }
    for (int r = 0; r < board.rowCount(); ++r) {
        const bool shaded =
            board.index(r, LeaseBoardModel::Task).data(Qt::BackgroundRole).isValid();
        if (shaded != (r == 0))
            return QStringLiteral("row %1 shaded: %2").arg(r).arg(shaded);
    }
    return {};
}

}  // namespace

class TestLeaseBoard : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void rowsAreTheCoreInFlightMessages();
    void lastReceiveIsMarked();
    void pastCursorShowsTheLeasesThen();
    void rowsLeaveWhenSettled();
    void v1VisibilityCountsDown();
    void cleanupTestCase();

private:
    const Run& run() const { return window_->consoleRun()->run(); }
    LeaseBoardModel& board() const { return *window_->leaseBoard(); }

    QTemporaryDir dir_;
    std::unique_ptr<MainWindow> window_;
    std::unique_ptr<QAbstractItemModelTester> tester_;
    std::int64_t pastNs_ = 0;  // an instant with messages in flight
    std::string heldThen_;     // the oldest message in flight then
};

void TestLeaseBoard::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    const QString scenario = dir_.filePath(QStringLiteral("held-leases.json"));
    std::ofstream(scenario.toStdString()) << kScenario;
    MainWindowOptions options = test::offlineOptions();
    options.recordRuns = false;
    window_ = std::make_unique<MainWindow>(options);
    tester_ = std::make_unique<QAbstractItemModelTester>(
        window_->leaseBoard(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    window_->resize(1600, 1000);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    window_->showDock(QStringLiteral("leasesDock"));
    QTRY_VERIFY(board().isActive());
    QString error;
    QVERIFY2(window_->connection()->startEmbedded(0, &error), qPrintable(error));
    QVERIFY2(window_->playScenario(scenario, &error), qPrintable(error));
}

// The first batch: three workers each hold one task for 1.5 s.
void TestLeaseBoard::rowsAreTheCoreInFlightMessages() {
    // The board fills by itself (its coalesced rebuild), no explicit refresh.
    QTRY_VERIFY_WITH_TIMEOUT(board().rowCount() >= 2, kDeadlineMs);
    board().rebuild();  // the board and the core read at the same instant
    QVERIFY2(boardDifference(board(), run(), run().head()).isEmpty(),
             qPrintable(boardDifference(board(), run(), run().head())));
    pastNs_ = window_->timeCursor()->headNs();
    heldThen_ = std::get<0>(boardRows(board()).front());
    // Every lease's hand-out is the ledger's latest delivery of its message
    // (worker and broker reports paired into one).
    for (const Lease& l : board().leases()) {
        const MessageRecord* rec = run().ledger().message(run().messageId(l.message));
        QVERIFY(rec != nullptr && !rec->deliveries.empty());
        const DeliveryRecord& d = rec->deliveries.back();
        QVERIFY(!l.transaction.empty());
        QCOMPARE(l.transaction, d.transaction);
        QCOMPARE(l.handedOutNs, d.assignedNs);
        QCOMPARE(l.worker.str(), d.worker);
        QCOMPARE(l.maxReceiveCount, 2);
    }
    // Held for ticks: the oldest row's age grows while it is held.
    const std::int64_t before =
        board().index(0, LeaseBoardModel::HeldFor).data(Qt::UserRole).toLongLong();
    QTRY_VERIFY_WITH_TIMEOUT(
        board().rowCount() > 0 &&
            board().index(0, LeaseBoardModel::HeldFor).data(Qt::UserRole).toLongLong() > before,
        kDeadlineMs);
    QVERIFY(window_->leasePanel()->summaryText().contains(QStringLiteral("in flight")));
    // Tasks are named as everywhere in the console: by their first-seen number.
    for (int r = 0; r < board().rowCount(); ++r) {
        const Lease& l = board().leases()[static_cast<std::size_t>(r)];
        QCOMPARE(board().index(r, LeaseBoardModel::Task).data().toString(),
                 QStringLiteral("Task #%1").arg(l.message + 1));
    }
}

// Task 1, rejected once, is handed out again showing receive count 2 of 2.
void TestLeaseBoard::lastReceiveIsMarked() {
    auto markedRow = [this] {
        for (int r = 0; r < board().rowCount(); ++r) {
            if (board()
                    .index(r, LeaseBoardModel::Note)
                    .data()
                    .toString()
                    .contains(QStringLiteral("last receive")))
                return r;
        }
        return -1;
    };
    QTRY_VERIFY_WITH_TIMEOUT(markedRow() >= 0, kDeadlineMs);
    board().rebuild();
    QVERIFY2(boardDifference(board(), run(), run().head()).isEmpty(),
             qPrintable(boardDifference(board(), run(), run().head())));
    for (int r = 0; r < board().rowCount(); ++r) {
        const Lease& l = board().leases()[static_cast<std::size_t>(r)];
        const bool marked = board()
                                .index(r, LeaseBoardModel::Note)
                                .data()
                                .toString()
                                .contains(QStringLiteral("last receive"));
        QCOMPARE(marked, l.receiveCount == 2);
        QCOMPARE(board().index(r, LeaseBoardModel::Receives).data().toString(),
                 QStringLiteral("%1 / 2").arg(l.receiveCount));
        QCOMPARE(board().index(r, LeaseBoardModel::Receives).data(Qt::ForegroundRole).isValid(),
                 marked);
    }
    QVERIFY(window_->leasePanel()->summaryText().contains(QStringLiteral("on its last receive")));
}

// Back at the instant of the first check, the board is the leases then.
void TestLeaseBoard::pastCursorShowsTheLeasesThen() {
    TimeCursor* cursor = window_->timeCursor();
    cursor->moveTo(pastNs_);
    QVERIFY(!cursor->isLive());
    const RunState then = run().stateAt(pastNs_);
    QTRY_VERIFY_WITH_TIMEOUT(boardDifference(board(), run(), then).isEmpty(), kDeadlineMs);
    QVERIFY(board().leases() == leasesAt(run(), then));
    // Ages are measured at the cursor, and stand still while it stays.
    for (int r = 0; r < board().rowCount(); ++r) {
        const Lease& l = board().leases()[static_cast<std::size_t>(r)];
        QCOMPARE(board().index(r, LeaseBoardModel::HeldFor).data(Qt::UserRole).toLongLong(),
                 static_cast<qlonglong>(l.heldNs(pastNs_)));
    }
    // The run goes on; the board stays at t.
    const std::uint64_t events = run().eventCount();
    QTRY_VERIFY_WITH_TIMEOUT(run().eventCount() > events + 5, kDeadlineMs);
    QVERIFY(board().leases() == leasesAt(run(), then));
    cursor->goLive();
}

// Rows leave when their message is settled; the drained run leaves none.
void TestLeaseBoard::rowsLeaveWhenSettled() {
    const std::string held = heldThen_;
    QVERIFY(!held.empty());
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const auto index = run().messageIndex(held);
            return index && isTerminal(run().messageNow(*index).state);
        }(),
        kDeadlineMs);
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (const Row& row : boardRows(board()))
                if (std::get<0>(row) == held)
                    return false;
            return true;
        }(),
        kDeadlineMs);
    QTRY_VERIFY_WITH_TIMEOUT(!window_->scenarioPlayer()->isRunning(), kDeadlineMs);
    QTRY_COMPARE_WITH_TIMEOUT(board().rowCount(), 0, kDeadlineMs);
    QCOMPARE(run().summaryNow().count(MessageState::InFlight), std::uint64_t{0});
    QCOMPARE(window_->leasePanel()->summaryText(), QStringLiteral("Nothing in flight."));
}

// A v1 hand-out's note counts down to the broker taking it back: the
// deadline is the core lease's, and a later reading shows less time left.
void TestLeaseBoard::v1VisibilityCountsDown() {
    const QString scenario = dir_.filePath(QStringLiteral("v1-leases.json"));
    std::ofstream(scenario.toStdString()) << kV1Scenario;
    QString error;
    QVERIFY2(window_->playScenario(scenario, &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(visibleAgainSeconds(board()) > 0, kDeadlineMs);
    const Lease lease = board().leases().front();
    QVERIFY(lease.hasVisibilityTimer());
    // The worker's report plus 30 s (the hand-out is timed by the first report).
    QVERIFY(lease.visibleAgainNs - lease.handedOutNs > 29'000'000'000LL);
    QVERIFY(lease.visibleAgainNs - lease.handedOutNs < 31'000'000'000LL);
    const double first = visibleAgainSeconds(board());
    QVERIFY2(first <= 30.0, qPrintable(QString::number(first)));
    QTRY_VERIFY_WITH_TIMEOUT(visibleAgainSeconds(board()) > 0 &&
                                 visibleAgainSeconds(board()) < first,
                             kDeadlineMs);
    window_->scenarioPlayer()->stop();
    QTRY_VERIFY_WITH_TIMEOUT(!window_->scenarioPlayer()->isRunning(), kDeadlineMs);
}

void TestLeaseBoard::cleanupTestCase() {
    tester_.reset();
    window_.reset();
}

QTEST_MAIN(TestLeaseBoard)
#include "tst_lease_board.moc"
