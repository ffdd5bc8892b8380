#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>
#include <QTimer>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runner/channel_steps.h"
#include "runner/scenario.h"
#include "runner/scenario_schedule.h"

namespace qs::workers {
class WorkerPool;
}

// Plays a scenario inside the console by driving its runner::ScenarioSchedule
// (the headless runner's own schedule) from a QTimer on the UI thread: the
// setup step (create the channel), then each timed step when due (send the
// tasks, start a worker group, a timeline action), then, at the schedule's
// end, the end steps. Each step is applied with the headless runner's own
// step function (Scenario::taskSpec / groupOverride, applyTimelineAction,
// runChannelStep) to the RunController's pool and producer, telling the
// RunController what it must mirror (the shared configuration, the number of
// workers). At the end the producer stops; the workers stay for the user to
// go on with, unless the scenario deletes its channel. Channel management runs
// on the connection controller's thread pool; the UI thread never waits for it.
namespace qs::ui {

class RunController;

class ScenarioPlayer : public QObject {
    Q_OBJECT
public:
    explicit ScenarioPlayer(RunController* run, QObject* parent = nullptr);

    // False (with *error) when the scenario is invalid or the run cannot start.
    // With `createChannel` the scenario's clock starts once the channel step
    // has answered (as in the headless runner).
    bool start(const runner::Scenario& scenario, QString* error = nullptr);
    // Ends the scenario now, without its end steps (no channel deletion).
    void stop();
    // True when every task is settled for good (the console's own view);
    // used to end "untilDrained" scenarios.
    void setDrainedCheck(std::function<bool()> check) { drained_ = std::move(check); }
    // How many redrive moves the console's run has taken in (its ledger's
    // `redriven`): a run is not drained before it has every move a redrive
    // step reported.
    void setRedrivenCount(std::function<std::uint64_t()> count) {
        redrivenSeen_ = std::move(count);
    }
    // The run's own messages dead-lettered into a channel: what a redrive step
    // moves (never another run's dead letters on a shared server).
    void setDeadLetteredIds(std::function<std::vector<std::string>(const std::string&)> ids) {
        deadLetteredIds_ = std::move(ids);
    }
    // From start() until finished(): creating the channel, playing, or ending.
    bool isRunning() const { return timer_.isActive() || phase_ != Phase::Idle; }
    const runner::Scenario& scenario() const { return scenario_; }
    // How the last scenario ended: None while it plays or when it was stopped
    // early (stop()), else its natural end (drained, time bound, run time over).
    runner::RunEnd lastEnd() const { return lastEnd_; }
    double elapsedSeconds() const;

Q_SIGNALS:
    void started(const QString& name);
    // A step of the schedule is being applied (setup, timed or end step): its
    // schedule label, the same the headless runner reports in RunResult::steps.
    void stepTaken(const QString& label);
    // A timeline action was applied: its description, with what did not
    // happen as asked appended in parentheses ("(no worker worker-9)"); then
    // `warned` is true.
    void actionApplied(const QString& description, bool warned);
    // The run ended (drained, or its time was over) before these timed steps
    // were due; they were not applied.
    void stepsNotReached(const QStringList& labels);
    // The scenario is over (its natural end, lastEnd(), or stop()).
    void finished(const QString& name);
    void failed(const QString& error);
    // A channel step answered: `text` is "created channel X", "deleted channel
    // X" or, when !ok, "create channel X: <error>" (the run goes on).
    void channelStepDone(bool ok, const QString& text);

private:
    enum class Phase { Idle, Creating, Playing, Ending };

    void begin();
    void tick();
    // Applies a timed step; false when it failed and the scenario stopped.
    bool applyTimed(const runner::ScheduleStep& step);
    bool startWorkers(std::size_t group);
    bool sendTasks();
    // The scenario's tasks go out all at once and are still being sent.
    bool sendingBurst() const;
    // Through runner::applyTimelineAction(), as the headless runner.
    void apply(const runner::TimelineAction& action);
    // A "redrive" action, on a RedriveJob's thread; each move goes into the
    // run's stream as it happens.
    void startRedrive(const runner::TimelineAction& action);
    bool drained() const;
    // The natural end: reports the steps not reached, takes the end steps from
    // `first` on, then finished().
    void finish();
    void takeEndSteps(std::size_t first);
    // The run's pool, created (without workers) when there is none yet;
    // nullptr with *error when not connected.
    workers::WorkerPool* ensurePool(QString* error);
    // Runs `step` off the UI thread, reports it, then calls `then` (also when it failed).
    void runStep(runner::ChannelStep step, std::function<void()> then);

    RunController* run_;
    runner::Scenario scenario_;
    std::optional<runner::ScenarioSchedule> schedule_;
    QTimer timer_;
    QElapsedTimer clock_;
    Phase phase_ = Phase::Idle;
    quint64 generation_ = 0;  // bumped by stop(): late channel-step answers are dropped
    std::function<bool()> drained_;
    std::function<std::uint64_t()> redrivenSeen_;
    std::function<std::vector<std::string>(const std::string&)> deadLetteredIds_;
    int redrivesRunning_ = 0;
    // Moves the redrives of this scenario reported, counted from the jobs'
    // threads; and whether they still report into this run (stop() ends it).
    struct RedriveReports {
        std::atomic<std::uint64_t> moves{0};
        std::atomic<bool> live{true};
    };
    std::shared_ptr<RedriveReports> redriveReports_ = std::make_shared<RedriveReports>();
    std::uint64_t redrivenAtStart_ = 0;  // the run's count when this scenario began
    runner::RunEnd lastEnd_ = runner::RunEnd::None;
};

}  // namespace qs::ui
