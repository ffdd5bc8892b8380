#include <QAbstractItemModelTester>
#include <QBuffer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <sstream>

#include "controllers/console_run.h"
#include "event_factory.h"
#include "events/event_log_reader.h"
#include "models/event_export.h"
#include "models/event_log_model.h"
#include "panels/event_log_panel.h"

using namespace qs;
using namespace qs::ui;
using qs::ui::test::ev;

class TestEventLogModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void boundedRing();
    void filterScopes();
    void exportCsvQuotes();
    void exportJsonLinesRoundTrips();
    void panelExportsWhatTheFilterShows();
    void exportHasEveryEventOfTheRunNotOnlyTheWindow();
};

void TestEventLogModel::boundedRing() {
    ConsoleRun run;
    EventLogModel model(&run);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCapacity(100);
    for (int chunk = 0; chunk < 5; ++chunk) {
        std::vector<Event> batch;
        for (int i = 0; i < 70; ++i) {
            batch.push_back(
                ev(EventKind::Acked, chunk * 100 + i, "worker-1", std::to_string(chunk * 70 + i)));
        }
        run.append(batch);
    }
    QCOMPARE(model.rowCount(), 100);
    QCOMPARE(model.totalSeen(), 350u);
    QCOMPARE(std::string_view(model.event(99).messageId), std::string_view("349"));
    QCOMPARE(std::string_view(model.event(0).messageId), std::string_view("250"));
    // A batch bigger than the capacity keeps only its newest events.
    std::vector<Event> big;
    for (int i = 0; i < 250; ++i) {
        big.push_back(ev(EventKind::Acked, 1000 + i, "worker-1", "b" + std::to_string(i)));
    }
    run.append(big);
    QCOMPARE(model.rowCount(), 100);
    QCOMPARE(std::string_view(model.event(0).messageId), std::string_view("b150"));
    // Old rows leave in chunks: up to a tenth over the capacity, then back to it.
    for (int i = 0; i < 10; ++i) {
        run.append({ev(EventKind::Acked, 2000 + i, "worker-1", "c" + std::to_string(i))});
    }
    QCOMPARE(model.rowCount(), 110);
    run.append({ev(EventKind::Acked, 3000, "worker-1", "d")});
    QCOMPARE(model.rowCount(), 100);
    QCOMPARE(std::string_view(model.event(99).messageId), std::string_view("d"));
}

void TestEventLogModel::filterScopes() {
    ConsoleRun run;
    EventLogModel model(&run);
    EventLogFilter filter;
    filter.setSourceModel(&model);
    QAbstractItemModelTester tester(&filter,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    Event broker = ev(EventKind::BrokerStored, 0, "", "x");
    broker.source = EventSource::Broker;
    run.append({ev(EventKind::TaskSent, 0, "producer", "x"),
                ev(EventKind::Acked, 1, "worker-1", "x"),
                ev(EventKind::Rejected, 2, "worker-2", "y"), broker});
    filter.setScope(EventLogFilter::Scope::Workers);
    QCOMPARE(filter.rowCount(), 2);
    filter.setScope(EventLogFilter::Scope::Problems);
    QCOMPARE(filter.rowCount(), 1);
    filter.setScope(EventLogFilter::Scope::Broker);
    QCOMPARE(filter.rowCount(), 1);
    filter.setScope(EventLogFilter::Scope::All);
    filter.setFilterFixedString(QStringLiteral("worker-2"));
    QCOMPARE(filter.rowCount(), 1);
}

void TestEventLogModel::exportCsvQuotes() {
    Event e = ev(EventKind::Error, 0, "worker-1", "id,1");
    e.detail = "said \"no\"\nthen left";
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QVERIFY(exportEvents({&e}, ExportFormat::Csv, buffer));
    const QString text = QString::fromUtf8(buffer.data());
    // core's EventLogWriter columns (docs/events.md), so the file reads back with EventLogReader
    QVERIFY2(text.startsWith(QStringLiteral("time_ns,kind,source,actor,channel,message_id")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("\"id,1\"")), qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("\"said \"\"no\"\"\nthen left\"")));
}

