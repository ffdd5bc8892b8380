// Time travel in the console (docs/ui.md, "Time travel"): a recording made by
// a headless run (a crash, a dead-letter, a marker) opened in the window;
// at several instants the message table, the counters and the worker cards
// say what Run::stateAt(t) says, and the timeline, the charts and the
// Channels view show their projections of the Run at t; jumps land on the right events; play moves
// the cursor and ends live; a live run paused at t keeps showing t while its
// events go on, and Live returns to the head; a bad file is refused with the
// core's message and changes nothing.
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QHash>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QUrl>
#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>
#include <vector>

#include "controllers/console_run.h"
#include "controllers/event_pump.h"
#include "controllers/replay_player.h"
#include "controllers/run_controller.h"
#include "controllers/time_cursor.h"
#include "main_window.h"
#include "models/message_key.h"
#include "models/message_table_model.h"
#include "models/run_channels_model.h"
#include "models/task_view.h"
#include "panels/channel_browser.h"
#include "panels/charts_panel.h"
#include "panels/event_log_panel.h"
#include "panels/explain_panel.h"
#include "panels/message_panel.h"
#include "panels/producer_panel.h"
#include "panels/worker_pool_panel.h"
#include "run/leases.h"
#include "run/run.h"
#include "run/run_landmarks.h"
#include "runner/headless_command.h"
#include "widgets/timeline_view.h"
#include "widgets/transport_bar.h"
#include "widgets/worker_card.h"
#include "window_fixture.h"

using namespace qs;
using namespace qs::ui;

namespace {

// worker-2 crashes holding tasks; task 5 is poison (max receive 2: dead-lettered);
// the batch size changes mid-run (a marker).
constexpr const char* kScenario = R"({
  "name": "crash and dead-letter",
  "channel": "tasks.timetravel",
  "tasks": { "count": 9, "body": "Task #{n}",
             "policy": { "maxReceiveCount": 2, "deadLetterQueue": "tasks.timetravel.dlq" },
             "poison": [5] },
  "workers": { "count": 3, "batch": 3, "waitSeconds": 1, "work": { "kind": "fixed", "ms": 300 } },
  "timeline": [ { "at": 0.5, "action": "crash", "worker": "worker-2" },
                { "at": 1.0, "action": "set", "batch": 2 } ],
  "until": "drained",
  "timeoutSeconds": 30
})";

// The core state a TaskState stands for (the console splits "waiting" by why).
MessageState coreState(TaskState s) {
    switch (s) {
        case TaskState::Waiting:
        case TaskState::Rejected:
        case TaskState::Returned:
        case TaskState::Requeued:
            return MessageState::Waiting;
        case TaskState::Delayed:
            return MessageState::Delayed;
        case TaskState::InFlight:
            return MessageState::InFlight;
        case TaskState::Acked:
            return MessageState::Acked;
        case TaskState::DeadLettered:
            return MessageState::DeadLettered;
        case TaskState::Dropped:
            return MessageState::Dropped;
        case TaskState::Expired:
            return MessageState::Expired;
        case TaskState::SendFailed:
            return MessageState::SendFailed;
        case TaskState::Purged:
        case TaskState::Count:
            break;
    }
    return MessageState::Purged;
}

QString countsOf(const LedgerSummary& s) {
    return QStringLiteral("waiting %1 · in flight %2 · acked %3 · dead-lettered %4")
        .arg(s.count(MessageState::Waiting) + s.count(MessageState::Delayed))
        .arg(s.count(MessageState::InFlight))
        .arg(s.count(MessageState::Acked))
        .arg(s.count(MessageState::DeadLettered) + s.count(MessageState::Dropped));
}

// Empty when the table shows `state` row for row; else the first difference.
QString tableDifference(const MessageTableModel& model, const RunState& state) {
    if (model.rowCount() != static_cast<int>(state.messages.size())) {
        return QStringLiteral("rows %1 vs %2").arg(model.rowCount()).arg(state.messages.size());
    }
    for (int row = 0; row < model.rowCount(); ++row) {
        const MessageAt& want = state.messages[static_cast<std::size_t>(row)];
        const auto got = static_cast<TaskState>(
            model.data(model.index(row, 0), MessageTableModel::StateRole).toInt());
        const QString worker = model.data(model.index(row, 0), MessageTableModel::WorkerRole).toString();
        const int receives =
            model.data(model.index(row, MessageTableModel::ReceiveCountColumn)).toInt();
        if (coreState(got) != want.state || worker != fromView(want.worker.view()) ||
            receives != want.receiveCount) {
            return QStringLiteral("row %1: %2 / %3 / %4 vs %5 / %6 / %7")
                .arg(row)
                .arg(taskStateName(got), worker)
                .arg(receives)
                .arg(fromView(messageStateName(want.state)), fromView(want.worker.view()))
                .arg(want.receiveCount);
        }
    }
    return {};
}

