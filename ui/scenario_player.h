#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <functional>
#include <vector>

#include "runner/channel_steps.h"
#include "runner/scenario.h"

namespace qs::workers {
class WorkerPool;
}

// Plays a scenario inside the console: creates its channel when it asks for
// that, starts its worker groups and its producer, then applies each timeline
// action (crash, pause, set, scale...) at its time, all on the UI thread, to
// the RunController's pool with runner::applyTimelineAction() (the headless
// runner's own step), telling the RunController what it must mirror (the
// shared configuration, the number of workers). At its natural end it stops
// its workers and deletes the channel when the scenario asks for that.
// Channel management runs on the connection controller's thread pool
// (runner::runChannelStep(), the headless runner's own step); the UI thread
// never waits for it.
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
    // From start() until finished(): creating the channel, playing, or deleting it.
    bool isRunning() const { return timer_.isActive() || phase_ != Phase::Idle; }
    const runner::Scenario& scenario() const { return scenario_; }
    double elapsedSeconds() const;

Q_SIGNALS:
    void started(const QString& name);
    // A timeline action was applied: its description, with what did not
    // happen as asked appended in parentheses ("(no worker worker-9)"); then
    // `warned` is true.
    void actionApplied(const QString& description, bool warned);
    void finished(const QString& name);
    void failed(const QString& error);
    // A channel step answered: `text` is "created channel X", "deleted channel
    // X" or, when !ok, "create channel X: <error>" (the run goes on).
    void channelStepDone(bool ok, const QString& text);

private:
    enum class Phase { Idle, Creating, Playing, Deleting };

    void begin();
    void tick();
    void finish();  // the natural end: end steps, then finished()
    // Through runner::applyTimelineAction(), as the headless runner.
    void apply(const runner::TimelineAction& action);
    // The run's pool, created (without workers) when there is none yet;
    // nullptr with *error when not connected.
    workers::WorkerPool* ensurePool(QString* error);
    // Runs `step` off the UI thread, reports it, then calls `then` (also when it failed).
    void runStep(runner::ChannelStep step, std::function<void()> then);

    RunController* run_;
    runner::Scenario scenario_;
    QTimer timer_;
    QElapsedTimer clock_;
    Phase phase_ = Phase::Idle;
    quint64 generation_ = 0;  // bumped by stop(): late channel-step answers are dropped
    std::size_t nextAction_ = 0;
    std::vector<bool> groupStarted_;
    bool tasksStarted_ = false;
    int nextWorkerNumber_ = 1;
    std::function<bool()> drained_;
};

}  // namespace qs::ui
