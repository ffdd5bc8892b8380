// Opening a recording off the UI thread (docs/ui.md, "Time travel"): a large
// recording is read on a thread of its own and shown in slices while the
// event loop keeps turning (a 10 ms timer keeps firing, progress is
// reported), and the console ends exactly as the synchronous load leaves it;
// a second open while one is under way replaces it (only the latest is
// shown); Stop cancels the read and changes nothing; a corrupt file is
// refused in a dialog and the recording shown stays.
#include <sqlite3.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QMessageBox>
#include <QProgressBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <algorithm>
#include <memory>

#include "controllers/console_run.h"
#include "controllers/recording_loader.h"
#include "controllers/time_cursor.h"
#include "main_window.h"
#include "models/charts_at_cursor.h"
#include "models/charts_model.h"
#include "models/message_table_model.h"
#include "models/timeline_at_cursor.h"
#include "models/timeline_model.h"
#include "recording/recording_reader.h"
#include "recording_factory.h"
#include "run/run.h"
#include "runner/run_recording.h"

using namespace qs;
using namespace qs::ui;

namespace {

constexpr int kDeadlineMs = 90000;
constexpr int kLargeTasks = 60000;  // 180,000 events, ten minutes of run time

std::unique_ptr<MainWindow> newWindow() {
    MainWindowOptions options;
    options.autoConnect = false;
    options.useSettings = false;
    options.recordRuns = false;
    auto window = std::make_unique<MainWindow>(options);
    window->resize(1280, 800);
    window->show();
    return window;
}

// What the views were given, compared between two windows.
QString difference(const MainWindow& a, const MainWindow& b) {
    const Run& ra = a.consoleRun()->run();
    const Run& rb = b.consoleRun()->run();
    if (ra.eventCount() != rb.eventCount()) {
        return QStringLiteral("events %1 / %2").arg(ra.eventCount()).arg(rb.eventCount());
    }
    if (!(ra.head().messages == rb.head().messages) || !(ra.head().workers == rb.head().workers)) {
        return QStringLiteral("the run's state at its head");
    }
    if (a.messages()->rowCount() != b.messages()->rowCount()) {
        return QStringLiteral("message rows");
    }
    const TimelineModel& ta = a.timelineModel();
    const TimelineModel& tb = b.timelineModel();
    if (ta.lanes().size() != tb.lanes().size() || ta.barCount() != tb.barCount() ||
        ta.lastTimeNs() != tb.lastTimeNs()) {
        return QStringLiteral("timeline");
    }
    const auto& ca = a.chartsModel().buckets();
    const auto& cb = b.chartsModel().buckets();
    if (ca.size() != cb.size()) {
        return QStringLiteral("chart seconds %1 / %2").arg(ca.size()).arg(cb.size());
    }
    for (std::size_t i = 0; i < ca.size(); ++i) {
        if (ca[i].second != cb[i].second || ca[i].sent != cb[i].sent ||
            ca[i].acked != cb[i].acked || ca[i].waiting != cb[i].waiting ||
            ca[i].inFlight != cb[i].inFlight) {
            return QStringLiteral("chart second %1").arg(ca[i].second);
        }
    }
    if (a.chartsModel().ackedPerWorker() != b.chartsModel().ackedPerWorker()) {
        return QStringLiteral("acked per worker");
    }
    if (a.timeCursor()->headNs() != b.timeCursor()->headNs() || !a.timeCursor()->isLive()) {
        return QStringLiteral("time cursor");
    }
    if (a.recordingPath() != b.recordingPath() || a.windowTitle() != b.windowTitle()) {
        return QStringLiteral("path or title");
    }
    return {};
}

// The bars of a timeline still open or ending at or after `fromNs`, lane by
// lane: worker, message, start, end, outcome.
QStringList barsOf(const TimelineModel& model, std::int64_t fromNs) {
    QStringList out;
    for (const TimelineLane& lane : model.lanes()) {
        for (const TimelineBar& b : lane.bars) {
            if (b.endNs == 0 || b.endNs >= fromNs) {
                out << QStringLiteral("%1 %2 %3 %4 %5")
                           .arg(lane.worker, model.keyOf(b))
                           .arg(b.startNs)
                           .arg(b.endNs)
                           .arg(static_cast<int>(b.outcome));
            }
        }
    }
    return out;
}

}  // namespace

