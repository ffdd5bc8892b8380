#pragma once

#include <QMetaType>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "lessons/check.h"
#include "lessons/lesson.h"
#include "lessons/prediction.h"
#include "runner/scenario.h"

// One step of a guided lesson played in the console (docs/lessons.md, "In the
// console"): its run is a scenario the console's ScenarioPlayer plays on the
// current connection, so the learner watches it in every view. When the
// scenario ends, the console's own recording of it (as far as the views had
// it at that end) is read back into a core qs::Run by lessons::RunFacts on a
// thread of its own, and the step's checks and prediction are decided there
// by the core (evaluateCheck, gradePrediction: the code `queuescope lesson`
// uses). The verdicts come back as values, their evidence translated into
// what the console selects: message keys, workers, an instant.
//
// Threading: UI thread; the decision runs on a thread joined by the destructor.
namespace qs::ui {

class ScenarioPlayer;
class RunRecorder;
class RunController;
class ConsoleRun;

// What "Show me" selects for a verdict.
struct LessonEvidence {
    QStringList messageKeys;  // the console's keys (message_key.h), oldest first
    QStringList workers;      // workers its events name
    std::int64_t timeNs = 0;  // stream time of its last event (0 = none)
    bool isEmpty() const { return messageKeys.isEmpty() && workers.isEmpty() && timeNs == 0; }
};

struct LessonCheckLine {
    lessons::Verdict verdict = lessons::Verdict::Undecided;
    QString title;     // what was checked
    QString sentence;  // why, from the run
    LessonEvidence evidence;
};

struct LessonGradeLine {
    lessons::GradeOutcome outcome = lessons::GradeOutcome::NotAnswered;
    QString answer;  // the learner's ("" = none)
    QString actual;  // the run's answer
    QString explanation;
    LessonEvidence evidence;
};

// A step decided (or why it could not be).
struct LessonStepOutcome {
    QString lesson;  // its name
    int step = 0;    // 0-based
    bool whatIf = false;
    QString problem;  // the run failed or its recording cannot be read: no verdict
    QString recordingPath;
    std::vector<LessonCheckLine> checks;
    std::optional<LessonGradeLine> grade;
    // The run the verdicts were decided on (null when none was): the UI
    // thread's alone once delivered.
    std::shared_ptr<const lessons::RunFacts> facts;
    // True when the step ran as the lesson wrote it and every check passed.
    bool passed() const;
};

class LessonRun : public QObject {
    Q_OBJECT
public:
    // Plays a scenario in the console (MainWindow's, so the views follow it).
    using PlayScenario = std::function<bool(const runner::Scenario&, QString*)>;
    // None is owned; all must outlive this object.
    LessonRun(ScenarioPlayer* player, RunRecorder* recorder, RunController* run,
              const ConsoleRun* consoleRun, PlayScenario play, QObject* parent = nullptr);
    ~LessonRun() override;

    // Plays `scenario` (the step's run, or the learner's what-if of it) and
    // then decides `lesson`'s step `step` against it. False with *error when
    // it cannot start (busy, not connected, an invalid what-if).
    bool start(const lessons::Lesson& lesson, std::size_t step, const runner::Scenario& scenario,
               std::optional<std::string> answer, bool whatIf, QString* error = nullptr);
    bool isBusy() const { return phase_ != Phase::Idle; }
    // Why `lesson` cannot be played on the current connection ("" = it can,
    // or not known yet). A lesson that needs channel management on a server
    // whose support is not known yet makes it ask the server, off the UI
    // thread; availabilityChanged() follows the answer.
    QString unavailableHere(const lessons::Lesson& lesson);
    // Time allowed for the recording to commit the run's events.
    void setCommitTimeoutMs(int ms) { commitTimeoutMs_ = ms; }

Q_SIGNALS:
    // "Running …", "Deciding the checks…": what the step is doing now.
    void progress(const QString& text);
    void decided(const qs::ui::LessonStepOutcome& outcome);
    // What unavailableHere() says may have changed (an answer, a new connection).
    void availabilityChanged();

private:
    enum class Phase { Idle, Settling, Starting, Playing, Committing, Deciding };
    struct Job;

    // The last run's workers still poll the step's channel: a poll the broker
    // has not yet seen closed would take the step's tasks and hand them back.
    // Stops them and plays once the embedded broker has seen each of them go
    // (a server reports nothing: then after kSettleMs).
    void settleThenPlay(const std::vector<std::string>& workers);
    void settled();
    bool play(QString* why);
    void scenarioFinished();
    void waitForCommit();
    void decide();
    void deliver(LessonStepOutcome outcome);
    LessonStepOutcome undecidedOutcome(const QString& why) const;

    ScenarioPlayer* player_;
    RunRecorder* recorder_;
    RunController* run_;
    const ConsoleRun* consoleRun_;
    PlayScenario play_;
    Phase phase_ = Phase::Idle;
    std::unique_ptr<Job> job_;
    QTimer commitPoll_;
    int commitTimeoutMs_ = 30000;
    int commitWaitedMs_ = 0;
    std::thread decider_;
    QTimer settleBound_;
    std::vector<std::string> leaving_;  // old workers the broker has not seen go yet
    std::uint64_t scanned_ = 0;         // events of the console's run looked at
    bool askingSupport_ = false;        // a channel list is on its way to learn the support
};

}  // namespace qs::ui

Q_DECLARE_METATYPE(qs::ui::LessonStepOutcome)
