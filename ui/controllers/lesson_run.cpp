#include "controllers/lesson_run.h"

#include <algorithm>

#include "controllers/connection_controller.h"
#include "controllers/console_run.h"
#include "controllers/run_controller.h"
#include "controllers/run_recorder.h"
#include "controllers/scenario_player.h"
#include "lessons/lesson_player.h"
#include "lessons/run_facts.h"
#include "models/core_text.h"
#include "models/message_key.h"
#include "runner/run_totals.h"
#include "runner/scenario_runner.h"
#include "workers/worker_pool.h"

namespace qs::ui {

namespace {

constexpr int kLessonCommitPollMs = 50;
// The longest wait for the last run's workers to leave the broker.
constexpr int kSettleMs = 3000;

// The console's names for the events that prove a verdict.
LessonEvidence evidenceOf(const lessons::RunFacts& facts,
                          const std::vector<std::uint32_t>& events) {
    LessonEvidence out;
    const Run& run = facts.run();
    for (const std::uint32_t i : events) {
        if (i >= run.eventCount()) {
            continue;
        }
        const Event& e = run.event(i);
        if (!e.messageId.empty()) {
            if (const auto index = run.messageOfEvent(i)) {
                // A message's key names the channel it was first seen in.
                const auto trail = run.messageEvents(*index);
                const Event& first = trail.empty() ? e : run.event(trail.front());
                const QString key = messageKey(first.channel.view(), e.messageId.view());
                if (!out.messageKeys.contains(key)) {
                    out.messageKeys << key;
                }
            }
        }
        if (e.source == EventSource::Worker && !e.actor.empty()) {
            const QString worker = fromView(e.actor.view());
            if (!out.workers.contains(worker)) {
                out.workers << worker;
            }
        }
        out.timeNs = std::max(out.timeNs, run.streamTimeNs(i));
    }
    return out;
}

}  // namespace

bool LessonStepOutcome::passed() const {
    return !whatIf && problem.isEmpty() && !checks.empty() &&
           std::all_of(checks.begin(), checks.end(), [](const LessonCheckLine& c) {
               return c.verdict == lessons::Verdict::Pass;
           });
}

// What the decision needs, copied from the lesson when the step starts.
struct LessonRun::Job {
    QString lesson;
    std::size_t step = 0;
    lessons::LessonStep spec;  // its checks and prediction
    runner::Scenario scenario;
    std::optional<std::string> answer;
    bool whatIf = false;
    runner::RunResult result;  // how the run ended, as the console saw it
    RunRecorder::ExportMark mark;
};

LessonRun::LessonRun(ScenarioPlayer* player, RunRecorder* recorder, RunController* run,
                     const ConsoleRun* consoleRun, PlayScenario play, QObject* parent)
    : QObject(parent),
      player_(player),
      recorder_(recorder),
      run_(run),
      consoleRun_(consoleRun),
      play_(std::move(play)) {
    qRegisterMetaType<LessonStepOutcome>();
    commitPoll_.setInterval(kLessonCommitPollMs);
    connect(&commitPoll_, &QTimer::timeout, this, &LessonRun::waitForCommit);
    // A start() of the player stops any scenario before it (that one's
    // finished() comes first): the step's run is the one that started next.
    connect(run_->connection(), &ConnectionController::connectionChanged, this,
            &LessonRun::availabilityChanged);
    connect(player_, &ScenarioPlayer::started, this, [this] {
        if (phase_ == Phase::Starting) {
            phase_ = Phase::Playing;
        }
    });
    connect(player_, &ScenarioPlayer::finished, this, [this] {
        if (phase_ == Phase::Playing) {
            scenarioFinished();
        }
    });
    settleBound_.setSingleShot(true);
    settleBound_.setInterval(kSettleMs);
    connect(&settleBound_, &QTimer::timeout, this, &LessonRun::settled);
    connect(consoleRun_, &ConsoleRun::appended, this, [this] {
        if (phase_ != Phase::Settling) {
            return;
        }
        const Run& run = consoleRun_->run();
        for (; scanned_ < run.eventCount(); ++scanned_) {
            const Event& e = run.event(scanned_);
            if (e.kind == EventKind::BrokerClientDisconnected) {
                std::erase(leaving_, std::string(e.actor.view()));
            }
        }
        if (leaving_.empty()) {
            settled();
        }
    });
}

QString LessonRun::unavailableHere(const lessons::Lesson& lesson) {
    ConnectionController* connection = run_->connection();
    const auto client = connection->client();
    if (!client || connection->isEmbedded()) {
        return fromView(lessons::unavailableReason(lesson, {}));
    }
    const auto support = client->channelManagementSupport();
    if (lesson.hasNeed(lessons::Need::ChannelManagement) &&
        support == client::QueuesClient::ChannelManagement::Unknown && !askingSupport_) {
        // Listing the channels is how a client learns it (a server without
        // the contract does not answer the request).
        askingSupport_ = true;
        using ListResult = client::Result<std::vector<client::QueueChannelInfo>>;
        connection->run<ListResult>(
            this, [client] { return client->listQueues(); },
            [this](const ListResult&) {
                askingSupport_ = false;
                Q_EMIT availabilityChanged();
            });
    }
    return fromView(lessons::unavailableOn(lesson, support, client->options().address));
}

LessonRun::~LessonRun() {
    if (decider_.joinable()) {
        decider_.join();
    }
}

bool LessonRun::start(const lessons::Lesson& lesson, std::size_t step,
                      const runner::Scenario& scenario, std::optional<std::string> answer,
                      bool whatIf, QString* error) {
    auto fail = [error](const QString& why) {
        if (error) {
            *error = why;
        }
        return false;
    };
    if (isBusy()) {
        return fail(QStringLiteral("a lesson step is still running"));
    }
    if (step >= lesson.steps.size()) {
        return fail(QStringLiteral("the lesson has no step %1").arg(step + 1));
    }
    if (!run_->connection()->client()) {
        return fail(QStringLiteral("not connected to a server yet (File → Connect, Ctrl+K)"));
    }
    if (decider_.joinable()) {
        decider_.join();  // the last decision has delivered (we are idle)
    }
    job_ = std::make_unique<Job>();
    job_->lesson = fromView(lesson.name);
    job_->step = step;
    job_->spec = lesson.steps[step];
    job_->scenario = scenario;
    if (job_->scenario.name.empty()) {
        // Named in the status bar and the recording's file name.
        job_->scenario.name =
            lesson.name +
            (lesson.steps.size() > 1 ? "-step" + std::to_string(step + 1) : std::string());
        if (whatIf) {
            job_->scenario.name += "-what-if";
        }
    }
    job_->answer = std::move(answer);
    job_->whatIf = whatIf;
    if (const std::string invalid = scenario.validate(); !invalid.empty()) {
        job_.reset();
        return fail(fromView(invalid));
    }
    std::vector<std::string> polling;
    if (const auto snapshot = run_->snapshot()) {
        for (const workers::WorkerSnapshot& w : snapshot->workers) {
            polling.push_back(w.id);
        }
    }
    if (!polling.empty()) {
        settleThenPlay(polling);
        return true;
    }
    QString why;
    if (!play(&why)) {
        phase_ = Phase::Idle;
        job_.reset();
        return fail(why);
    }
    return true;
}

void LessonRun::settleThenPlay(const std::vector<std::string>& workers) {
    phase_ = Phase::Settling;
    leaving_ = workers;
    run_->resetRun();  // the console's run starts over: the broker's goodbyes land in it
    scanned_ = 0;
    settleBound_.start();
    Q_EMIT progress(QStringLiteral("Stopping the last run's workers first…"));
}

void LessonRun::settled() {
    if (phase_ != Phase::Settling) {
        return;
    }
    settleBound_.stop();
    leaving_.clear();
    QString why;
    if (!play(&why)) {
        deliver(undecidedOutcome(QStringLiteral("the run did not start: ") + why));
    }
}

bool LessonRun::play(QString* why) {
    const std::uint64_t seed = job_->spec.seed;
    run_->setNextPoolSeed(seed != 0 ? seed : lessons::kDefaultLessonSeed);
    phase_ = Phase::Starting;
    if (!play_(job_->scenario, why)) {
        run_->setNextPoolSeed(0);
        return false;
    }
    Q_EMIT progress(QStringLiteral("Running on %1… watch the timeline and the worker pool.")
                        .arg(run_->connection()->isEmbedded()
                                 ? QStringLiteral("the embedded broker")
                                 : run_->connection()->settings().address));
    return true;
}

void LessonRun::scenarioFinished() {
    runner::RunResult& r = job_->result;
    r.started = true;
    r.embeddedBroker = run_->connection()->isEmbedded();
    r.address = run_->connection()->settings().address.toStdString();
    r.elapsedSeconds = player_->elapsedSeconds();
    r.drained = player_->lastEnd() == runner::RunEnd::Drained;
    r.timedOut = player_->lastEnd() == runner::RunEnd::TimeBound;
    if (player_->lastEnd() == runner::RunEnd::None) {
        r.warnings.push_back("stopped early on request");  // RunFacts' undecided reason
    }
    r.producer = run_->runCounters().producer;
    r.eventsDropped = consoleRun_->run().summaryNow().droppedEvents;
    // The events the views have now are the run's: its recording is read that far.
    job_->mark = recorder_->markForExport();
    runner::computeLedgerTotals(consoleRun_->run().ledger(), job_->scenario.channel, true, false,
                                r);
    if (job_->mark.path.isEmpty()) {
        const QString why = recorder_->problem().isEmpty()
                                ? QStringLiteral("the console is not recording runs")
                                : recorder_->problem();
        deliver(undecidedOutcome(why + QStringLiteral(", so no check of this run can be read")));
        return;
    }
    phase_ = Phase::Committing;
    commitWaitedMs_ = 0;
    Q_EMIT progress(QStringLiteral("Deciding the checks…"));
    commitPoll_.start();
    waitForCommit();
}

void LessonRun::waitForCommit() {
    if (recorder_->committedThrough(job_->mark)) {
        commitPoll_.stop();
        decide();
        return;
    }
    commitWaitedMs_ += kLessonCommitPollMs;
    if (commitWaitedMs_ > commitTimeoutMs_) {
        commitPoll_.stop();
        deliver(undecidedOutcome(
            QStringLiteral("the run's recording did not commit its events within %1 s")
                .arg(commitTimeoutMs_ / 1000)));
    }
}

void LessonRun::decide() {
    phase_ = Phase::Deciding;
    decider_ = std::thread([this, job = *job_] {
        LessonStepOutcome out;
        out.lesson = job.lesson;
        out.step = static_cast<int>(job.step);
        out.whatIf = job.whatIf;
        out.recordingPath = job.mark.path;
        std::string error;
        std::shared_ptr<const lessons::RunFacts> facts = lessons::RunFacts::fromRecording(
            job.mark.path.toStdString(), job.scenario, job.result, &error, job.mark.events);
        if (!facts) {
            out.problem = QStringLiteral("Cannot read the run's recording: ") + fromView(error);
        } else {
            for (const lessons::CheckSpec& spec : job.spec.checks) {
                const lessons::CheckResult c = lessons::evaluateCheck(spec, *facts);
                out.checks.push_back({c.verdict, fromView(c.title), fromView(c.sentence),
                                      evidenceOf(*facts, c.evidence)});
            }
            if (job.spec.prediction) {
                const lessons::Grade g =
                    lessons::gradePrediction(*job.spec.prediction, job.answer, *facts);
                out.grade = LessonGradeLine{g.outcome, fromView(job.answer.value_or("")),
                                            fromView(g.actual), fromView(g.explanation),
                                            evidenceOf(*facts, g.evidence)};
            }
            out.facts = std::move(facts);
        }
        QMetaObject::invokeMethod(
            this, [this, out = std::move(out)]() mutable { deliver(std::move(out)); },
            Qt::QueuedConnection);
    });
}

LessonStepOutcome LessonRun::undecidedOutcome(const QString& why) const {
    LessonStepOutcome out;
    out.lesson = job_->lesson;
    out.step = static_cast<int>(job_->step);
    out.whatIf = job_->whatIf;
    out.problem = why;
    return out;
}

void LessonRun::deliver(LessonStepOutcome outcome) {
    phase_ = Phase::Idle;
    job_.reset();
    Q_EMIT decided(outcome);
}

}  // namespace qs::ui