class TestRecordingOpen : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void loadsWhileTheWindowAnswers();
    void aSecondOpenReplacesTheFirst();
    void anOpenDuringTheFeedReplacesIt();
    void stopChangesNothing();
    void aCorruptFileIsRefusedAndChangesNothing();
    void theLoaderReadsWhatTheReplayApplies();
    void theCursorsCheckpointsAreTakenWhileOpening();
    void damageOnlyTheIntegrityCheckFindsIsRefused();

private:
    QTemporaryDir dir_;
    QString large_;
    QString small_;
    std::unique_ptr<MainWindow> window_;
};

void TestRecordingOpen::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    std::string error;
    large_ = dir_.filePath(QStringLiteral("large.qsrun"));
    QVERIFY2(test::writePlannedRun(large_, test::roundRobin(kLargeTasks, 4), "large", &error),
             error.c_str());
    small_ = dir_.filePath(QStringLiteral("small.qsrun"));
    QVERIFY2(test::writePlannedRun(small_, test::roundRobin(12, 3), "small", &error),
             error.c_str());
}

void TestRecordingOpen::init() {
    window_ = newWindow();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
}

void TestRecordingOpen::cleanup() {
    window_.reset();
}

void TestRecordingOpen::loadsWhileTheWindowAnswers() {
    QSignalSpy shown(window_.get(), &MainWindow::recordingShown);
    QSignalSpy progressed(window_->recordingLoader(), &RecordingLoader::progressed);
    int ticksWhileOpening = 0;
    bool progressSeen = false;
    QElapsedTimer sinceTick;
    qint64 longestGapMs = 0;  // between two ticks while opening
    QTimer ticker;
    ticker.setInterval(10);
    connect(&ticker, &QTimer::timeout, this, [&] {
        if (window_->isOpeningRecording() || shown.count() == 1) {
            longestGapMs = std::max(longestGapMs, sinceTick.restart());
        }
        if (window_->isOpeningRecording()) {
            ++ticksWhileOpening;
            progressSeen |=
                window_->findChild<QProgressBar*>(QStringLiteral("openProgress"))->isVisible();
        }
    });
    ticker.start();
    QElapsedTimer clock;
    clock.start();
    sinceTick.start();
    window_->startOpeningRecording(large_);
    const qint64 returnedAfterMs = clock.elapsed();
    QVERIFY(window_->isOpeningRecording());
    QCOMPARE(window_->consoleRun()->run().eventCount(), 0u);  // nothing changed yet
    QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kDeadlineMs);
    const qint64 openedAfterMs = clock.elapsed();
    QTRY_VERIFY(sinceTick.elapsed() < 100);  // a tick after the last slice too
    ticker.stop();
    QVERIFY(!window_->isOpeningRecording());
    QCOMPARE(shown.at(0).at(0).toString(), QFileInfo(large_).absoluteFilePath());
    QCOMPARE(window_->consoleRun()->run().eventCount(), std::uint64_t{3} * kLargeTasks);
    // The event loop turned all along: the timer fired, the progress was shown.
    // At least a tick per 100 ms on average (here: one per 16 ms; a load on the
    // UI thread gives one or two in all).
    QVERIFY2(
        ticksWhileOpening >= std::max<qint64>(10, openedAfterMs / 100),
        qPrintable(QStringLiteral("%1 ticks in %2 ms").arg(ticksWhileOpening).arg(openedAfterMs)));
    QVERIFY(progressSeen);
    QVERIFY(progressed.count() >= 1);
    QVERIFY(!window_->findChild<QProgressBar*>(QStringLiteral("openProgress"))->isVisible());

    // The same as the synchronous load.
    const std::unique_ptr<MainWindow> direct = newWindow();
    QString error;
    clock.restart();
    QVERIFY2(direct->openRecording(large_, &error), qPrintable(error));
    const qint64 directMs = clock.elapsed();
    qInfo(
        "startOpeningRecording returned after %lld ms; shown after %lld ms; the 10 ms timer "
        "fired %d times meanwhile, at most %lld ms apart; %lld progress reports. "
        "openRecording() held the thread for %lld ms.",
        returnedAfterMs, openedAfterMs, ticksWhileOpening, longestGapMs,
        static_cast<long long>(progressed.count()), directMs);
    const QString differs = difference(*window_, *direct);
    QVERIFY2(differs.isEmpty(), qPrintable(differs));
}

