#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include "models/channel_list_model.h"

using namespace qs;
using namespace qs::ui;

class TestChannelListModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void listsAndUpdatesInPlace();
    void marksAndLinksDeadLetters();
    void ratesFromTheHistory();
    void clientsAsTheServerReports();
};

namespace {
client::QueueChannelInfo channel(const std::string& name, std::int64_t waiting, std::int64_t sent) {
    client::QueueChannelInfo c;
    c.name = name;
    c.incoming.messages = sent;
    c.incoming.waiting = waiting;
    c.outgoing.waiting = waiting;
    return c;
}
}  // namespace

void TestChannelListModel::listsAndUpdatesInPlace() {
    ChannelListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setChannels({channel("b", 1, 2), channel("a", 3, 4)});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, ChannelListModel::NameColumn).data().toString(), QStringLiteral("a"));
    QCOMPARE(model.index(0, ChannelListModel::WaitingColumn).data().toLongLong(), 3);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.setChannels({channel("a", 0, 9), channel("b", 1, 2)});
    QCOMPARE(reset.count(), 0);  // same channels: updated in place
    QCOMPARE(model.index(0, ChannelListModel::SentColumn).data().toLongLong(), 9);
    model.setChannels({channel("a", 0, 9)});
    QCOMPARE(reset.count(), 1);
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.index(0, ChannelListModel::AckedColumn).data().toString(), QStringLiteral("–"));
    model.setConsoleCounts([](const QString& name) -> std::optional<ConsoleChannelCounts> {
        if (name == QStringLiteral("a")) {
            return ConsoleChannelCounts{2, 7, 1};
        }
        return std::nullopt;
    });
    QCOMPARE(model.index(0, ChannelListModel::AckedColumn).data().toLongLong(), 7);
    QCOMPARE(model.index(0, ChannelListModel::InFlightColumn).data().toLongLong(), 2);
}

void TestChannelListModel::marksAndLinksDeadLetters() {
    ChannelListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setChannels(
        {channel("orders", 0, 10), channel("orders.dlq", 2, 2), channel("failed", 1, 1)});
    QVERIFY(model.isDeadLetter(QStringLiteral("orders.dlq")));
    QCOMPARE(model.sourceOf(QStringLiteral("orders.dlq")), QStringLiteral("orders"));
    QCOMPARE(model.deadLetterOf(QStringLiteral("orders")), QStringLiteral("orders.dlq"));
    const int orders = model.rowOf(QStringLiteral("orders"));
    QCOMPARE(model.index(orders, ChannelListModel::DeadLetteredColumn).data().toLongLong(), 2);
    // A DLQ known from a policy, whatever its name.
    QVERIFY(!model.isDeadLetter(QStringLiteral("failed")));
    model.noteDeadLetter(QStringLiteral("failed"), QStringLiteral("orders"));
    QVERIFY(model.isDeadLetter(QStringLiteral("failed")));
    const int failed = model.rowOf(QStringLiteral("failed"));
    QCOMPARE(model.index(failed, 0).data(ChannelListModel::LinkedChannelRole).toString(),
             QStringLiteral("orders"));
    QVERIFY(model.index(failed, ChannelListModel::NameColumn)
                .data()
                .toString()
                .contains(QStringLiteral("⚑")));
    // The max receive count the last send used is kept for a redrive to
    // restore; a peek (not told) keeps it, a send with the server's default
    // (0) leaves nothing to restore.
    QCOMPARE(model.sentMaxReceiveCount(QStringLiteral("failed")), 0);
    model.noteDeadLetter(QStringLiteral("failed"), QStringLiteral("orders"), 4);
    QCOMPARE(model.sentMaxReceiveCount(QStringLiteral("failed")), 4);
    model.noteDeadLetter(QStringLiteral("failed"), QStringLiteral("orders"));
    QCOMPARE(model.sentMaxReceiveCount(QStringLiteral("failed")), 4);
    model.noteDeadLetter(QStringLiteral("failed"), QStringLiteral("orders"), 0);
    QCOMPARE(model.sentMaxReceiveCount(QStringLiteral("failed")), 0);
    QCOMPARE(model.sentMaxReceiveCount(QStringLiteral("orders.dlq")), 0);
}

// The rate columns are the history's latest interval: "–" until a second poll.
void TestChannelListModel::ratesFromTheHistory() {
    ChannelListModel model;
    client::ChannelHistory history;
    model.setHistory(&history);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const std::vector<client::QueueChannelInfo> first{channel("a", 0, 100)};
    history.record(1'000'000'000, first);
    model.setChannels(first);
    QCOMPARE(model.index(0, ChannelListModel::SentRateColumn).data().toString(),
             QStringLiteral("–"));
    std::vector<client::QueueChannelInfo> second{channel("a", 0, 200)};
    second[0].outgoing.messages = 50;
    history.record(3'000'000'000, second);
    model.setChannels(second);
    QCOMPARE(model.index(0, ChannelListModel::SentRateColumn).data().toString(),
             QStringLiteral("50.0"));
    QCOMPARE(model.index(0, ChannelListModel::DeliveredRateColumn).data().toString(),
             QStringLiteral("25.0"));
    QCOMPARE(model.index(0, ChannelListModel::SentRateColumn).data(ChannelListModel::SortRole)
                 .toDouble(),
             50.0);
}

// Clients: the server's count of consumers polling, "–" when it reports none.
void TestChannelListModel::clientsAsTheServerReports() {
    ChannelListModel model;
    std::vector<client::QueueChannelInfo> rows{channel("a", 0, 1), channel("b", 0, 1)};
    rows[0].clients = 3;
    model.setChannels(rows);
    QCOMPARE(model.index(0, ChannelListModel::ClientsColumn).data().toLongLong(), 3);
    QCOMPARE(model.index(1, ChannelListModel::ClientsColumn).data().toString(),
             QStringLiteral("–"));
    QCOMPARE(model.headerData(ChannelListModel::ClientsColumn, Qt::Horizontal, Qt::DisplayRole)
                 .toString(),
             QStringLiteral("Clients"));
}

QTEST_MAIN(TestChannelListModel)
#include "tst_channel_list_model.moc"