void TestEventLogModel::exportJsonLinesRoundTrips() {
    Event a = ev(EventKind::MessageAssigned, 5, "worker-3", "m-1", 42, 2);
    a.transaction = "txn";
    Event b = ev(EventKind::Acked, 6, "worker-3", "m-1", 42, 2);
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QVERIFY(exportEvents({&a, &b}, ExportFormat::JsonLines, buffer));
    const QList<QByteArray> lines = buffer.data().trimmed().split('\n');
    QCOMPARE(lines.size(), 2);
    const QJsonObject o = QJsonDocument::fromJson(lines[0]).object();
    QCOMPARE(o.value(QStringLiteral("kind")).toString(), QStringLiteral("assigned"));
    QCOMPARE(o.value(QStringLiteral("actor")).toString(), QStringLiteral("worker-3"));
    QCOMPARE(o.value(QStringLiteral("sequence")).toInteger(), 42);
    QCOMPARE(o.value(QStringLiteral("receive_count")).toInt(), 2);
    QCOMPARE(o.value(QStringLiteral("transaction")).toString(), QStringLiteral("txn"));
    // Times count from the first exported event.
    QCOMPARE(o.value(QStringLiteral("time_ns")).toInteger(), 0);
    const QJsonObject o2 = QJsonDocument::fromJson(lines[1]).object();
    QCOMPARE(o2.value(QStringLiteral("time_ns")).toInteger(), b.timeNs - a.timeNs);

    // And the core reader takes it back.
    std::istringstream in(buffer.data().toStdString());
    std::vector<Event> back;
    const auto read = readEventsJsonLines(in, back, a.timeNs);
    QVERIFY2(read.ok, read.error.c_str());
    QCOMPARE(back.size(), 2u);
    QVERIFY(back[0].kind == EventKind::MessageAssigned);
    QCOMPARE(std::string_view(back[1].messageId), std::string_view("m-1"));
    QCOMPARE(back[1].timeNs, b.timeNs);
}

void TestEventLogModel::panelExportsWhatTheFilterShows() {
    ConsoleRun run;
    EventLogModel model(&run);
    EventLogPanel panel(&model);
    run.append(
        {ev(EventKind::Acked, 1, "worker-1", "a"), ev(EventKind::Rejected, 2, "worker-2", "b")});
    panel.filter()->setScope(EventLogFilter::Scope::Problems);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("events.csv"));
    QString error;
    QVERIFY2(panel.exportTo(path, &error), qPrintable(error));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 2);  // header + the one rejection
    QVERIFY(lines[1].contains("rejected"));
    // An unwritable path is a clear error, not a crash.
    QVERIFY(!panel.exportTo(dir.filePath(QStringLiteral("missing/dir/x.csv")), &error));
    QVERIFY(!error.isEmpty());
}

// After a long run the table lists a window; an export writes every event of
// the run the filter lets through, and a reset starts the log over.
void TestEventLogModel::exportHasEveryEventOfTheRunNotOnlyTheWindow() {
    ConsoleRun run;
    EventLogModel model(&run);
    EventLogPanel panel(&model);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCapacity(100);
    std::vector<Event> batch;
    for (int i = 0; i < 1000; ++i) {
        batch.push_back(ev(i % 10 == 0 ? EventKind::Rejected : EventKind::Acked, i, "worker-1",
                           "m" + std::to_string(i)));
    }
    run.append(batch);
    QVERIFY(model.rowCount() <= 110);
    QCOMPARE(model.totalSeen(), 1000u);
    QTemporaryDir dir;
    QString error;
    std::uint64_t exported = 0;
    QVERIFY2(panel.exportTo(dir.filePath(QStringLiteral("all.jsonl")), &error, &exported),
             qPrintable(error));
    QCOMPARE(exported, 1000u);
    panel.filter()->setScope(EventLogFilter::Scope::Problems);
    QVERIFY(panel.exportTo(dir.filePath(QStringLiteral("problems.csv")), &error, &exported));
    QCOMPARE(exported, 100u);
    QFile f(dir.filePath(QStringLiteral("problems.csv")));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll().trimmed().split('\n').size(), 101);  // header + 100 rejections
    run.reset();
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.totalSeen(), 0u);
}

QTEST_MAIN(TestEventLogModel)
#include "tst_event_log_model.moc"
