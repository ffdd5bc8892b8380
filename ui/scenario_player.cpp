#include "scenario_player.h"

#include "connection_controller.h"
#include "run_controller.h"
#include "runner/timeline_step.h"
#include "workers/worker_pool.h"

namespace qs::ui {

namespace {
QString q(const std::string& s) {
    return QString::fromStdString(s);
}
}  // namespace

ScenarioPlayer::ScenarioPlayer(RunController* run, QObject* parent) : QObject(parent), run_(run) {
    timer_.setInterval(50);
    connect(&timer_, &QTimer::timeout, this, &ScenarioPlayer::tick);
    // A channel step's answer for an older connection never comes back (the
    // controller drops it): do not wait for it forever.
    connect(run_->connection(), &ConnectionController::connectionChanged, this, [this] {
        if (phase_ == Phase::Creating || phase_ == Phase::Deleting) {
            const QString name = q(scenario_.name);
            stop();
            Q_EMIT failed(QStringLiteral("Scenario \"%1\": the connection changed during a "
                                         "channel step; scenario stopped")
                              .arg(name));
        }
    });
}

double ScenarioPlayer::elapsedSeconds() const {
    return clock_.isValid() ? static_cast<double>(clock_.nsecsElapsed()) / 1e9 : 0.0;
}

bool ScenarioPlayer::start(const runner::Scenario& scenario, QString* error) {
    if (const std::string problem = scenario.validate(); !problem.empty()) {
        if (error) {
            *error = q(problem);
        }
        return false;
    }
    stop();
    run_->resetRun();
    scenario_ = scenario;
    run_->setChannel(q(scenario.channel));
    if (!scenario.workers.empty()) {
        run_->setConfig(scenario.workers.front().config);
    }
    nextAction_ = 0;
    groupStarted_.assign(scenario.workers.size(), false);
    tasksStarted_ = false;
    nextWorkerNumber_ = 1;
    clock_.invalidate();
    Q_EMIT started(q(scenario.name));
    if (runner::wantsChannelStep(scenario_, runner::ChannelStep::Create)) {
        phase_ = Phase::Creating;
        runStep(runner::ChannelStep::Create, [this] { begin(); });
    } else {
        begin();
    }
    return true;
}

void ScenarioPlayer::begin() {
    phase_ = Phase::Playing;
    clock_.start();
    timer_.start();
    tick();
}

void ScenarioPlayer::stop() {
    ++generation_;
    const bool wasRunning = isRunning();
    timer_.stop();
    phase_ = Phase::Idle;
    if (wasRunning) {
        Q_EMIT finished(q(scenario_.name));
    }
}

void ScenarioPlayer::finish() {
    timer_.stop();
    if (!runner::wantsChannelStep(scenario_, runner::ChannelStep::Delete)) {
        stop();
        return;
    }
    // As the headless runner: nothing may still send to or poll the channel
    // when it is deleted. Shrinking the pool cancels the polls, then joins.
    phase_ = Phase::Deleting;
    run_->stopProducer();
    run_->setWorkerCount(0);
    runStep(runner::ChannelStep::Delete, [this] { stop(); });
}

void ScenarioPlayer::runStep(runner::ChannelStep step, std::function<void()> then) {
    ConnectionController* connection = run_->connection();
    std::shared_ptr<client::QueuesClient> client = connection->client();
    if (!client) {
        const std::string verb = step == runner::ChannelStep::Create ? "create" : "delete";
        Q_EMIT channelStepDone(false, q(verb + " channel " + scenario_.channel) +
                                          QStringLiteral(": not connected to a server"));
        then();
        return;
    }
    const quint64 generation = generation_;
    connection->run<std::optional<runner::ChannelStepResult>>(
        this,
        [client, scenario = scenario_, step] {
            return runner::runChannelStep(*client, scenario, step);
        },
        [this, generation, then = std::move(then)](std::optional<runner::ChannelStepResult> r) {
            if (generation != generation_) {
                return;  // stopped (or restarted) meanwhile
            }
            if (r) {
                Q_EMIT channelStepDone(r->ok, q(r->text));
            }
            then();
        });
}

void ScenarioPlayer::tick() {
    const double t = elapsedSeconds();
    for (std::size_t g = 0; g < scenario_.workers.size(); ++g) {
        const runner::WorkerGroup& group = scenario_.workers[g];
        if (groupStarted_[g] || t < group.startAt) {
            continue;
        }
        groupStarted_[g] = true;
        QString error;
        workers::WorkerPool* pool = ensurePool(&error);
        if (!pool) {
            Q_EMIT failed(QStringLiteral("Cannot start workers: ") + error);
            stop();
            return;
        }
        std::string why;
        const auto ids = pool->addWorkers(group.count, &why, scenario_.groupOverride(g));
        if (ids.empty() && group.count > 0) {
            Q_EMIT failed(QStringLiteral("Cannot start workers: ") + q(why));
            stop();
            return;
        }
        Q_EMIT run_->poolChanged();
    }
    if (!tasksStarted_ && t >= scenario_.tasks.startAt) {
        tasksStarted_ = true;
        const workers::TaskSpec spec = scenario_.taskSpec();
        QString error;
        if (spec.count > 0 && !run_->startProducer(spec, &error)) {
            Q_EMIT failed(QStringLiteral("Cannot send tasks: ") + error);
        }
    }
    while (nextAction_ < scenario_.timeline.size() && scenario_.timeline[nextAction_].at <= t) {
        apply(scenario_.timeline[nextAction_]);
        ++nextAction_;
    }
    const bool actionsDone = nextAction_ >= scenario_.timeline.size();
    if (!scenario_.untilDrained) {
        if (t >= scenario_.runForSeconds && actionsDone) {
            finish();
        }
        return;
    }
    if (t >= scenario_.timeoutSeconds) {
        finish();
        return;
    }
    // Drained: every task sent and every one of them settled for good.
    const auto progress = run_->producerProgress();
    if (actionsDone && tasksStarted_ && (!progress || progress->finished) && drained_ &&
        drained_()) {
        finish();
    }
}

workers::WorkerPool* ScenarioPlayer::ensurePool(QString* error) {
    if (!run_->pool() && !run_->setWorkerCount(0, error)) {
        return nullptr;
    }
    return run_->pool();
}

void ScenarioPlayer::apply(const runner::TimelineAction& a) {
    std::vector<std::string> problems;  // what did not happen as asked
    QString error;
    // As in the headless runner, the pool exists before its first workers do:
    // an action ahead of them (a pool-wide "set") still applies.
    if (workers::WorkerPool* pool = ensurePool(&error)) {
        runner::TimelineStepResult r = runner::applyTimelineAction(*pool, a);
        problems = std::move(r.warnings);
        if (r.sharedConfig) {
            // The pool has it already; the run controller's copy moves the sliders.
            run_->setConfig(*r.sharedConfig);
        }
        if (r.workersChanged) {
            Q_EMIT run_->poolChanged();
        }
    } else {
        problems.push_back(error.toStdString());
    }
    std::string description = a.describe();
    for (const auto& problem : problems) {
        description += " (" + problem + ")";
    }
    Q_EMIT actionApplied(q(description), !problems.empty());
}

}  // namespace qs::ui