void TestRecordingOpen::aSecondOpenReplacesTheFirst() {
    QSignalSpy shown(window_.get(), &MainWindow::recordingShown);
    QSignalSpy refused(window_.get(), &MainWindow::recordingRefused);
    window_->startOpeningRecording(large_);
    window_->startOpeningRecording(small_);  // while the large one is read
    QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kDeadlineMs);
    QCOMPARE(shown.at(0).at(0).toString(), QFileInfo(small_).absoluteFilePath());
    QVERIFY(!window_->isOpeningRecording());  // nothing else is coming
    QCOMPARE(window_->recordingPath(), QFileInfo(small_).absoluteFilePath());
    QCOMPARE(window_->consoleRun()->run().eventCount(), 36u);
    QCOMPARE(refused.count(), 0);
}

void TestRecordingOpen::anOpenDuringTheFeedReplacesIt() {
    QSignalSpy shown(window_.get(), &MainWindow::recordingShown);
    // Once the large one is read whole and its feed begins, open the small one.
    connect(
        window_->recordingLoader(), &RecordingLoader::loaded, this,
        [this] { window_->startOpeningRecording(small_); }, Qt::SingleShotConnection);
    window_->startOpeningRecording(large_);
    QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kDeadlineMs);
    QTRY_VERIFY_WITH_TIMEOUT(!window_->isOpeningRecording(), kDeadlineMs);
    QCOMPARE(shown.count(), 1);
    QCOMPARE(shown.at(0).at(0).toString(), QFileInfo(small_).absoluteFilePath());
    QCOMPARE(window_->consoleRun()->run().eventCount(), 36u);
    QCOMPARE(window_->messages()->rowCount(), 12);
}

void TestRecordingOpen::stopChangesNothing() {
    QSignalSpy shown(window_.get(), &MainWindow::recordingShown);
    QSignalSpy refused(window_.get(), &MainWindow::recordingRefused);
    window_->startOpeningRecording(large_);
    auto* stop = window_->findChild<QToolButton*>(QStringLiteral("openCancel"));
    QVERIFY(stop != nullptr && stop->isVisible());
    stop->click();
    QTRY_VERIFY_WITH_TIMEOUT(!window_->isOpeningRecording(), kDeadlineMs);
    QCOMPARE(shown.count(), 0);
    QCOMPARE(refused.count(), 0);
    QVERIFY(window_->recordingPath().isEmpty());
    QCOMPARE(window_->consoleRun()->run().eventCount(), 0u);
    QVERIFY(!window_->findChild<QProgressBar*>(QStringLiteral("openProgress"))->isVisible());
}

void TestRecordingOpen::aCorruptFileIsRefusedAndChangesNothing() {
    QString error;
    QVERIFY2(window_->openRecording(small_, &error), qPrintable(error));
    const std::uint64_t events = window_->consoleRun()->run().eventCount();
    // The large recording cut in half: not a readable SQLite database any more.
    QFile whole(large_);
    QVERIFY(whole.open(QIODevice::ReadOnly));
    const QString corrupt = dir_.filePath(QStringLiteral("corrupt.qsrun"));
    QFile half(corrupt);
    QVERIFY(half.open(QIODevice::WriteOnly));
    half.write(whole.read(whole.size() / 2));
    half.close();
    QSignalSpy refused(window_.get(), &MainWindow::recordingRefused);
    window_->openRecordingInteractive(corrupt);
    QTRY_VERIFY_WITH_TIMEOUT(window_->findChild<QMessageBox*>(QStringLiteral("openError")),
                             kDeadlineMs);
    auto* box = window_->findChild<QMessageBox*>(QStringLiteral("openError"));
    QVERIFY2(box->text().startsWith(corrupt), qPrintable(box->text()));
    QVERIFY(box->text().contains(QStringLiteral("Nothing was changed")));
    delete box;
    QCOMPARE(refused.count(), 1);
    QCOMPARE(window_->recordingPath(), QFileInfo(small_).absoluteFilePath());
    QCOMPARE(window_->consoleRun()->run().eventCount(), events);
    QVERIFY(!window_->isOpeningRecording());
}

