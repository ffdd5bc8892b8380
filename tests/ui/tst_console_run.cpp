// The console's Run spills its old detail into the cache folder's nameless
// file; a folder that cannot be made is told once per run, in plain words,
// and the run keeps everything in RAM (no event lost).
#include <QDir>
#include <QEventLoop>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QTest>
#include <QThread>
#include <QTimer>
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

    // Live: a frame's batch waits until the UI thread sleeps, goes in on the
    // ingest thread, and the views hear of it at the next frame - the same
    // run, the same messages touched, as appended here.
    void liveBatchesGoInOnTheIngestThread() {
        ConsoleRun live(QString(), nullptr);
        ConsoleRun here(QString(), nullptr);
        QSignalSpy told(&live, &ConsoleRun::appended);
        const std::vector<Event> batch = busyBatch();
        live.appendLive(batch);
        QCOMPARE(told.count(), 0);
        live.sleepsNow();
        QCOMPARE(live.handedOver(), std::uint64_t{1});
        live.tellViews();  // the next frame
        QCOMPARE(told.count(), 1);
        QVERIFY(!live.ingesting());
        here.append(batch);
        QCOMPARE(live.run().eventCount(), here.run().eventCount());
        QCOMPARE(live.touchedByLastAppend(), here.touchedByLastAppend());
        QCOMPARE(live.touchedByLastAppend().size(), std::size_t{20000});
        QCOMPARE(live.run().summaryNow().count(MessageState::Acked), std::uint64_t{20000});
        live.tellViews();  // nothing new: nothing told
        QCOMPARE(told.count(), 1);
    }

    // A follower (the live timeline and charts) sees the run after every
    // append where it was appended: on the ingest thread, lent with the run,
    // or here; never while the UI thread reads.
    void theFollowerFollowsWhereTheRunIsAppended() {
        ConsoleRun live(QString(), nullptr);
        std::vector<std::uint64_t> seen;  // lent with the run: read only once it is back
        std::vector<bool> onUiThread;
        live.setFollower([&](const Run& r) {
            seen.push_back(r.eventCount());
            onUiThread.push_back(QThread::currentThread() == qApp->thread());
        });
        live.appendLive(busyBatch());
        live.sleepsNow();
        live.tellViews();
        live.append({ev(EventKind::PollStarted, 30000, "worker-1")});
        QCOMPARE(seen, (std::vector<std::uint64_t>{60000, 60001}));
        QCOMPARE(onUiThread, (std::vector<bool>{false, true}));
        live.setFollower({});
        live.append({ev(EventKind::PollStarted, 30001, "worker-1")});
        QCOMPARE(seen.size(), std::size_t{2});
    }

    // No object of the UI thread gets an event while the ingest thread has the
    // run: the event filter takes it back first.
    void anyEventTakesTheRunBack() {
        ConsoleRun live(QString(), nullptr);
        live.appendLive(busyBatch());
        live.sleepsNow();
        QVERIFY(live.ingesting());
        QObject bystander;
        QEvent poke(QEvent::User);
        QCoreApplication::sendEvent(&bystander, &poke);
        QVERIFY(!live.ingesting());
        QCOMPARE(live.run().eventCount(), std::uint64_t{60000});
    }

    // The event loop hands the run over when it is about to block with
    // nothing left to do; from a nested loop (a dialog) it never does, and the
    // batch goes in on the UI thread a frame later.
    void theTopEventLoopHandsTheRunOverWhenIdle() {
        ConsoleRun live(QString(), nullptr);
        QSignalSpy told(&live, &ConsoleRun::appended);
        live.appendLive(busyBatch());
        QEventLoop top;  // as the console's (QTest's waits never block: no aboutToBlock)
        QTimer check;
        connect(&check, &QTimer::timeout, &top, [&] {
            if (live.handedOver() == 1) {
                top.quit();
            }
        });
        check.start(10);
        QTimer::singleShot(30000, &top, &QEventLoop::quit);
        top.exec();
        QCOMPARE(live.handedOver(), std::uint64_t{1});
        live.tellViews();
        QCOMPARE(told.count(), 1);

        bool handedOverInDialog = true;
        qsizetype toldAtThatTick = -1;
        QEventLoop top2;
        QTimer::singleShot(0, &top2, [&] {
            QEventLoop dialog;  // nested: a modal dialog's loop
            QTimer::singleShot(0, &dialog, [&] {
                live.appendLive({ev(EventKind::PollStarted, 30000, "worker-1")});
            });
            QTimer::singleShot(200, &dialog, [&] {  // 200 ms of its idle iterations
                live.sleepsNow();
                handedOverInDialog = live.handedOver() != 1;
                dialog.quit();
            });
            dialog.exec();
            live.tellViews();  // the tick of the frame the batch came in
            toldAtThatTick = told.count();
            live.tellViews();  // the next frame: in, here
            top2.quit();
        });
        top2.exec();
        QVERIFY(!handedOverInDialog);
        QCOMPARE(toldAtThatTick, 1);
        QCOMPARE(told.count(), 2);
        QCOMPARE(live.run().eventCount(), std::uint64_t{60001});
        QCOMPARE(live.handedOver(), std::uint64_t{1});
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
