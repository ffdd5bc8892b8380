// The message table as a projection of the console's core Run: every cell
// comes from the run, checked with QAbstractItemModelTester.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include "controllers/console_run.h"
#include "controllers/time_cursor.h"
#include "event_factory.h"
#include "models/message_filter_proxy.h"
#include "models/message_table_model.h"
#include "panels/message_panel.h"
#include "run/run.h"

using namespace qs;
using namespace qs::ui;
using qs::ui::test::ev;
using qs::ui::test::sent;

namespace {
TaskState stateOf(const MessageTableModel& model, const char* id) {
    const auto task = model.taskByKey(messageKey("tasks", id));
    return task ? task->state : TaskState::Count;
}
}  // namespace

class TestMessageTableModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void tracksLifecycle();
    void crashReturnsHeldMessages();
    void deadLetteringWinsOverTheLateReject();
    void deadLetteredCopyStaysOnTheTasksRow();
    void inferredDeadLetterWithoutABroker();
    void proxyFiltersByStateAndWorker();
    void proxySortsByTaskNumber();
    void rowsHeldBackAppearWithoutAnotherAppend();
    void keepsEveryTaskAndItsWholeHistory();
    void aLiveWindowShowsTheNewestTasks();
    void resetEmptiesTheTable();
    void manyChangesGiveOneSignal();
    void distantChangesDoNotCoverTheRowsBetween();
    void taskColumnHoldsSixDigits();
};

void TestMessageTableModel::tracksLifecycle() {
    ConsoleRun run;
    MessageTableModel model(&run);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    run.append({sent(0, "m1", 1), sent(1, "m2", 2)});
    QCOMPARE(model.rowCount(), 2);
    QVERIFY(model.task(0)->state == TaskState::Waiting);
    QCOMPARE(model.task(1)->task, 2);
    run.append({ev(EventKind::MessageAssigned, 5, "worker-1", "m1", 1, 1),
                ev(EventKind::Acked, 8, "worker-1", "m1", 1, 1)});
    const auto t = model.taskByKey(messageKey("tasks", "m1"));
    QVERIFY(t);
    QVERIFY(t->state == TaskState::Acked);
    QCOMPARE(t->worker, QStringLiteral("worker-1"));
    QCOMPARE(t->receiveCount, 1);
    QCOMPARE(t->latencyNs(), 8'000'000);
    QCOMPARE(model.index(0, MessageTableModel::StateColumn).data().toString(),
             QStringLiteral("acked"));
    QCOMPARE(run.run().summaryNow().count(MessageState::Acked), 1u);
    QCOMPARE(run.run().summaryNow().count(MessageState::Waiting), 1u);
    run.append({ev(EventKind::MessageAssigned, 9, "worker-2", "m2", 2, 1)});
    QVERIFY(stateOf(model, "m2") == TaskState::InFlight);
    QVERIFY(model.workers() ==
            QStringList({QStringLiteral("worker-1"), QStringLiteral("worker-2")}));
}

void TestMessageTableModel::crashReturnsHeldMessages() {
    ConsoleRun run;
    MessageTableModel model(&run);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    std::vector<Event> batch;
    for (int i = 1; i <= 3; ++i) {
        batch.push_back(sent(i, "m" + std::to_string(i), i));
        batch.push_back(
            ev(EventKind::MessageAssigned, 10 + i, "worker-1", "m" + std::to_string(i), i, 1));
    }
    batch.push_back(ev(EventKind::Acked, 20, "worker-1", "m1", 1, 1));
    Event crash = ev(EventKind::WorkerCrashed, 30, "worker-1");
    crash.value = 2;
    batch.push_back(crash);
    run.append(batch);
    QVERIFY(stateOf(model, "m1") == TaskState::Acked);
    QVERIFY(stateOf(model, "m2") == TaskState::Returned);
    QVERIFY(stateOf(model, "m3") == TaskState::Returned);
    // The crash names no message, yet it is in the task's history.
    const auto m2 = model.taskByKey(messageKey("tasks", "m2"));
    const auto trail = run.run().messageEvents(m2->index);
    QVERIFY(run.run().event(trail.back()).kind == EventKind::WorkerCrashed);
    QVERIFY(
        describeHistoryEvent(run.run().event(trail.back())).contains(QStringLiteral("crashed")));
}

