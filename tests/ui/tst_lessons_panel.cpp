// The Lessons dock (docs/lessons.md, "In the console"): a shipped lesson
// picked, predicted, run on the embedded broker in the console, its checks
// decided by the core against that run and shown as ✓ / ✗ lines, "Show me",
// the replay of its recording, progress kept across windows, a what-if run,
// and the first run's offer of lesson 1. QSettings in a temporary folder.
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QImage>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <algorithm>
#include <memory>

#include "controllers/connection_controller.h"
#include "controllers/console_run.h"
#include "controllers/lesson_run.h"
#include "controllers/run_controller.h"
#include "controllers/time_cursor.h"
#include "lessons/check.h"
#include "lessons/prediction.h"
#include "lessons/run_facts.h"
#include "main_window.h"
#include "panels/lessons_panel.h"
#include "panels/message_panel.h"
#include "run/run.h"
#include "widgets/first_run_greeting.h"
#include "widgets/theme.h"
#include "widgets/timeline_view.h"
#include "workers/worker_pool.h"

using namespace qs;
using namespace qs::ui;

namespace {

constexpr int kRunDeadlineMs = 60000;
const QString kLessonOne = QStringLiteral("01-competing-consumers");

MainWindowOptions withSettings() {
    MainWindowOptions options;
    options.autoConnect = false;
    return options;
}

QString mark(lessons::Verdict verdict) {
    switch (verdict) {
        case lessons::Verdict::Pass:
            return QStringLiteral("✓");
        case lessons::Verdict::Fail:
            return QStringLiteral("✗");
        case lessons::Verdict::Undecided:
            break;
    }
    return QStringLiteral("?");
}

// Whether the timeline highlights exactly `workers`: the view says so, and
// each lane's label is marked at its left edge when it is one of them, not otherwise.
bool lanesHighlightedAre(TimelineView& timeline, const QStringList& workers) {
    if (timeline.highlightedWorkers() != workers || !timeline.model()) {
        qWarning("highlighted: %s", qPrintable(timeline.highlightedWorkers().join(u',')));
        return false;
    }
    const QImage painted = timeline.grab().toImage();
    for (const TimelineLane& lane : timeline.model()->lanes()) {
        const QRectF r = timeline.laneRect(timeline.laneOf(lane.worker));
        const bool marked =
            painted.pixelColor(2, static_cast<int>(r.center().y())) == Theme::current().highlight;
        if (r.isEmpty() || marked != workers.contains(lane.worker)) {
            qWarning("lane %s painted %s", qPrintable(lane.worker),
                     marked ? "highlighted" : "plain");
            return false;
        }
    }
    return true;
}

}  // namespace

class TestLessonsPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void lessonOneIsDecidedByTheCore();
    void predictionRightAndWrong();
    void badAnswerRunsNothing();
    void stoppedEarlyIsUndecided();
    void whatIfUsesTheChangedSetting();
    void firstRunOffersLessonOne();
    void aRedriveStepPlaysInTheConsole();

private:
    // Shows the window, starts the embedded broker, opens `lesson`.
    void open(MainWindow& window, const QString& lesson);
    // Runs the step shown and waits for its outcome.
    const LessonStepOutcome* runAndWait(MainWindow& window, bool whatIf = false);
    std::unique_ptr<QTemporaryDir> config_;
    qint64 maxGapMs_ = 0;  // the longest the event loop stood still in the last run
};

void TestLessonsPanel::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // recordings into Qt's test folder
    QCoreApplication::setOrganizationName(QStringLiteral("queuescope-tst-lessons-panel"));
}

void TestLessonsPanel::init() {
    config_ = std::make_unique<QTemporaryDir>();
    QVERIFY(config_->isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, config_->path());
    QSettings().clear();
}

void TestLessonsPanel::open(MainWindow& window, const QString& lesson) {
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QString error;
    QVERIFY2(window.connection()->startEmbedded(0, &error), qPrintable(error));
    window.showLessons(lesson);
    QCOMPARE(window.lessonsPanel()->currentLesson(), lesson);
    QVERIFY(window.lessonsPanel()->isVisible());
}

