#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include "event_factory.h"
#include "message_filter_proxy.h"
#include "message_table_model.h"

using namespace qs;
using namespace qs::ui;
using qs::ui::test::ev;
using qs::ui::test::sent;

class TestMessageTableModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void tracksLifecycle();
    void crashReturnsHeldMessages();
    void deadLetteringWinsOverTheLateReject();
    void deadLetteredCopyStaysOnTheTasksRow();
    void proxyFiltersByStateAndWorker();
    void trimsOldRowsAndSummarises();
    void manyChangesGiveOneSignal();
    void distantChangesDoNotCoverTheRowsBetween();
};

void TestMessageTableModel::tracksLifecycle() {
    MessageTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.applyEvents({sent(0, "m1", 1), sent(1, "m2", 2)});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.record(0)->task, 1);
    QVERIFY(model.record(0)->state == MessageState::Waiting);

    model.applyEvents({ev(EventKind::MessageAssigned, 10, "worker-1", "m1", 1, 1),
                       ev(EventKind::Acked, 50, "worker-1", "m1", 1, 1)});
    const MessageRecord* r = model.recordByKey(messageKey("tasks", "m1"));
    QVERIFY(r);
    QVERIFY(r->state == MessageState::Acked);
    QCOMPARE(r->worker, QStringLiteral("worker-1"));
    QCOMPARE(r->acks, 1);
    QCOMPARE(r->latencyNs(), 50'000'000);
    QCOMPARE(model.index(0, MessageTableModel::StateColumn).data().toString(),
             QStringLiteral("acked"));
    QCOMPARE(model.stateCounts()[static_cast<int>(MessageState::Acked)], 1);
    QCOMPARE(model.stateCounts()[static_cast<int>(MessageState::Waiting)], 1);

    // A NAck keeps the identity: same row, receive count grows on the next hand-out.
    model.applyEvents({ev(EventKind::MessageAssigned, 60, "worker-2", "m2", 2, 1),
                       ev(EventKind::Rejected, 70, "worker-2", "m2", 2, 1),
                       ev(EventKind::MessageAssigned, 80, "worker-1", "m2", 3, 2)});
    QCOMPARE(model.rowCount(), 2);
    r = model.recordByKey(messageKey("tasks", "m2"));
    QCOMPARE(r->receiveCount, 2);
    QCOMPARE(r->sequence, 3u);
    QCOMPARE(r->deliveries, 2);
    QVERIFY(r->state == MessageState::InFlight);
}

void TestMessageTableModel::crashReturnsHeldMessages() {
    MessageTableModel model;
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
    model.applyEvents(batch);
    QVERIFY(model.recordByKey(messageKey("tasks", "m1"))->state == MessageState::Acked);
    QVERIFY(model.recordByKey(messageKey("tasks", "m2"))->state == MessageState::Returned);
    QVERIFY(model.recordByKey(messageKey("tasks", "m3"))->state == MessageState::Returned);
    const auto& history = model.recordByKey(messageKey("tasks", "m2"))->history;
    QVERIFY(history.back().kind == EventKind::WorkerCrashed);
}

// The broker's dead-letter event can precede the rejecting worker's event: the
// task must still end dead-lettered, not "rejected, waiting".
void TestMessageTableModel::deadLetteringWinsOverTheLateReject() {
    MessageTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    Event deadLettered = ev(EventKind::BrokerDeadLettered, 20, "worker-1", "p", 1, 2);
    deadLettered.source = EventSource::Broker;
    deadLettered.detail = "tasks.dlq";
    model.applyEvents({sent(0, "p", 1), ev(EventKind::MessageAssigned, 10, "worker-1", "p", 1, 2),
                       deadLettered, ev(EventKind::Rejected, 21, "worker-1", "p", 1, 2)});
    QVERIFY(model.recordByKey(messageKey("tasks", "p"))->state == MessageState::DeadLettered);
    QCOMPARE(model.stateCounts()[static_cast<std::size_t>(MessageState::DeadLettered)], qint64{1});
    QCOMPARE(model.stateCounts()[static_cast<std::size_t>(MessageState::Rejected)], qint64{0});
}