// The broker's dead-letter event can precede the rejecting worker's event: the
// task must still end dead-lettered, not "rejected, waiting".
void TestMessageTableModel::deadLetteringWinsOverTheLateReject() {
    ConsoleRun run;
    MessageTableModel model(&run);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    Event deadLettered = ev(EventKind::BrokerDeadLettered, 20, "worker-1", "p", 1, 2);
    deadLettered.source = EventSource::Broker;
    deadLettered.detail = "tasks.dlq";
    run.append({sent(0, "p", 1), ev(EventKind::MessageAssigned, 10, "worker-1", "p", 1, 2),
                deadLettered, ev(EventKind::Rejected, 21, "worker-1", "p", 1, 2)});
    QVERIFY(stateOf(model, "p") == TaskState::DeadLettered);
    QCOMPARE(run.run().summaryNow().count(MessageState::DeadLettered), 1u);
    QCOMPARE(run.run().summaryNow().count(MessageState::Waiting), 0u);
}

// The broker stores the dead-lettered copy in the dead-letter channel right
// after reporting the dead-lettering. That copy is the same task: one row,
// dead-lettered, naming its channel; nothing waits in the work queue.
void TestMessageTableModel::deadLetteredCopyStaysOnTheTasksRow() {
    ConsoleRun run;
    MessageTableModel model(&run);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto broker = [](EventKind kind, std::int64_t tMs, const std::string& channel,
                     std::uint64_t seq) {
        Event e = ev(kind, tMs, "worker-1", "p", seq, 3);
        e.source = EventSource::Broker;
        e.channel = channel;
        return e;
    };
    Event deadLettered = broker(EventKind::BrokerDeadLettered, 30, "tasks", 3);
    deadLettered.detail = "tasks.dlq";
    run.append({sent(0, "p", 1), broker(EventKind::BrokerStored, 1, "tasks", 1), sent(2, "ok", 2),
                broker(EventKind::BrokerStored, 3, "tasks", 2),
                ev(EventKind::MessageAssigned, 20, "worker-1", "p", 3, 3), deadLettered,
                broker(EventKind::BrokerStored, 30, "tasks.dlq", 1),
                ev(EventKind::Rejected, 31, "worker-1", "p", 3, 3)});
    QCOMPARE(model.rowCount(), 2);
    // Its key stays the one of the channel it was sent to.
    QCOMPARE(model.rowOfKey(messageKey("tasks", "p")), 0);
    const auto t = model.taskByKey(messageKey("tasks", "p"));
    QVERIFY(t);
    QCOMPARE(t->key, messageKey("tasks", "p"));
    QVERIFY(t->state == TaskState::DeadLettered);
    QCOMPARE(t->deadLetterChannel, QStringLiteral("tasks.dlq"));
    QCOMPARE(model.index(0, MessageTableModel::StateColumn).data().toString(),
             QStringLiteral("dead-lettered → tasks.dlq"));
    QCOMPARE(model.longestDeadLetterChannel(), QStringLiteral("tasks.dlq"));
    bool storedInDlq = false;
    for (const std::uint32_t i : run.run().messageEvents(t->index)) {
        const Event& e = run.run().event(i);
        storedInDlq |=
            e.kind == EventKind::BrokerStored && e.channel == std::string_view("tasks.dlq");
    }
    QVERIFY(storedInDlq);

    const Run& r = run.run();
    QCOMPARE(r.summaryNow().count(MessageState::Waiting), 1u);  // "ok"
    QCOMPARE(r.summaryNow().count(MessageState::DeadLettered), 1u);
    QCOMPARE(r.channelNow("tasks")->count(MessageState::Waiting), 1u);
    QCOMPARE(r.channelNow("tasks.dlq")->count(MessageState::Waiting), 0u);

    // Dropped (no dead-letter channel): says so.
    Event dropped = broker(EventKind::BrokerDeadLettered, 40, "tasks", 2);
    dropped.messageId = "ok";
    run.append({ev(EventKind::MessageAssigned, 35, "worker-1", "ok", 2, 3), dropped});
    QCOMPARE(model.index(model.rowOfKey(messageKey("tasks", "ok")), MessageTableModel::StateColumn)
                 .data()
                 .toString(),
             QStringLiteral("dropped (max receives)"));
    QCOMPARE(r.channelNow("tasks")->count(MessageState::Waiting), 0u);
}