// The loader reads without a ledger of its own (ReplayVisitor::eventsOnly):
// the events it hands over are still every one the full replay applies, in
// order, with the recording's name and channel.
void TestRecordingOpen::theLoaderReadsWhatTheReplayApplies() {
    std::vector<Event> applied;
    runner::ReplayVisitor visitor;
    visitor.applied = [&applied](const Event& e) { applied.push_back(e); };
    runner::ReplayedRun replayed;
    std::string why;
    QVERIFY2(runner::replayRecording(large_.toStdString(), &replayed, &why, visitor), why.c_str());
    QVERIFY(replayed.result.producer.sent > 0);  // the full replay's ledger totals
    QString error;
    const std::optional<LoadedRecording> loaded = loadRecording(large_, &error);
    QVERIFY2(loaded.has_value(), qPrintable(error));
    QCOMPARE(loaded->events.size(), applied.size());
    for (std::size_t i = 0; i < applied.size(); ++i) {
        const Event& a = loaded->events[i];
        const Event& b = applied[i];
        QVERIFY2(a.timeNs == b.timeNs && a.kind == b.kind && a.actor == b.actor &&
                     a.messageId.view() == b.messageId.view() && a.sequence == b.sequence,
                 qPrintable(QStringLiteral("event %1 differs").arg(i)));
    }
    QCOMPARE(loaded->name.toStdString(), replayed.scenario.name);
    QCOMPARE(loaded->channel.toStdString(), replayed.scenario.channel);
    QCOMPARE(loaded->finished, replayed.finished);
}

QTEST_MAIN(TestRecordingOpen)
#include "tst_recording_open.moc"

// The time cursor's projections take their checkpoints while the recording
// is opened (in the feed's slices), so no move of the cursor feeds the run
// from its start: the first move to a late instant restarts from a
// checkpoint and shows what a feed from the run's start shows.
void TestRecordingOpen::theCursorsCheckpointsAreTakenWhileOpening() {
    QSignalSpy shown(window_.get(), &MainWindow::recordingShown);
    window_->startOpeningRecording(large_);
    QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kDeadlineMs);
    const Run& run = window_->consoleRun()->run();
    const TimelineAtCursor& timeline = window_->timelineAtCursor();
    const ChartsAtCursor& charts = window_->chartsAtCursor();
    QCOMPARE(charts.eventsFed(), run.eventCount());
    QCOMPARE(timeline.model().barCount(), std::size_t(0));  // freed until a move: live
    // 180,000 events: every 131,072 for the timeline, every 16,384 for the charts.
    QCOMPARE(timeline.checkpointCount(), std::size_t(1));
    QCOMPARE(charts.checkpointCount(), std::size_t(10));

    // 10,000 events past the timeline's checkpoint: nearer than the start of
    // its window (60 s or more: 18,000 events), so it restarts from there.
    const std::uint64_t late = 131072 + 10000;
    window_->timeCursor()->moveTo(run.streamTimeNs(late));
    QVERIFY(!timeline.lastWasIncremental());
    QVERIFY2(
        timeline.lastFedEvents() <= run.eventCountAt(run.streamTimeNs(late)) - 131072,
        qPrintable(QStringLiteral("the timeline fed %1 events").arg(timeline.lastFedEvents())));
    QVERIFY2(charts.lastFedEvents() < ChartsAtCursor::kDefaultCheckpointInterval,
             qPrintable(QStringLiteral("the charts fed %1 events").arg(charts.lastFedEvents())));
    // Without checkpoints, the same instant from the start of its window (the
    // cheaper way here): the same bars in that window.
    TimelineAtCursor timelineFromWindow(1'000'000);
    timelineFromWindow.showAt(run, timeline.timeNs(), timeline.model().retentionNs());
    const std::int64_t windowStart = timelineFromWindow.windowStartNs();
    QVERIFY(windowStart > run.streamTimeNs(0));
    QVERIFY(barsOf(timeline.model(), windowStart).size() > 1000);
    QCOMPARE(barsOf(timeline.model(), windowStart),
             barsOf(timelineFromWindow.model(), windowStart));
    ChartsAtCursor chartsFromStart(1'000'000);
    chartsFromStart.showAt(run, "tasks", charts.timeNs());  // the factory's work queue
    QCOMPARE(charts.model().buckets().size(), chartsFromStart.model().buckets().size());
    for (std::size_t i = 0; i < charts.model().buckets().size(); ++i) {
        const SecondBucket& a = charts.model().buckets()[i];
        const SecondBucket& b = chartsFromStart.model().buckets()[i];
        QVERIFY2(a.sent == b.sent && a.acked == b.acked && a.redelivered == b.redelivered &&
                     a.waiting == b.waiting && a.inFlight == b.inFlight,
                 qPrintable(QStringLiteral("second %1").arg(a.second)));
    }

    // The head of a recording is not a live run: going there keeps them.
    window_->timeCursor()->goLive();
    QCOMPARE(timeline.checkpointCount(), std::size_t(1));
    QCOMPARE(charts.checkpointCount(), std::size_t(10));
}