const LessonStepOutcome* TestLessonsPanel::runAndWait(MainWindow& window, bool whatIf) {
    LessonsPanel* panel = window.lessonsPanel();
    QString error;
    const bool started = whatIf ? panel->runWhatIf(&error) : panel->runStep(&error);
    if (!started) {
        qWarning("run refused: %s", qPrintable(error));
        return nullptr;
    }
    // The UI thread is never blocked meanwhile: a 20 ms timer keeps ticking.
    QElapsedTimer sinceTick;
    sinceTick.start();
    maxGapMs_ = 0;
    QTimer ticker;
    ticker.setInterval(20);
    connect(&ticker, &QTimer::timeout, this,
            [&] { maxGapMs_ = std::max(maxGapMs_, sinceTick.restart()); });
    ticker.start();
    if (!QTest::qWaitFor([&window] { return !window.lessonRun()->isBusy(); }, kRunDeadlineMs)) {
        qWarning("the lesson's run was not decided within %d ms", kRunDeadlineMs);
        return nullptr;
    }
    return panel->shownOutcome();
}

void TestLessonsPanel::lessonOneIsDecidedByTheCore() {
    auto window = std::make_unique<MainWindow>(withSettings());
    open(*window, kLessonOne);
    LessonsPanel* panel = window->lessonsPanel();
    QVERIFY(panel->setAnswer(QStringLiteral("worker-1")));
    QCOMPARE(panel->answer(), std::optional<std::string>("worker-1"));

    const LessonStepOutcome* outcome = runAndWait(*window);
    QVERIFY(outcome != nullptr);
    QVERIFY2(outcome->problem.isEmpty(), qPrintable(outcome->problem));
    QVERIFY(outcome->facts != nullptr);
    QVERIFY(!outcome->recordingPath.isEmpty());
    QVERIFY2(maxGapMs_ < 1000, qPrintable(QString::number(maxGapMs_)));

    // The lines are exactly what the core decides for this run.
    const lessons::LessonStep& step = panel->lesson()->steps.front();
    const QStringList lines = panel->resultLines();
    QCOMPARE(lines.size(), static_cast<qsizetype>(step.checks.size()));
    for (std::size_t i = 0; i < step.checks.size(); ++i) {
        const lessons::CheckResult c = lessons::evaluateCheck(step.checks[i], *outcome->facts);
        const QString expected = mark(c.verdict) + QLatin1Char(' ') +
                                 QString::fromStdString(c.title) + QStringLiteral(" — ") +
                                 QString::fromStdString(c.sentence);
        QCOMPARE(lines[static_cast<qsizetype>(i)], expected);
    }
    // ... and the run they were decided on is the console's: one worker of
    // the three got nothing in the console's own ledger, every task acked once.
    const Ledger& console = window->consoleRun()->run().ledger();
    const auto workers = console.workers();
    QCOMPARE(workers.size(), std::size_t{3});
    QCOMPARE(std::count_if(workers.begin(), workers.end(),
                           [](const WorkerStats& w) { return w.received == 0; }),
             1);
    QVERIFY2(lines[0].startsWith(QStringLiteral("✓")), qPrintable(lines[0]));
    QVERIFY2(lines[1].startsWith(QStringLiteral("✓")), qPrintable(lines[1]));

    // The prediction is graded as the core grades it, and the console agrees.
    QVERIFY(outcome->grade.has_value());
    const lessons::Grade core =
        lessons::gradePrediction(*step.prediction, std::string("worker-1"), *outcome->facts);
    QCOMPARE(outcome->grade->outcome, core.outcome);
    const auto fewest = std::min_element(
        workers.begin(), workers.end(),
        [](const WorkerStats& a, const WorkerStats& b) { return a.received < b.received; });
    QCOMPARE(core.outcome == lessons::GradeOutcome::Right, fewest->worker == "worker-1");
    QVERIFY(panel->gradeText().contains(QString::fromStdString(core.explanation).toHtmlEscaped()));

    // "Show me" on "every task acked exactly once": its first task selected in
    // the table and on the timeline, the time cursor at its last event.
    const LessonEvidence evidence = outcome->checks.front().evidence;
    QVERIFY(!evidence.messageKeys.isEmpty());
    auto* showMe = panel->findChild<QPushButton*>(QStringLiteral("lessonShowMe0"));
    QVERIFY(showMe != nullptr);
    showMe->click();
    QCOMPARE(window->messagePanel()->selectedKey(), evidence.messageKeys.front());
    QVERIFY(!window->timeCursor()->isLive());
    QCOMPARE(window->timeCursor()->timeNs(),
             std::clamp(evidence.timeNs, window->timeCursor()->startNs(),
                        window->timeCursor()->headNs()));
    // ... and the workers it names (those that acked) highlighted on the
    // timeline; not the one that got nothing.
    TimelineView* timeline = window->timelineView();
    QVERIFY(!evidence.workers.isEmpty());
    QCOMPARE(timeline->model()->lanes().size(), std::size_t{3});
    QVERIFY(evidence.workers.size() < 3);
    QVERIFY(lanesHighlightedAre(*timeline, evidence.workers));
    showMe->click();  // the next task it names
    QCOMPARE(window->messagePanel()->selectedKey(),
             evidence.messageKeys.at(1 % evidence.messageKeys.size()));
    QVERIFY(lanesHighlightedAre(*timeline, evidence.workers));
    // Esc anywhere in the window clears them; so does selecting something else.
    QTest::keyClick(window->messagePanel(), Qt::Key_Escape);
    QVERIFY(lanesHighlightedAre(*timeline, {}));
    showMe->click();
    QVERIFY(lanesHighlightedAre(*timeline, evidence.workers));
    window->selectMessage(evidence.messageKeys.back());  // as a click in the table does
    QVERIFY(lanesHighlightedAre(*timeline, {}));
    window->timeCursor()->goLive();

    // Passed: remembered, and the list marks it.
    QVERIFY(outcome->passed());
    QVERIFY(panel->progress().passedSteps(kLessonOne).contains(0));

    // Replay: the console's recording of the step's run is opened.
    const QString recording = outcome->recordingPath;
    auto* replay = panel->findChild<QPushButton*>(QStringLiteral("lessonReplay"));
    QVERIFY(replay->isEnabled());
    replay->click();
    QTRY_COMPARE_WITH_TIMEOUT(window->recordingPath(), recording, 20000);
    window->close();
    window.reset();

    // A new window: the last lesson is shown again, with its mark.
    MainWindow again(withSettings());
    QCOMPARE(again.lessonsPanel()->currentLesson(), kLessonOne);
    QVERIFY(again.lessonsPanel()->progress().passedSteps(kLessonOne).contains(0));
    auto* list = again.lessonsPanel()->findChild<QComboBox*>(QStringLiteral("lessonList"));
    QVERIFY(list->currentText().startsWith(QStringLiteral("✓")));
    QVERIFY(list->itemText(1).startsWith(QStringLiteral("○")));
}