// Against a real server no broker reports the dead-lettering: the run's
// MaxReceiveCount lets the ledger see it, and the table says so (not
// "rejected → waiting" for ever).
void TestMessageTableModel::inferredDeadLetterWithoutABroker() {
    ConsoleRun run;
    LedgerOptions options;
    options.maxReceiveCount = 2;
    run.reset(options);
    MessageTableModel model(&run);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    run.append({sent(0, "p", 1), ev(EventKind::MessageAssigned, 1, "worker-1", "p", 1, 1),
                ev(EventKind::Rejected, 2, "worker-1", "p", 1, 1)});
    QVERIFY(stateOf(model, "p") == TaskState::Rejected);
    run.append({ev(EventKind::MessageAssigned, 3, "worker-2", "p", 2, 2),
                ev(EventKind::Rejected, 4, "worker-2", "p", 2, 2)});
    QVERIFY(stateOf(model, "p") == TaskState::DeadLettered);
    QCOMPARE(run.run().summaryNow().count(MessageState::Waiting), 0u);
    QCOMPARE(model.index(0, MessageTableModel::StateColumn).data().toString(),
             QStringLiteral("dead-lettered (max receives)"));
}

void TestMessageTableModel::proxyFiltersByStateAndWorker() {
    ConsoleRun run;
    MessageTableModel model(&run);
    MessageFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    run.append({sent(0, "a", 1), sent(0, "b", 2), sent(0, "c", 3),
                ev(EventKind::MessageAssigned, 5, "worker-1", "a", 1, 1),
                ev(EventKind::MessageAssigned, 5, "worker-2", "b", 2, 1)});
    proxy.setStateFilter(TaskState::InFlight);
    QCOMPARE(proxy.rowCount(), 2);
    proxy.setWorkerFilter(QStringLiteral("worker-2"));
    QCOMPARE(proxy.rowCount(), 1);
    // A state change re-filters live.
    run.append({ev(EventKind::Acked, 9, "worker-2", "b", 2, 1)});
    QCOMPARE(proxy.rowCount(), 0);
    proxy.setStateFilter(std::nullopt);
    proxy.setWorkerFilter({});
    QCOMPARE(proxy.rowCount(), 3);
}

// With a commit interval, new tasks become rows at most that often; those
// held back still become rows when no append follows (the run went quiet),
// and taskByKey() knows them before.
void TestMessageTableModel::rowsHeldBackAppearWithoutAnotherAppend() {
    ConsoleRun run;
    MessageTableModel model(&run);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCommitIntervalMs(100);
    run.append({sent(0, "a", 1)});
    QCOMPARE(model.rowCount(), 1);  // the first commit is not held back
    run.append({sent(1, "b", 2), sent(1, "c", 3)});
    QCOMPARE(model.rowCount(), 1);
    QVERIFY(model.taskByKey(messageKey("tasks", "c")).has_value());
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 3, 10000);
}

