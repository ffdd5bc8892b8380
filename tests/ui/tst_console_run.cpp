// The console's Run spills its old detail into the cache folder's nameless
// file; a folder that cannot be made is told once per run, in plain words,
// and the run keeps everything in RAM (no event lost).
#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QTest>
#include <vector>

#include "controllers/console_run.h"
#include "event_factory.h"
#include "run/run.h"

using namespace qs;
using namespace qs::ui;
using qs::ui::test::ev;
using qs::ui::test::sent;

namespace {

// 20,000 tasks sent, handed out and acked: 60,000 events, past the chunks a
// run keeps in RAM.
std::vector<Event> busyBatch() {
    std::vector<Event> batch;
    for (int i = 0; i < 20000; ++i) {
        const std::string id = "t" + std::to_string(i);
        batch.push_back(sent(i, id, i + 1));
        batch.push_back(ev(EventKind::MessageAssigned, i, "worker-1", id, i + 1, 1));
        batch.push_back(ev(EventKind::Acked, i, "worker-1", id, i + 1, 1));
    }
    return batch;
}

QStringList entriesOf(const QString& folder) {
    return QDir(folder).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
}

}  // namespace

class TestConsoleRun : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theRunSpillsIntoItsFolder() {
        QTemporaryDir dir;
        ConsoleRun run(dir.path(), nullptr);
        QSignalSpy problems(&run, &ConsoleRun::spillProblemFound);
        run.append(busyBatch());
        QVERIFY(run.run().memory().spilled > 0);
        QCOMPARE(run.run().spillProblem(), std::string());
        QCOMPARE(problems.count(), 0);
        QCOMPARE(entriesOf(dir.path()), QStringList());  // the file has no name
        QCOMPARE(run.run().summaryNow().count(MessageState::Acked), std::uint64_t{20000});
    }

    void aFolderThatCannotBeMadeIsToldOncePerRun() {
        QTemporaryFile file;  // a folder cannot be made under a file
        QVERIFY(file.open());
        const QString folder = file.fileName() + QStringLiteral("/cache");
        ConsoleRun run(folder, nullptr);
        QSignalSpy problems(&run, &ConsoleRun::spillProblemFound);
        const std::vector<Event> batch = busyBatch();
        run.append(batch);
        QCOMPARE(problems.count(), 1);
        const QString why = problems.at(0).at(0).toString();
        QVERIFY2(why.startsWith(QStringLiteral("the run keeps its old events in RAM: ")) &&
                     why.contains(folder),
                 qPrintable(why));
        QCOMPARE(run.run().memory().spilled, std::uint64_t{0});
        QCOMPARE(run.run().eventCount(), std::uint64_t{batch.size()});
        run.append({ev(EventKind::PollStarted, 30000, "worker-1")});
        QCOMPARE(problems.count(), 1);
        run.reset();  // a new run: told again
        run.append({ev(EventKind::PollStarted, 30001, "worker-1")});
        QCOMPARE(problems.count(), 2);
    }

    void withoutAFolderEverythingStaysInRam() {
        ConsoleRun run(QString(), nullptr);
        QSignalSpy problems(&run, &ConsoleRun::spillProblemFound);
        run.append(busyBatch());
        QCOMPARE(run.run().memory().spilled, std::uint64_t{0});
        QCOMPARE(problems.count(), 0);
    }
};

QTEST_MAIN(TestConsoleRun)
#include "tst_console_run.moc"