// Empty when every worker card shows its WorkerAt; else the first difference.
QString cardsDifference(const MainWindow& window, const RunState& state) {
    for (const WorkerAt& w : state.workers) {
        const QString name = fromView(w.worker.view());
        const WorkerCard* card = window.workerPanel()->card(name);
        if (card == nullptr) {
            return QStringLiteral("no card for ") + name;
        }
        const QString want = QStringLiteral("recv %1 · ack %2 · rej %3 · redeliv %4")
                                 .arg(w.count(WorkerCounter::Received))
                                 .arg(w.count(WorkerCounter::Acked))
                                 .arg(w.count(WorkerCounter::Rejected))
                                 .arg(w.count(WorkerCounter::Redelivered));
        if (card->countersText() != want || !card->isReadOnly()) {
            return name + QStringLiteral(": ") + card->countersText() + QStringLiteral(" vs ") + want;
        }
    }
    return {};
}

// Empty when the timeline, the charts and the Channels view show the Run at
// t (their projections there); else the first difference.
QString projectionDifference(const MainWindow& window, const Run& run, std::int64_t t) {
    const RunState want = run.stateAt(t);
    const TimelineView* view = window.timelineView();
    if (view->model() != &window.timelineAtCursor().model()) {
        return QStringLiteral("the timeline does not show its projection at t");
    }
    for (const TimelineView::PaintedBar& p : view->paintedBars()) {
        if (p.bar->startNs > t || p.drawnEndNs > t) {
            return QStringLiteral("a bar painted after t");
        }
    }
    // Open bars: the hand-outs the Run has open at t, by the same worker;
    // each one its worker had reported by t (a bar starts at the worker's
    // MessageAssigned: the broker's BrokerDelivered comes microseconds first).
    QHash<QString, QString> open;
    for (const auto& [lane, bar] : view->model()->openBars()) {
        open.insert(view->model()->keyOf(*bar), view->model()->lanes()[static_cast<std::size_t>(lane)].worker);
    }
    int reported = 0;
    for (const Lease& lease : leasesAt(run, want)) {
        const QString key = messageKey(lease.channel.view(), run.messageId(lease.message));
        bool assigned = false;
        for (const std::uint32_t i : run.messageEvents(lease.message)) {
            const Event& e = run.event(i);
            assigned = assigned || (i < want.events && e.kind == EventKind::MessageAssigned &&
                                    e.actor == lease.worker && e.timeNs >= lease.handedOutNs);
        }
        if (assigned) {
            ++reported;
            if (open.value(key) != fromView(lease.worker.view())) {
                return QStringLiteral("no open bar for a hand-out open at t: ") + key;
            }
        }
    }
    if (open.size() != reported) {
        return QStringLiteral("open bars %1 vs hand-outs open at t %2")
            .arg(open.size())
            .arg(reported);
    }
    const ChartsModel* charts = window.charts()->model();
    if (charts != &window.chartsAtCursor().model() || charts->buckets().empty()) {
        return QStringLiteral("the charts do not show their projection at t");
    }
    if (charts->buckets().back().second != (t - run.event(0).timeNs) / 1'000'000'000LL) {
        return QStringLiteral("the newest bucket does not hold t");
    }
    const ChannelAt* queue = want.channel("tasks.timetravel");
    const qint64 waiting = queue ? static_cast<qint64>(queue->count(MessageState::Waiting)) : 0;
    if (charts->buckets().back().waiting != waiting) {
        return QStringLiteral("depth %1 vs %2").arg(charts->buckets().back().waiting).arg(waiting);
    }
    const ChannelBrowser* channels = window.channelBrowser();
    if (!channels->showingRun() || !channels->asOfText().contains(QStringLiteral("As of")) ||
        channels->runModel()->rowCount() != static_cast<int>(want.channels.size())) {
        return QStringLiteral("the Channels view does not show the run's channels at t");
    }
    for (int row = 0; row < channels->runModel()->rowCount(); ++row) {
        if (!(*channels->runModel()->channel(row) ==
              want.channels[static_cast<std::size_t>(row)])) {
            return QStringLiteral("channel row %1 differs from the Run's at t").arg(row);
        }
    }
    const QPushButton* purge = nullptr;
    for (const QPushButton* b : channels->findChildren<QPushButton*>()) {
        if (b->text() == QStringLiteral("Purge…")) {
            purge = b;
        }
    }
    if (purge == nullptr || purge->isEnabled()) {
        return QStringLiteral("Purge (a server action) is on at a time cursor");
    }
    return {};
}

