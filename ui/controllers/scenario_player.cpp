#include "controllers/scenario_player.h"

#include "controllers/connection_controller.h"
#include "controllers/redrive_job.h"
#include "controllers/run_controller.h"
#include "models/core_text.h"
#include "runner/scenario_runner.h"
#include "runner/timeline_step.h"
#include "workers/worker_pool.h"

namespace qs::ui {

ScenarioPlayer::ScenarioPlayer(RunController* run, QObject* parent) : QObject(parent), run_(run) {
    timer_.setInterval(50);
    connect(&timer_, &QTimer::timeout, this, &ScenarioPlayer::tick);
    // A channel step's answer for an older connection never comes back (the
    // controller drops it): do not wait for it forever.
    connect(run_->connection(), &ConnectionController::connectionChanged, this, [this] {
        if (phase_ == Phase::Creating || phase_ == Phase::Ending) {
            const QString name = fromView(scenario_.name);
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
            *error = fromView(problem);
        }
        return false;
    }
    stop();
    lastEnd_ = runner::RunEnd::None;
    run_->resetRun(runner::ledgerOptionsFor(scenario));
    redriveReports_ = std::make_shared<RedriveReports>();
    redrivesRunning_ = 0;
    redrivenAtStart_ = redrivenSeen_ ? redrivenSeen_() : 0;
    scenario_ = scenario;
    schedule_.emplace(scenario_, runner::PoolAtEnd::KeepUnlessChannelDeleted);
    run_->setChannel(fromView(scenario.channel));
    run_->setConfig(scenario.workers.front().config);
    clock_.invalidate();
    Q_EMIT started(fromView(scenario.name));
    // The only setup step is the channel's creation; the clock starts at its answer.
    if (!schedule_->setupSteps().empty()) {
        phase_ = Phase::Creating;
        Q_EMIT stepTaken(fromView(schedule_->setupSteps().front().label));
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
    // A redrive still under way goes on to its end (a move in flight must
    // finish to lose nothing) but no longer reports into this run.
    redriveReports_->live.store(false);
    const bool wasRunning = isRunning();
    timer_.stop();
    phase_ = Phase::Idle;
    if (wasRunning) {
        Q_EMIT finished(fromView(scenario_.name));
    }
}

void ScenarioPlayer::tick() {
    if (sendingBurst()) {
        return;  // the steps due meanwhile follow once every task is on the queue
    }
    const double t = elapsedSeconds();
    while (const runner::ScheduleStep* step = schedule_->takeDue(t)) {
        Q_EMIT stepTaken(fromView(step->label));
        if (!applyTimed(*step)) {
            return;
        }
        // As the headless runner sends a burst before its next step (the
        // workers find a full queue), the steps after it wait for its end.
        if (step->kind == runner::StepKind::SendTasks && scenario_.tasks.rate <= 0.0 &&
            sendingBurst()) {
            return;
        }
    }
    const runner::RunEnd end = schedule_->endAt(t, scenario_.untilDrained && drained());
    if (end != runner::RunEnd::None) {
        lastEnd_ = end;
        finish();
    }
}

bool ScenarioPlayer::applyTimed(const runner::ScheduleStep& step) {
    switch (step.kind) {
        case runner::StepKind::SendTasks:
            return sendTasks();
        case runner::StepKind::StartWorkers:
            return startWorkers(step.index);
        case runner::StepKind::Action:
            apply(scenario_.timeline[step.index]);
            return true;
        default:
            return true;  // setup and end steps are not timed
    }
}

// As in the headless runner, a group that does not fully start ends the scenario.
bool ScenarioPlayer::startWorkers(std::size_t group) {
    QString error;
    workers::WorkerPool* pool = ensurePool(&error);
    std::string why;
    const int count = scenario_.workers[group].count;
    if (pool) {
        const auto ids = pool->addWorkers(count, &why, scenario_.groupOverride(group));
        Q_EMIT run_->poolChanged();
        if (static_cast<int>(ids.size()) == count) {
            return true;
        }
        error = fromView(why);
    }
    Q_EMIT failed(QStringLiteral("Cannot start workers: ") + error);
    stop();
    return false;
}

bool ScenarioPlayer::sendingBurst() const {
    const auto progress = run_->producerProgress();
    return scenario_.tasks.rate <= 0.0 && scenario_.tasks.count > 0 && progress &&
           !progress->finished;
}

// As in the headless runner, tasks that cannot be sent end the scenario.
bool ScenarioPlayer::sendTasks() {
    const workers::TaskSpec spec = scenario_.taskSpec();
    QString error;
    if (spec.count == 0 || run_->startProducer(spec, &error)) {
        return true;
    }
    Q_EMIT failed(QStringLiteral("Cannot send tasks: ") + error);
    stop();
    return false;
}

// Every task sent (or none to send) and every one settled for good. A
// producer stopped by hand is gone: what it sent is what there is to settle.
bool ScenarioPlayer::drained() const {
    if (scenario_.tasks.count == 0) {
        return true;
    }
    const auto progress = run_->producerProgress();
    const std::uint64_t moves = redriveReports_->moves.load();
    const bool movesSeen = !redrivenSeen_ || redrivenSeen_() >= redrivenAtStart_ + moves;
    return (!progress || progress->finished) && redrivesRunning_ == 0 && movesSeen && drained_ &&
           drained_();
}

void ScenarioPlayer::finish() {
    timer_.stop();
    QStringList notReached;
    for (const runner::ScheduleStep& step : schedule_->untaken()) {
        notReached << fromView(step.label);
    }
    if (!notReached.isEmpty()) {
        Q_EMIT stepsNotReached(notReached);
    }
    phase_ = Phase::Ending;
    takeEndSteps(0);
}

void ScenarioPlayer::takeEndSteps(std::size_t first) {
    const auto& steps = schedule_->endSteps();
    for (std::size_t i = first; i < steps.size(); ++i) {
        Q_EMIT stepTaken(fromView(steps[i].label));
        switch (steps[i].kind) {
            case runner::StepKind::StopProducer:
                run_->stopProducer();
                break;
            case runner::StepKind::StopWorkers:
                // Shrinking the pool cancels the polls, then joins.
                run_->setWorkerCount(0);
                break;
            case runner::StepKind::DeleteChannel:
                runStep(runner::ChannelStep::Delete, [this, i] { takeEndSteps(i + 1); });
                return;
            default:
                break;  // not an end step
        }
    }
    stop();
}

void ScenarioPlayer::runStep(runner::ChannelStep step, std::function<void()> then) {
    ConnectionController* connection = run_->connection();
    std::shared_ptr<client::QueuesClient> client = connection->client();
    if (!client) {
        const std::string verb = step == runner::ChannelStep::Create ? "create" : "delete";
        Q_EMIT channelStepDone(false, fromView(verb + " channel " + scenario_.channel) +
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
                Q_EMIT channelStepDone(r->ok, fromView(r->text));
            }
            then();
        });
}

workers::WorkerPool* ScenarioPlayer::ensurePool(QString* error) {
    if (!run_->pool() && !run_->setWorkerCount(0, error)) {
        return nullptr;
    }
    return run_->pool();
}

void ScenarioPlayer::apply(const runner::TimelineAction& a) {
    if (a.kind == runner::ActionKind::Redrive) {
        startRedrive(a);
        return;
    }
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
    Q_EMIT actionApplied(fromView(description), !problems.empty());
}

void ScenarioPlayer::startRedrive(const runner::TimelineAction& a) {
    const QString description = fromView(a.describe());
    ConnectionController* connection = run_->connection();
    if (!connection->client()) {
        Q_EMIT actionApplied(description + QStringLiteral(" (not connected to a server)"), true);
        return;
    }
    runner::RedriveOptions options = runner::redriveOptionsFor(a);
    if (deadLetteredIds_) {
        options.ids = deadLetteredIds_(a.from);
    }
    if (options.ids.empty()) {
        Q_EMIT actionApplied(description + QStringLiteral(" (none of this run's tasks is "
                                                          "dead-lettered there: nothing to move)"),
                             false);
        return;
    }
    options.batch = runner::redriveBatchFor(options.ids);
    options.report = [stream = &run_->stream(), reports = redriveReports_](const Event& moved) {
        if (reports->live.load()) {
            stream->push(moved);
            reports->moves.fetch_add(1);
        }
    };
    auto* job = new RedriveJob(this);  // joined by its destructor, at the latest with this
    const quint64 generation = generation_;
    connect(job, &RedriveJob::finished, this,
            [this, job, description, generation](const RedriveResult& result) {
                job->deleteLater();
                if (generation != generation_) {
                    return;  // stopped meanwhile: this run no longer waits for it
                }
                --redrivesRunning_;
                Q_EMIT actionApplied(description + QStringLiteral(" (%1)").arg(
                                                       fromView(runner::describe(result.report))),
                                     !result.report.ok());
            });
    const QString problem = job->start(
        connection->settings().toClientOptions(QStringLiteral("-redrive")), std::move(options));
    if (!problem.isEmpty()) {
        delete job;
        Q_EMIT actionApplied(description + QStringLiteral(" (%1)").arg(problem), true);
        return;
    }
    ++redrivesRunning_;
}

}  // namespace qs::ui