// Lesson 4's first step decides its number: worker-1's greedy batch takes all 40.
void TestLessonsPanel::predictionRightAndWrong() {
    MainWindow window(withSettings());
    open(window, QStringLiteral("04-batch-size-and-fairness"));
    LessonsPanel* panel = window.lessonsPanel();

    QVERIFY(panel->setAnswer(QStringLiteral("40")));
    const LessonStepOutcome* right = runAndWait(window);
    QVERIFY(right && right->grade);
    // The lesson's semantics give worker-1 all 40 (its own check says so); the
    // grade follows what the console's run did, also on a machine so loaded
    // that a late first poll let the others take some.
    const auto worker1 = window.consoleRun()->run().ledger().worker("worker-1");
    QVERIFY(worker1.has_value());
    QCOMPARE(right->grade->actual, QString::number(worker1->received));
    if (worker1->received == 40) {
        QCOMPARE(right->grade->outcome, lessons::GradeOutcome::Right);
        QVERIFY(panel->gradeText().contains(QStringLiteral("right")));
    } else {
        qWarning("worker-1 received %llu of 40: the answer 40 was wrong in this run",
                 static_cast<unsigned long long>(worker1->received));
        QCOMPARE(right->grade->outcome, lessons::GradeOutcome::Wrong);
    }

    QVERIFY(panel->setAnswer(QStringLiteral("10")));
    const LessonStepOutcome* wrong = runAndWait(window);
    QVERIFY(wrong && wrong->grade);
    QCOMPARE(wrong->grade->outcome, lessons::GradeOutcome::Wrong);
    QCOMPARE(wrong->grade->actual,
             QString::number(window.consoleRun()->run().ledger().worker("worker-1")->received));
    // The explanation is the core's, pointing at its evidence.
    const lessons::Grade core = lessons::gradePrediction(*panel->lesson()->steps.front().prediction,
                                                         std::string("10"), *wrong->facts);
    QCOMPARE(wrong->grade->explanation, QString::fromStdString(core.explanation));
    QVERIFY(panel->gradeText().contains(QStringLiteral("Not this time")));
    QVERIFY(!wrong->grade->evidence.isEmpty());
    auto* showMe = panel->findChild<QPushButton*>(QStringLiteral("lessonGradeShowMe"));
    QVERIFY(showMe->isVisible());
    showMe->click();
    QVERIFY(!window.timeCursor()->isLive());
    if (!wrong->grade->evidence.messageKeys.isEmpty()) {
        QCOMPARE(window.messagePanel()->selectedKey(), wrong->grade->evidence.messageKeys.front());
    }
}