// Stream times of the events that are `landmark`, each once, oldest first.
std::vector<std::int64_t> landmarkTimes(const Run& run, Landmark landmark) {
    std::vector<std::int64_t> times;
    for (std::uint64_t i = 0; i < run.eventCount(); ++i) {
        if (landmarkOf(run.event(i)) == landmark &&
            (times.empty() || times.back() != run.streamTimeNs(i))) {
            times.push_back(run.streamTimeNs(i));
        }
    }
    return times;
}

}  // namespace

class TestTimeTravel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void everyViewShowsTheStateAtTheCursor();
    void jumpsLandOnTheirLandmarks();
    void historyShowsTheWholeJourney();
    void playMovesTheCursorToTheHead();
    void badFilesAreRefusedAndChangeNothing();
    void refusalIsShownInADialog();
    void droppedRecordingOpens();
    void recentRecordingsAndBackToLive();
    void livePausedRunKeepsItsInstant();

private:
    void openRecording();
    const Run& run() const { return window_->consoleRun()->run(); }
    TimeCursor* cursor() const { return window_->timeCursor(); }

    QTemporaryDir dir_;
    QString recording_;
    std::unique_ptr<MainWindow> window_;
    std::unique_ptr<QAbstractItemModelTester> tester_;
    std::unique_ptr<QAbstractItemModelTester> channelsTester_;  // the run's channels at t
};

void TestTimeTravel::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    const std::string scenario = dir_.filePath(QStringLiteral("crash-dlq.json")).toStdString();
    std::ofstream(scenario) << kScenario;
    recording_ = dir_.filePath(QStringLiteral("crash-dlq.qsrun"));
    std::ostringstream out;
    std::ostringstream err;
    const int code = runner::runHeadless(
        {"--scenario", scenario, "--record", recording_.toStdString(), "--quiet"}, out, err);
    QVERIFY2(code == 0, (out.str() + err.str()).c_str());
}