// The integrity check runs beside the read (a thread of its own): a file
// damaged where the read of the events does not look (here a table the
// reader never reads, added to a copy, a page of it scrambled) is refused
// all the same, with the check's message (the one RecordingReader::open
// gives), and nothing changes.
void TestRecordingOpen::damageOnlyTheIntegrityCheckFindsIsRefused() {
    const QString damaged = dir_.filePath(QStringLiteral("index-damaged.qsrun"));
    QVERIFY(QFile::copy(large_, damaged));
    // The copy without free pages, so the new table's pages are the ones added.
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(damaged.toUtf8().constData(), &db), SQLITE_OK);
    const auto pragma = [db](const char* sql) {
        sqlite3_stmt* statement = nullptr;
        qint64 value = -1;
        if (sqlite3_prepare_v2(db, sql, -1, &statement, nullptr) == SQLITE_OK &&
            sqlite3_step(statement) == SQLITE_ROW) {
            value = sqlite3_column_int64(statement, 0);
        }
        sqlite3_finalize(statement);
        return value;
    };
    QCOMPARE(sqlite3_exec(db, "VACUUM", nullptr, nullptr, nullptr), SQLITE_OK);
    const qint64 pagesBefore = pragma("PRAGMA page_count");
    QCOMPARE(sqlite3_exec(db,
                          "CREATE TABLE unused_by_the_reader(x); "
                          "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
                          "WHERE i < 20000) INSERT INTO unused_by_the_reader "
                          "SELECT printf('%080d', i) FROM n",
                          nullptr, nullptr, nullptr),
             SQLITE_OK);
    const qint64 pagesAfter = pragma("PRAGMA page_count");
    const qint64 pageSize = pragma("PRAGMA page_size");
    sqlite3_close(db);
    QVERIFY(pagesAfter > pagesBefore + 2);
    {
        // A page in the middle of the new table's (pages count from 1).
        const qint64 page = (pagesBefore + pagesAfter) / 2;
        QFile file(damaged);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QByteArray scrambled(pageSize - 8, Qt::Uninitialized);
        for (int i = 0; i < scrambled.size(); ++i) {
            scrambled[i] = static_cast<char>((i * 131) & 0xff);
        }
        QVERIFY(file.seek((page - 1) * pageSize + 8));
        QCOMPARE(file.write(scrambled), scrambled.size());
    }
    // The events read whole, unchecked: only the check finds the damage.
    recording::RecordingReaderOptions unchecked;
    unchecked.checkIntegrity = false;
    std::string readError;
    const auto reader =
        recording::RecordingReader::open(damaged.toStdString(), &readError, unchecked);
    QVERIFY2(reader, readError.c_str());
    std::vector<Event> events;
    QVERIFY2(reader->readEvents(1, reader->lastIndex() + 1, &events, &readError),
             readError.c_str());
    QCOMPARE(events.size(), std::size_t{3} * kLargeTasks);
    std::string expected;
    QVERIFY(!recording::RecordingReader::open(damaged.toStdString(), &expected));

    QString error;
    QVERIFY(!loadRecording(damaged, &error).has_value());
    QCOMPARE(error, QString::fromStdString(expected));
    QVERIFY2(error.contains(QStringLiteral("damaged")), qPrintable(error));
    QVERIFY2(window_->openRecording(small_, &error), qPrintable(error));
    QVERIFY(!window_->openRecording(damaged, &error));
    QCOMPARE(window_->recordingPath(), QFileInfo(small_).absoluteFilePath());
    QCOMPARE(window_->consoleRun()->run().eventCount(), 36u);
}