// The task column sorts by task number (the source row + 1, compared
// without data()), both ways, rows added later placed in order too; another
// column still sorts by its data.
void TestMessageTableModel::proxySortsByTaskNumber() {
    ConsoleRun run;
    MessageTableModel model(&run);
    MessageFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    run.append({sent(0, "a", 1), sent(0, "b", 2), sent(0, "c", 3)});
    model.commitPendingRows();
    const auto taskAt = [&proxy](int row) {
        return proxy.index(row, MessageTableModel::TaskColumn)
            .data(MessageTableModel::SortRole)
            .toInt();
    };
    proxy.sort(MessageTableModel::TaskColumn, Qt::DescendingOrder);
    run.append({sent(1, "d", 4), sent(1, "e", 5)});
    model.commitPendingRows();
    QCOMPARE(proxy.rowCount(), 5);
    for (int row = 0; row < 5; ++row) {
        QCOMPARE(taskAt(row), 5 - row);
    }
    proxy.sort(MessageTableModel::TaskColumn, Qt::AscendingOrder);
    for (int row = 0; row < 5; ++row) {
        QCOMPARE(taskAt(row), row + 1);
    }
    run.append({ev(EventKind::MessageAssigned, 2, "worker-1", "c", 9, 1)});
    proxy.sort(MessageTableModel::SequenceColumn, Qt::DescendingOrder);
    QCOMPARE(taskAt(0), 3);
    // By task ascending is the source's order: kept as such (no comparisons
    // for the rows a move of the time cursor inserts), new rows at the end.
    proxy.sort(MessageTableModel::TaskColumn, Qt::AscendingOrder);
    QCOMPARE(proxy.sortColumn(), -1);
    run.append({sent(3, "f", 6), sent(3, "g", 7)});
    model.commitPendingRows();
    QCOMPARE(proxy.rowCount(), 7);
    for (int row = 0; row < 7; ++row) {
        QCOMPARE(taskAt(row), row + 1);
    }
}

// Nothing is trimmed: every task is a row, and the first task's history is
// whole however many tasks came after it.
void TestMessageTableModel::keepsEveryTaskAndItsWholeHistory() {
    ConsoleRun run;
    MessageTableModel model(&run);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    std::vector<Event> batch;
    for (int i = 1; i <= 3000; ++i) {
        const std::string id = "m" + std::to_string(i);
        batch.push_back(sent(i, id, i));
        batch.push_back(ev(EventKind::MessageAssigned, i + 1, "worker-1", id, i, 1));
        batch.push_back(ev(EventKind::Acked, i + 2, "worker-1", id, i, 1));
        if (batch.size() >= 600) {
            run.append(batch);
            batch.clear();
        }
    }
    run.append(batch);
    QCOMPARE(model.rowCount(), 3000);
    QCOMPARE(run.run().summaryNow().count(MessageState::Acked), 3000u);
    const auto first = model.taskByKey(messageKey("tasks", "m1"));
    QVERIFY(first);
    QCOMPARE(run.run().messageEvents(first->index).size(), 3u);
}

// While live the rows are the newest tasks (trimmed an eighth over the
// window); at a fixed time every task seen by then is a row again; back to
// live, the window again. The watched task keeps its signal when out of it.
void TestMessageTableModel::aLiveWindowShowsTheNewestTasks() {
    ConsoleRun run;
    TimeCursor cursor(&run);
    MessageTableModel model(&run);
    model.setCursor(&cursor);
    model.setLiveWindow(16);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    MessageFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester proxyTester(&proxy,
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setWatchedKey(messageKey("tasks", "m1"));
    QSignalSpy watched(&model, &MessageTableModel::watchedTaskChanged);
    for (int i = 1; i <= 50; ++i) {
        const std::string id = "m" + std::to_string(i);
        run.append({sent(i * 10, id, i),
                    ev(EventKind::MessageAssigned, i * 10 + 1, "worker-1", id, i, 1)});
        QVERIFY(model.rowCount() <= 18);
    }
    QVERIFY(model.rowCount() >= 16);
    QCOMPARE(model.rowCount() + model.tasksBeforeFirstRow(), 50);
    QCOMPARE(proxy.rowCount(), model.rowCount());
    QCOMPARE(model.task(model.rowCount() - 1)->task, 50);
    QCOMPARE(model.task(0)->task, 51 - model.rowCount());
    QCOMPARE(model.data(model.index(0, MessageTableModel::TaskColumn)).toString(),
             QString::number(51 - model.rowCount()));
    QCOMPARE(model.rowOfKey(messageKey("tasks", "m1")), -1);
    QCOMPARE(model.rowOfKey(messageKey("tasks", "m50")), model.rowCount() - 1);
    QVERIFY(model.taskByKey(messageKey("tasks", "m1")));  // still a task of the run
    watched.clear();
    run.append({ev(EventKind::Acked, 600, "worker-1", "m1", 1, 1)});
    QCOMPARE(watched.count(), 1);
    // A fixed time: every task seen by then.
    cursor.moveTo(run.run().streamTimeNs(0) + 295'000'000);  // the first 30 tasks sent
    QCOMPARE(model.tasksBeforeFirstRow(), 0);
    QCOMPARE(model.rowCount(), 30);
    QCOMPARE(model.task(0)->task, 1);
    cursor.goLive();
    QCOMPARE(model.rowCount(), 16);
    QCOMPARE(model.tasksBeforeFirstRow(), 34);
    QCOMPARE(model.task(15)->task, 50);
    cursor.moveTo(run.run().streamTimeNs(run.run().eventCount() - 1));  // every task
    QCOMPARE(model.rowCount(), 50);
    cursor.goLive();
    QCOMPARE(model.rowCount(), 16);
}

void TestMessageTableModel::resetEmptiesTheTable() {
    ConsoleRun run;
    MessageTableModel model(&run);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    run.append({sent(0, "a", 1), sent(0, "b", 2)});
    QCOMPARE(model.rowCount(), 2);
    run.reset();
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(!model.taskByKey(messageKey("tasks", "a")));
    run.append({sent(0, "c", 1)});
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.task(0)->task, 1);
}