void TestTimeTravel::init() {
    MainWindowOptions options = test::offlineOptions();
    options.recordRuns = false;
    window_ = std::make_unique<MainWindow>(options);
    tester_ = std::make_unique<QAbstractItemModelTester>(
        window_->messages(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    channelsTester_ = std::make_unique<QAbstractItemModelTester>(
        window_->channelBrowser()->runModel(),
        QAbstractItemModelTester::FailureReportingMode::QtTest);
    window_->resize(1600, 1000);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
}

void TestTimeTravel::cleanup() {
    channelsTester_.reset();
    tester_.reset();
    window_.reset();
}

void TestTimeTravel::openRecording() {
    QString error;
    QVERIFY2(window_->openRecording(recording_, &error), qPrintable(error));
    QCOMPARE(window_->recordingPath(), QFileInfo(recording_).absoluteFilePath());
    QVERIFY(run().eventCount() > 50);
    QVERIFY(!landmarkTimes(run(), Landmark::Crash).empty());
    QVERIFY(!landmarkTimes(run(), Landmark::DeadLetter).empty());
    QVERIFY(!landmarkTimes(run(), Landmark::Marker).empty());
}

void TestTimeTravel::everyViewShowsTheStateAtTheCursor() {
    openRecording();
    if (QTest::currentTestFailed()) return;
    const std::int64_t start = cursor()->startNs();
    const std::int64_t head = cursor()->headNs();
    std::vector<std::int64_t> instants{start, head};
    for (int quarter = 1; quarter < 4; ++quarter) {
        instants.push_back(start + (head - start) * quarter / 4);
    }
    for (const Landmark l : {Landmark::Crash, Landmark::DeadLetter, Landmark::Redelivery}) {
        const std::vector<std::int64_t> times = landmarkTimes(run(), l);
        instants.push_back(times.front());
        instants.push_back(times.front() - 1);  // just before it
    }
    for (const std::int64_t t : instants) {
        cursor()->moveTo(t);
        const RunState want = run().stateAt(t);
        const QString at = QStringLiteral(" at %1 ns").arg(t - start);
        QVERIFY2(!cursor()->isLive(), qPrintable(at));
        QVERIFY2(tableDifference(*window_->messages(), want).isEmpty(),
                 qPrintable(tableDifference(*window_->messages(), want) + at));
        QCOMPARE(window_->messagePanel()->countsText(), countsOf(want.summary));
        QVERIFY2(cardsDifference(*window_, want).isEmpty(),
                 qPrintable(cardsDifference(*window_, want) + at));
        QCOMPARE(window_->timelineView()->cursorNs(), std::optional<std::int64_t>(t));
        const auto selected = window_->eventLogPanel()->selectedEvent();
        QVERIFY2(selected.has_value() && run().streamTimeNs(*selected) <= t, qPrintable(at));
        QVERIFY(*selected < run().eventCountAt(t));
        QVERIFY2(window_->charts()->cursorLineX().has_value(), qPrintable(at));
        QVERIFY2(*window_->charts()->cursorLineX() <= 0, qPrintable(at));
        QVERIFY2(projectionDifference(*window_, run(), t).isEmpty(),
                 qPrintable(projectionDifference(*window_, run(), t) + at));
    }
    // At the head, the newest explanation is the one at the cursor.
    cursor()->moveTo(head);
    QCOMPARE(window_->explainPanel()->currentLine(), 0);
    // Live: the head again, in every view.
    cursor()->goLive();
    QVERIFY(tableDifference(*window_->messages(), run().head()).isEmpty());
    QCOMPARE(window_->messagePanel()->countsText(), countsOf(run().summaryNow()));
    QVERIFY(!window_->timelineView()->cursorNs().has_value());
    QVERIFY(window_->timelineView()->isLive());
    QVERIFY(!window_->charts()->cursorLineX().has_value());
    QCOMPARE(window_->explainPanel()->currentLine(), -1);
    QCOMPARE(window_->timelineView()->model(), &window_->timelineModel());
    QCOMPARE(window_->charts()->model(), &window_->chartsModel());
    QVERIFY(!window_->channelBrowser()->showingRun());
}

void TestTimeTravel::jumpsLandOnTheirLandmarks() {
    openRecording();
    if (QTest::currentTestFailed()) return;
    for (int k = 0; k < kLandmarkCount; ++k) {
        const auto landmark = static_cast<Landmark>(k);
        std::vector<std::int64_t> want = landmarkTimes(run(), landmark);
        const std::int64_t start = cursor()->startNs();
        want.erase(std::remove_if(want.begin(), want.end(), [start](std::int64_t t) { return t <= start; }),
                   want.end());
        cursor()->moveTo(start);
        std::vector<std::int64_t> forward;
        while (cursor()->jump(landmark, true)) {
            forward.push_back(cursor()->timeNs());
            QVERIFY(forward.size() <= want.size());
        }
        QCOMPARE(forward, want);
        cursor()->goLive();
        std::vector<std::int64_t> back;
        while (cursor()->jump(landmark, false)) {
            back.push_back(cursor()->timeNs());
            QVERIFY(back.size() <= want.size() + 1);
        }
        std::reverse(back.begin(), back.end());
        std::vector<std::int64_t> all = landmarkTimes(run(), landmark);
        if (!all.empty() && all.back() == cursor()->headNs()) {
            all.pop_back();  // from the head, "previous" is before it
        }
        QCOMPARE(back, all);
    }
    // The transport bar's buttons jump to the kind it names.
    cursor()->moveTo(cursor()->startNs());
    TransportBar* bar = window_->transportBar();
    bar->landmarkBox()->setCurrentIndex(static_cast<int>(Landmark::DeadLetter));
    bar->jumpForward();
    QCOMPARE(cursor()->timeNs(), landmarkTimes(run(), Landmark::DeadLetter).front());
    const RunState there = run().stateAt(cursor()->timeNs());
    QVERIFY(there.count(MessageState::DeadLettered) >= 1);
    QVERIFY(tableDifference(*window_->messages(), there).isEmpty());
    // Nothing further: the cursor stays and the status bar says why.
    cursor()->goLive();
    bar->jumpForward();
    QVERIFY(cursor()->isLive());
    QCOMPARE(window_->statusTextWhole(), QStringLiteral("No dead-letter after the time cursor."));
}

// The selected task's history is its whole journey; what comes after the cursor is marked.
void TestTimeTravel::historyShowsTheWholeJourney() {
    openRecording();
    if (QTest::currentTestFailed()) return;
    const std::vector<std::int64_t> deadLetters = landmarkTimes(run(), Landmark::DeadLetter);
    const std::uint64_t event = *nextLandmark(run(), 0, Landmark::DeadLetter);
    const auto poison = run().messageIndex(run().event(event).messageId.view());
    QVERIFY(poison.has_value());
    const QString key = taskKey(run(), *poison);
    cursor()->moveTo(deadLetters.front() - 1);  // just before it was dead-lettered
    window_->selectMessage(key);
    const QString before = window_->messagePanel()->historyText();
    QVERIFY2(before.contains(QStringLiteral("dead-lettered to")), qPrintable(before));
    QVERIFY2(before.contains(QStringLiteral("(after the cursor)")), qPrintable(before));
    for (const QString& line : before.split(QLatin1Char('\n'))) {
        if (line.contains(QStringLiteral("dead-lettered to"))) {
            QVERIFY2(line.contains(QStringLiteral("(after the cursor)")), qPrintable(line));
        } else if (line.contains(QStringLiteral("sent by the producer"))) {
            QVERIFY2(!line.contains(QStringLiteral("(after the cursor)")), qPrintable(line));
        }
    }
    cursor()->goLive();
    const QString live = window_->messagePanel()->historyText();
    QVERIFY2(live.contains(QStringLiteral("dead-lettered to")), qPrintable(live));
    QVERIFY(!live.contains(QStringLiteral("(after the cursor)")));
}

void TestTimeTravel::playMovesTheCursorToTheHead() {
    openRecording();
    if (QTest::currentTestFailed()) return;
    const std::int64_t start = cursor()->startNs();
    cursor()->moveTo(start);
    window_->transportBar()->speedBox()->setCurrentIndex(window_->transportBar()->speedBox()->count() - 1);
    QCOMPARE(window_->replayPlayer()->speed(), ReplayPlayer::kMaxSpeed);
    window_->transportBar()->playButton()->click();
    QVERIFY(window_->replayPlayer()->isPlaying());
    QTRY_VERIFY_WITH_TIMEOUT(cursor()->isLive() || cursor()->timeNs() > start, 10000);
    // At the head playing stops and the views are live again.
    QTRY_VERIFY_WITH_TIMEOUT(cursor()->isLive() && !window_->replayPlayer()->isPlaying(), 20000);
    QVERIFY(!window_->transportBar()->playButton()->isChecked());
    QVERIFY(tableDifference(*window_->messages(), run().head()).isEmpty());
}

void TestTimeTravel::badFilesAreRefusedAndChangeNothing() {
    openRecording();
    if (QTest::currentTestFailed()) return;
    const std::uint64_t events = run().eventCount();
    cursor()->moveTo(cursor()->startNs() + (cursor()->headNs() - cursor()->startNs()) / 2);
    const std::int64_t t = cursor()->timeNs();
    const QString junk = dir_.filePath(QStringLiteral("junk.qsrun"));
    QFile file(junk);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("this is not a recording, just text\n");
    file.close();
    QFile whole(recording_);
    QVERIFY(whole.open(QIODevice::ReadOnly));
    const QByteArray bytes = whole.readAll();
    const QString truncated = dir_.filePath(QStringLiteral("truncated.qsrun"));
    QFile half(truncated);
    QVERIFY(half.open(QIODevice::WriteOnly));
    half.write(bytes.left(bytes.size() / 2));
    half.close();
    for (const QString& bad : {junk, truncated, dir_.filePath(QStringLiteral("missing.qsrun"))}) {
        QString error;
        QVERIFY(!window_->openRecording(bad, &error));
        QVERIFY2(error.startsWith(bad), qPrintable(error));  // "PATH: why"
        QVERIFY2(error.size() > bad.size() + 5, qPrintable(error));
        QCOMPARE(run().eventCount(), events);
        QCOMPARE(cursor()->timeNs(), t);
        QCOMPARE(window_->recordingPath(), QFileInfo(recording_).absoluteFilePath());
    }
}

void TestTimeTravel::refusalIsShownInADialog() {
    const QString junk = dir_.filePath(QStringLiteral("not-sqlite.qsrun"));
    QFile file(junk);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray(4096, 'x'));
    file.close();
    // Read off the UI thread: the refusal comes later, in a window-modal box.
    window_->openRecordingInteractive(junk);
    QTRY_VERIFY_WITH_TIMEOUT(window_->findChild<QMessageBox*>(QStringLiteral("openError")), 10000);
    auto* box = window_->findChild<QMessageBox*>(QStringLiteral("openError"));
    const QString shown = box->text();
    delete box;
    QVERIFY2(shown.startsWith(junk), qPrintable(shown));
    QVERIFY(shown.contains(QStringLiteral("Nothing was changed")));
    QVERIFY(window_->recordingPath().isEmpty());
    QCOMPARE(run().eventCount(), 0u);
}

void TestTimeTravel::droppedRecordingOpens() {
    QMimeData data;
    data.setUrls({QUrl::fromLocalFile(recording_)});
    const QPoint centre = window_->rect().center();
    QDragEnterEvent enter(centre, Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(window_.get(), &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(centre, Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(window_.get(), &drop);
    QTRY_COMPARE_WITH_TIMEOUT(window_->recordingPath(), QFileInfo(recording_).absoluteFilePath(),
                              10000);
    QVERIFY(run().eventCount() > 50);
}

void TestTimeTravel::recentRecordingsAndBackToLive() {
    openRecording();
    if (QTest::currentTestFailed()) return;
    QCOMPARE(window_->recentRecordings().value(0), QFileInfo(recording_).absoluteFilePath());
    QVERIFY(!window_->producerPanel()->isEnabled());
    window_->resetRun();  // Ctrl+R: back to the live console too
    QVERIFY(window_->recordingPath().isEmpty());
    QCOMPARE(run().eventCount(), 0u);
    QVERIFY(window_->producerPanel()->isEnabled());
    QVERIFY(cursor()->isLive());
    QCOMPARE(window_->messages()->rowCount(), 0);
}

// A live run on the embedded broker, paused at t while it goes on.
void TestTimeTravel::livePausedRunKeepsItsInstant() {
    QString error;
    QVERIFY2(window_->connection()->startEmbedded(0, &error), qPrintable(error));
    workers::WorkerConfig c = window_->run()->config();
    c.work = workers::WorkProfile::fixed(40);
    c.batchSize = 1;
    c.waitMs = 1000;
    QVERIFY(window_->run()->setConfig(c));
    QVERIFY(window_->run()->setWorkerCount(2));
    window_->producerPanel()->setCount(60);
    window_->producerPanel()->send();
    QTRY_VERIFY_WITH_TIMEOUT(run().summaryNow().count(MessageState::Acked) >= 5, 30000);
    cursor()->moveTo(cursor()->headNs());
    const std::int64_t t = cursor()->timeNs();
    const RunState at = run().stateAt(t);
    const std::uint64_t eventsThen = run().eventCount();
    // The run goes on: more acks arrive, the views stay at t.
    QTRY_VERIFY_WITH_TIMEOUT(run().summaryNow().count(MessageState::Acked) >=
                                 at.count(MessageState::Acked) + 10,
                             30000);
    window_->messagePanel()->refresh();
    QVERIFY(run().eventCount() > eventsThen);
    QVERIFY(!cursor()->isLive());
    QCOMPARE(cursor()->timeNs(), t);
    QVERIFY(tableDifference(*window_->messages(), at).isEmpty());
    QCOMPARE(window_->messagePanel()->countsText(), countsOf(at.summary));
    QVERIFY(cardsDifference(*window_, at).isEmpty());
    QCOMPARE(window_->timelineView()->cursorNs(), std::optional<std::int64_t>(t));
    // Live returns every view to the head.
    window_->transportBar()->liveButton()->click();
    QVERIFY(cursor()->isLive());
    window_->messages()->commitPendingRows();
    window_->messagePanel()->refresh();
    QVERIFY(tableDifference(*window_->messages(), run().head()).isEmpty());
    QCOMPARE(window_->messagePanel()->countsText(), countsOf(run().summaryNow()));
    QVERIFY(!window_->timelineView()->cursorNs().has_value());
    window_->run()->stopAll();
}

QTEST_MAIN(TestTimeTravel)
#include "tst_time_travel.moc"
