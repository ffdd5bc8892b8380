#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <functional>
#include <vector>

#include "runner/scenario.h"

// Plays a scenario inside the console: starts its worker groups and its
// producer, then applies each timeline action (crash, pause, set, scale...)
// at its time, all on the UI thread through the RunController, so what a
// scenario does is exactly what the buttons do.
namespace qs::ui {

class RunController;

class ScenarioPlayer : public QObject {
    Q_OBJECT
public:
    explicit ScenarioPlayer(RunController* run, QObject* parent = nullptr);

    // False (with *error) when the scenario is invalid or the run cannot start.
    bool start(const runner::Scenario& scenario, QString* error = nullptr);
    void stop();
    // True when every task is settled for good (the console's own view);
    // used to end "untilDrained" scenarios.
    void setDrainedCheck(std::function<bool()> check) { drained_ = std::move(check); }
    bool isRunning() const { return timer_.isActive(); }
    const runner::Scenario& scenario() const { return scenario_; }
    double elapsedSeconds() const;

Q_SIGNALS:
    void started(const QString& name);
    void actionApplied(const QString& description);
    void finished(const QString& name);
    void failed(const QString& error);

private:
    void tick();
    void apply(const runner::TimelineAction& action);

    RunController* run_;
    runner::Scenario scenario_;
    QTimer timer_;
    QElapsedTimer clock_;
    std::size_t nextAction_ = 0;
    std::vector<bool> groupStarted_;
    bool tasksStarted_ = false;
    int nextWorkerNumber_ = 1;
    std::function<bool()> drained_;
};

}  // namespace qs::ui