void TestMessageTableModel::manyChangesGiveOneSignal() {
    ConsoleRun run;
    MessageTableModel model(&run);
    std::vector<Event> batch;
    for (int i = 1; i <= 50; ++i) {
        batch.push_back(sent(i, "m" + std::to_string(i), i));
    }
    run.append(batch);
    batch.clear();
    for (int i = 1; i <= 50; ++i) {
        batch.push_back(
            ev(EventKind::MessageAssigned, 100, "worker-1", "m" + std::to_string(i), i, 1));
    }
    QSignalSpy spy(&model, &QAbstractItemModel::dataChanged);
    run.append(batch);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.first().at(0).toModelIndex().row(), 0);
    QCOMPARE(spy.first().at(1).toModelIndex().row(), 49);
}

// An old task touched again must not make one range over every row in between
// (the rows on screen would repaint each frame for nothing).
void TestMessageTableModel::distantChangesDoNotCoverTheRowsBetween() {
    ConsoleRun run;
    MessageTableModel model(&run);
    std::vector<Event> batch;
    for (int i = 1; i <= 400; ++i) {
        batch.push_back(sent(i, "m" + std::to_string(i), i));
    }
    run.append(batch);
    batch.clear();
    batch.push_back(ev(EventKind::MessageAssigned, 100, "worker-1", "m1", 1, 1));
    for (int i = 301; i <= 400; ++i) {
        batch.push_back(
            ev(EventKind::MessageAssigned, 100, "worker-2", "m" + std::to_string(i), i, 1));
    }
    QSignalSpy spy(&model, &QAbstractItemModel::dataChanged);
    run.append(batch);
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy.at(0).at(0).toModelIndex().row(), 0);
    QCOMPARE(spy.at(0).at(1).toModelIndex().row(), 0);
    QCOMPARE(spy.at(1).at(0).toModelIndex().row(), 300);
    QCOMPARE(spy.at(1).at(1).toModelIndex().row(), 399);
}

// The Task column read "100…" for task 100000 (#17 item 4).
void TestMessageTableModel::taskColumnHoldsSixDigits() {
    ConsoleRun run;
    MessageTableModel model(&run);
    MessagePanel panel(&model);
    panel.resize(1280, 300);
    panel.show();
    QTableView* view = panel.findChild<QTableView*>();
    QVERIFY(view);
    const int needed = view->fontMetrics().horizontalAdvance(QStringLiteral("1000000")) + 8;
    QVERIFY2(view->columnWidth(MessageTableModel::TaskColumn) >= needed,
             qPrintable(QString::number(view->columnWidth(MessageTableModel::TaskColumn))));
    QVERIFY(view->columnWidth(MessageTableModel::SequenceColumn) >= needed);
}

QTEST_MAIN(TestMessageTableModel)
#include "tst_message_table_model.moc"