// The broker stores the dead-lettered copy in the dead-letter channel right
// after reporting the dead-lettering. That copy is the same task: one row,
// dead-lettered, naming its channel; nothing waits in the work queue.
void TestMessageTableModel::deadLetteredCopyStaysOnTheTasksRow() {
    MessageTableModel model;
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
    model.applyEvents({sent(0, "p", 1), broker(EventKind::BrokerStored, 1, "tasks", 1),
                       sent(2, "ok", 2), broker(EventKind::BrokerStored, 3, "tasks", 2),
                       ev(EventKind::MessageAssigned, 20, "worker-1", "p", 3, 3), deadLettered,
                       broker(EventKind::BrokerStored, 30, "tasks.dlq", 1),
                       ev(EventKind::Rejected, 31, "worker-1", "p", 3, 3)});
    QCOMPARE(model.rowCount(), 2);
    QVERIFY(!model.recordByKey(messageKey("tasks.dlq", "p")));
    const MessageRecord* r = model.recordByKey(messageKey("tasks", "p"));
    QVERIFY(r);
    QVERIFY(r->state == MessageState::DeadLettered);
    QCOMPARE(r->deadLetterChannel, QStringLiteral("tasks.dlq"));
    QCOMPARE(r->deadLetterSequence, 1u);
    QCOMPARE(r->sequence, 3u);  // the work queue's copy, not the dead-letter one
    QCOMPARE(model.index(model.rowOfKey(r->key), MessageTableModel::StateColumn).data().toString(),
             QStringLiteral("dead-lettered → tasks.dlq"));
    const auto stored = std::find_if(r->history.begin(), r->history.end(), [](const auto& h) {
        return h.kind == EventKind::BrokerStored && h.detail == QStringLiteral("tasks.dlq");
    });
    QVERIFY(stored != r->history.end());
    QVERIFY(describeHistoryEntry(*stored).contains(QStringLiteral("tasks.dlq")));

    const auto all = model.stateCounts();
    QCOMPARE(all[static_cast<std::size_t>(MessageState::Waiting)], qint64{1});  // "ok"
    QCOMPARE(all[static_cast<std::size_t>(MessageState::DeadLettered)], qint64{1});
    const auto work = model.channelStateCounts(QStringLiteral("tasks"));
    QCOMPARE(work[static_cast<std::size_t>(MessageState::Waiting)], qint64{1});
    QCOMPARE(work[static_cast<std::size_t>(MessageState::DeadLettered)], qint64{1});
    const auto dlq = model.channelStateCounts(QStringLiteral("tasks.dlq"));
    QCOMPARE(dlq[static_cast<std::size_t>(MessageState::Waiting)], qint64{0});

    // Dropped (no dead-letter channel): says so, and no copy is expected.
    Event dropped = broker(EventKind::BrokerDeadLettered, 40, "tasks", 2);
    dropped.messageId = "ok";
    model.applyEvents({ev(EventKind::MessageAssigned, 35, "worker-1", "ok", 2, 3), dropped});
    QCOMPARE(model.index(model.rowOfKey(messageKey("tasks", "ok")), MessageTableModel::StateColumn)
                 .data()
                 .toString(),
             QStringLiteral("dropped (max receives)"));
    QCOMPARE(model.channelStateCounts(
                 QStringLiteral("tasks"))[static_cast<std::size_t>(MessageState::Waiting)],
             qint64{0});

    // A store on the dead-letter channel of an unrelated message is a row of its own.
    Event other = broker(EventKind::BrokerStored, 50, "tasks.dlq", 2);
    other.messageId = "q";
    model.applyEvents({other});
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.channelStateCounts(
                 QStringLiteral("tasks.dlq"))[static_cast<std::size_t>(MessageState::Waiting)],
             qint64{1});
}