void TestLessonsPanel::badAnswerRunsNothing() {
    MainWindow window(withSettings());
    open(window, kLessonOne);
    LessonsPanel* panel = window.lessonsPanel();
    QVERIFY(!panel->setAnswer(QStringLiteral("worker-9")));  // no such worker in the list
    QVERIFY(panel->selectLesson(QStringLiteral("04")));
    QVERIFY(panel->setAnswer(QStringLiteral("many")));
    QString error;
    QVERIFY(!panel->runStep(&error));
    QVERIFY2(error.startsWith(QStringLiteral("Your answer:")), qPrintable(error));
    QVERIFY(!window.lessonRun()->isBusy());
    QCOMPARE(window.consoleRun()->run().eventCount(), std::uint64_t{0});
}

// Reset mid-run: the core says why nothing can be decided; no line passes.
void TestLessonsPanel::stoppedEarlyIsUndecided() {
    MainWindow window(withSettings());
    open(window, QStringLiteral("04-batch-size-and-fairness"));
    QVERIFY(window.lessonsPanel()->runStep());
    QTRY_VERIFY_WITH_TIMEOUT(window.run()->workerCount() >= 1, 10000);
    window.resetRun();
    QTRY_VERIFY_WITH_TIMEOUT(!window.lessonRun()->isBusy(), kRunDeadlineMs);
    const LessonStepOutcome* outcome = window.lessonsPanel()->shownOutcome();
    QVERIFY(outcome != nullptr);
    QVERIFY(!outcome->passed());
    const QStringList lines = window.lessonsPanel()->resultLines();
    QCOMPARE(lines.size(),
             static_cast<qsizetype>(window.lessonsPanel()->lesson()->steps.front().checks.size()));
    for (const QString& line : lines) {
        QVERIFY2(
            line.startsWith(QStringLiteral("?")) && line.contains(QStringLiteral("stopped early")),
            qPrintable(line));
    }
    QVERIFY(!window.lessonsPanel()
                 ->progress()
                 .passedSteps(QStringLiteral("04-batch-size-and-fairness"))
                 .contains(0));
}