void TestMessageTableModel::proxyFiltersByStateAndWorker() {
    MessageTableModel model;
    MessageFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.applyEvents({sent(0, "a", 1), sent(0, "b", 2), sent(0, "c", 3),
                       ev(EventKind::MessageAssigned, 5, "worker-1", "a", 1, 1),
                       ev(EventKind::MessageAssigned, 5, "worker-2", "b", 2, 1)});
    proxy.setStateFilter(MessageState::InFlight);
    QCOMPARE(proxy.rowCount(), 2);
    proxy.setWorkerFilter(QStringLiteral("worker-2"));
    QCOMPARE(proxy.rowCount(), 1);
    // A state change re-filters live.
    model.applyEvents({ev(EventKind::Acked, 9, "worker-2", "b", 2, 1)});
    QCOMPARE(proxy.rowCount(), 0);
    proxy.setStateFilter(std::nullopt);
    proxy.setWorkerFilter({});
    QCOMPARE(proxy.rowCount(), 3);
}

void TestMessageTableModel::trimsOldRowsAndSummarises() {
    MessageTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setMaxRows(100);
    std::vector<Event> batch;
    for (int i = 1; i <= 400; ++i) {
        const std::string id = "m" + std::to_string(i);
        batch.push_back(sent(i, id, i));
        batch.push_back(ev(EventKind::MessageAssigned, i + 1, "worker-1", id, i, 1));
        batch.push_back(ev(EventKind::Acked, i + 2, "worker-1", id, i, 1));
        if (batch.size() >= 60) {
            model.applyEvents(batch);
            batch.clear();
        }
    }
    model.applyEvents(batch);
    QVERIFY(model.rowCount() <= 100 + 50);
    QVERIFY(model.trimmedRows() > 0);
    QCOMPARE(model.trimmedRows() + model.rowCount(), 400);
    QCOMPARE(model.stateCounts()[static_cast<int>(MessageState::Acked)], 400);
    QVERIFY(!model.recordByKey(messageKey("tasks", "m1")));
    QVERIFY(model.recordByKey(messageKey("tasks", "m400")));
}

void TestMessageTableModel::manyChangesGiveOneSignal() {
    MessageTableModel model;
    std::vector<Event> batch;
    for (int i = 1; i <= 50; ++i) {
        batch.push_back(sent(i, "m" + std::to_string(i), i));
    }
    model.applyEvents(batch);
    batch.clear();
    for (int i = 1; i <= 50; ++i) {
        batch.push_back(
            ev(EventKind::MessageAssigned, 100, "worker-1", "m" + std::to_string(i), i, 1));
    }
    QSignalSpy spy(&model, &QAbstractItemModel::dataChanged);
    model.applyEvents(batch);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.first().at(0).toModelIndex().row(), 0);
    QCOMPARE(spy.first().at(1).toModelIndex().row(), 49);
}

// An old task touched again must not make one range over every row in between
// (the rows on screen would repaint each frame for nothing).
void TestMessageTableModel::distantChangesDoNotCoverTheRowsBetween() {
    MessageTableModel model;
    std::vector<Event> batch;
    for (int i = 1; i <= 400; ++i) {
        batch.push_back(sent(i, "m" + std::to_string(i), i));
    }
    model.applyEvents(batch);
    batch.clear();
    batch.push_back(ev(EventKind::MessageAssigned, 100, "worker-1", "m1", 1, 1));
    for (int i = 301; i <= 400; ++i) {
        batch.push_back(
            ev(EventKind::MessageAssigned, 100, "worker-2", "m" + std::to_string(i), i, 1));
    }
    QSignalSpy spy(&model, &QAbstractItemModel::dataChanged);
    model.applyEvents(batch);
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy.at(0).at(0).toModelIndex().row(), 0);
    QCOMPARE(spy.at(0).at(1).toModelIndex().row(), 0);
    QCOMPARE(spy.at(1).at(0).toModelIndex().row(), 300);
    QCOMPARE(spy.at(1).at(1).toModelIndex().row(), 399);
}

QTEST_MAIN(TestMessageTableModel)
#include "tst_message_table_model.moc"