void TestLessonsPanel::whatIfUsesTheChangedSetting() {
    MainWindow window(withSettings());
    open(window, kLessonOne);
    LessonsPanel* panel = window.lessonsPanel();
    panel->setWhatIf(2, 4, 1.0);
    QCOMPARE(panel->whatIfScenario().workers.front().config.batchSize, 2);
    QString error;
    QVERIFY2(panel->runWhatIf(&error), qPrintable(error));
    // The console plays it: its pool takes the changed settings.
    QTRY_COMPARE_WITH_TIMEOUT(window.run()->workerCount(), 4, 10000);
    QCOMPARE(window.run()->config().batchSize, 2);
    QCOMPARE(window.run()->config().waitMs, 1000);
    QTRY_VERIFY_WITH_TIMEOUT(!window.lessonRun()->isBusy(), kRunDeadlineMs);
    const LessonStepOutcome* outcome = panel->shownOutcome();
    QVERIFY(outcome && outcome->facts);
    QVERIFY(outcome->whatIf);
    QCOMPARE(outcome->facts->scenario().workers.front().config.batchSize, 2);
    // The run decided on asked for 2 at a time and got no more: every poll's size.
    const Run& decided = outcome->facts->run();
    int polls = 0;
    for (std::uint64_t i = 0; i < decided.eventCount(); ++i) {
        const Event& e = decided.event(i);
        if (e.kind == EventKind::PollStarted) {
            QCOMPARE(e.value, std::int64_t{2});
            ++polls;
        } else if (e.kind == EventKind::PollReturned) {
            QVERIFY(e.value <= 2);
        }
    }
    QVERIFY(polls >= 5);  // 10 tasks, 2 at a time
    QCOMPARE(outcome->facts->workers().size(), std::size_t{4});
    // A what-if run never counts as passing the lesson.
    QVERIFY(!outcome->passed());
    QVERIFY(!panel->progress().passedSteps(kLessonOne).contains(0));
    QVERIFY(panel->statusText().contains(QStringLiteral("what-if")));
}

void TestLessonsPanel::firstRunOffersLessonOne() {
    MainWindow window(withSettings());
    window.resize(1280, 720);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.greeting()->isVisible());
    auto* lesson = window.greeting()->findChild<QPushButton*>(QStringLiteral("greetingLesson"));
    QVERIFY(lesson != nullptr);
    lesson->click();
    QVERIFY(!window.greeting()->isVisible());
    QCOMPARE(window.lessonsPanel()->currentLesson(), kLessonOne);
    QTRY_VERIFY(window.lessonsPanel()->isVisible());
    QVERIFY(QSettings().value(QString::fromLatin1(FirstRunGreeting::kGreetedKey)).toBool());
}

// Lesson 9's second step redrives the dead-letter queue mid-run: in the
// console the redrive runs off the UI thread, its move reaches the console's
// run, the run waits for it and the poison task's second dead-lettering, and
// every check passes as the core decides them.
void TestLessonsPanel::aRedriveStepPlaysInTheConsole() {
    MainWindow window(withSettings());
    open(window, QStringLiteral("09-poison-and-dead-letter"));
    LessonsPanel* panel = window.lessonsPanel();
    panel->showStep(1);
    QCOMPARE(panel->currentStep(), 1);
    QVERIFY(panel->setAnswer(QStringLiteral("b")));
    const LessonStepOutcome* outcome = runAndWait(window);
    QVERIFY(outcome != nullptr);
    QVERIFY2(outcome->problem.isEmpty(), qPrintable(outcome->problem));
    QVERIFY2(outcome->passed(), qPrintable(panel->resultLines().join(QLatin1Char('\n'))));
    QVERIFY(outcome->grade && outcome->grade->outcome == lessons::GradeOutcome::Right);
    QVERIFY2(maxGapMs_ < 1000, qPrintable(QString::number(maxGapMs_)));
    const LedgerSummary& s = window.consoleRun()->run().summaryNow();
    QCOMPARE(s.redriven, 1u);
    QCOMPARE(s.count(MessageState::DeadLettered), 1u);
    QCOMPARE(s.count(MessageState::Acked), 5u);
}

QTEST_MAIN(TestLessonsPanel)
#include "tst_lessons_panel.moc"
