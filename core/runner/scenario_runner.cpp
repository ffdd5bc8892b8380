#include "runner/scenario_runner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>

#include "broker/broker.h"
#include "client/queues_client.h"
#include "common/clock.h"
#include "common/number_text.h"
#include "events/broker_event_sink.h"
#include "events/event_stream.h"
#include "runner/channel_steps.h"
#include "runner/event_recorder.h"
#include "runner/run_recording.h"
#include "runner/run_totals.h"
#include "runner/scenario_schedule.h"
#include "runner/timeline_step.h"
#include "workers/worker_pool.h"

namespace qs::runner {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kStreamCapacity = 1u << 20;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// Whether tasks may end up waiting outside the scenario's channel (re-queued,
// redriven elsewhere): the recorder then counts them apart.
bool tasksMayWaitElsewhere(const Scenario& s) {
    for (const WorkerGroup& g : s.workers) {
        if (g.config.onFailure == workers::FailureAction::Requeue) {
            return true;
        }
    }
    for (const TimelineAction& a : s.timeline) {
        if (a.kind == ActionKind::Set && a.patch.onFailure == workers::FailureAction::Requeue) {
            return true;
        }
        if (a.kind == ActionKind::Redrive && !a.to.empty() && a.to != s.channel) {
            return true;  // the moved tasks wait in another channel, as re-queued ones do
        }
    }
    return false;
}

// One headless run from setup to result. ScenarioRunner::run() calls its parts
// in order: setUp(), playSchedule(), end(), then result(). The steps and their
// order come from the ScenarioSchedule, which the console's player drives too.
class RunSession {
public:
    RunSession(const Scenario& sc, const RunOptions& options, const std::atomic<bool>& stop)
        : sc_(sc),
          options_(options),
          stopRequested_(stop),
          schedule_(sc, PoolAtEnd::Stop),
          stream_(kStreamCapacity, options.recordEvents),
          ledgerOptions_(ledgerOptionsFor(sc)),
          recording_(result_),
          recorder_(stream_, ledgerOptions_, sc.channel, tasksMayWaitElsewhere(sc)) {}

    // The event logs, the broker, the admin client and the setup steps; false
    // (with result().error) when the run cannot start.
    bool setUp();
    // The timed steps, each when due, until the schedule's end rule, a failed
    // step or a stop request ends the run.
    void playSchedule();
    // The end steps, then the recorder and the broker go.
    void end();
    // What the ledger and the pool say about the run.
    RunResult result();
    // The result of a run that did not start (its recording says so).
    RunResult failedSetUp() {
        recording_.finish(result_);
        return std::move(result_);
    }

private:
    bool openOutputs();
    bool startBroker();
    bool connectAdmin();
    void createProducerAndPool();
    void applyTimed(const ScheduleStep& step);
    void applyEnd(const ScheduleStep& step);
    void sendTasks();
    void startWorkers(std::size_t group);
    void applyAction(const TimelineAction& action);
    void redriveNow(const TimelineAction& action);
    void runChannel(ChannelStep step);
    void stopPool();
    void waitForQuietStream();
    bool drained() const;
    bool cancelled() const;
    void shutdownBroker();
    void log(const std::string& line) const {
        if (options_.log) {
            options_.log(line);
        }
    }

    const Scenario& sc_;
    const RunOptions& options_;
    const std::atomic<bool>& stopRequested_;
    RunResult result_;
    ScenarioSchedule schedule_;
    EventStream stream_;
    LedgerOptions ledgerOptions_;
    // Before the recorder, which hands it events: it outlives it.
    RunRecording recording_;
    EventRecorder recorder_;
    std::unique_ptr<broker::Broker> broker_;
    std::unique_ptr<BrokerEventSink> sink_;
    client::ClientOptions clientOptions_;
    std::unique_ptr<client::QueuesClient> admin_;
    std::unique_ptr<workers::TaskProducer> producer_;
    std::unique_ptr<workers::WorkerPool> pool_;
    bool producerStarted_ = false;
    std::uint64_t seed_ = 0;
    Clock::time_point start_;
};

bool RunSession::setUp() {
    if (!openOutputs() || !startBroker()) {
        return false;
    }
    std::vector<std::string> redriveSources;
    for (const TimelineAction& a : sc_.timeline) {
        if (a.kind == ActionKind::Redrive) {
            redriveSources.push_back(a.from);
        }
    }
    recorder_.watchDeadLetters(std::move(redriveSources));
    recorder_.start();
    if (!connectAdmin()) {
        recorder_.finish();
        shutdownBroker();
        return false;
    }
    for (const ScheduleStep& step : schedule_.setupSteps()) {
        result_.steps.push_back(step.label);
        runChannel(ChannelStep::Create);
    }
    result_.started = true;
    createProducerAndPool();
    return true;
}

// The event logs and the recording (with the run's settings).
bool RunSession::openOutputs() {
    const std::int64_t originNs = monotonicNanos();
    if (!recorder_.openLogs(options_.eventsCsvPath, options_.eventsJsonlPath, originNs,
                            &result_.error) ||
        !recording_.open(options_.recordingPath, originNs, &result_.error)) {
        return false;
    }
    seed_ = resolveSeed(options_.seed);
    if (recording_.writer() != nullptr) {
        recordRunSettings(*recording_.writer(), sc_, options_, ledgerOptions_, seed_);
        recorder_.setRecording(recording_.writer());
    }
    return true;
}

// Embedded on an ephemeral port, its observer feeding the run's stream, or a
// remote server.
bool RunSession::startBroker() {
    if (!options_.address.empty()) {
        result_.address = options_.address;
        log("using KubeMQ server at " + result_.address);
        return true;
    }
    broker::BrokerOptions bo;
    bo.bindAddress = "127.0.0.1";
    bo.port = 0;
    broker_ = std::make_unique<broker::Broker>(bo);
    sink_ = std::make_unique<BrokerEventSink>(stream_);
    broker_->setObserver(sink_.get());
    std::string error;
    if (!broker_->start(&error)) {
        broker_->setObserver(nullptr);
        result_.error = "embedded broker did not start: " + error;
        return false;
    }
    result_.address = broker_->address();
    result_.embeddedBroker = true;
    log("embedded broker on " + result_.address);
    return true;
}

bool RunSession::connectAdmin() {
    clientOptions_.address = result_.address;
    clientOptions_.authToken = options_.authToken;
    clientOptions_.clientId = "queuescope-runner";
    auto created = client::QueuesClient::create(clientOptions_);
    if (!created.ok()) {
        result_.error = "cannot create a client: " + created.error().describe();
        return false;
    }
    admin_ = std::move(created).value();
    auto ping = admin_->ping();
    if (!ping.ok()) {
        result_.error =
            "cannot reach the broker at " + result_.address + ": " + ping.error().describe();
        return false;
    }
    if (recording_.writer() != nullptr) {
        recordBroker(*recording_.writer(), result_.address, result_.embeddedBroker,
                     ping.value().version);
    }
    return true;
}

void RunSession::createProducerAndPool() {
    workers::ProducerOptions producerOptions;
    producerOptions.client = clientOptions_;
    producerOptions.client.clientId = "producer";
    producerOptions.events = &stream_;
    producer_ = std::make_unique<workers::TaskProducer>(producerOptions, sc_.taskSpec());

    workers::PoolOptions poolOptions;
    poolOptions.client = clientOptions_;
    poolOptions.channel = sc_.channel;
    poolOptions.events = &stream_;
    poolOptions.seed = seed_;
    pool_ = std::make_unique<workers::WorkerPool>(poolOptions, sc_.workers.front().config);
}

void RunSession::playSchedule() {
    start_ = Clock::now();
    for (;;) {
        const double t = secondsSince(start_);
        while (result_.error.empty()) {
            const ScheduleStep* step = schedule_.takeDue(t);
            if (step == nullptr) {
                break;
            }
            log("t=" + fixedPoint(t, 2) + "s " + step->label);
            applyTimed(*step);
        }
        if (!result_.error.empty()) {
            break;
        }
        if (cancelled()) {
            result_.warnings.push_back("stopped early on request");
            break;
        }
        if (const RunEnd end = schedule_.endAt(t, sc_.untilDrained && drained());
            end != RunEnd::None) {
            result_.drained = end == RunEnd::Drained;
            result_.timedOut = end == RunEnd::TimeBound;
            log("t=" + fixedPoint(t, 2) + "s " + std::string(describe(end)));
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    for (const ScheduleStep& step : schedule_.untaken()) {
        result_.warnings.push_back("not reached: " + step.label);
    }
}

void RunSession::applyTimed(const ScheduleStep& step) {
    result_.steps.push_back(step.label);
    switch (step.kind) {
        case StepKind::SendTasks:
            sendTasks();
            break;
        case StepKind::StartWorkers:
            startWorkers(step.index);
            break;
        case StepKind::Action:
            applyAction(sc_.timeline[step.index]);
            break;
        default:
            break;  // setup and end steps are not timed
    }
}

// All at once: sent before the next step (the workers find a full queue).
void RunSession::sendTasks() {
    std::string error;
    const bool ok = sc_.tasks.rate > 0.0 ? producer_->start(&error) : producer_->run(&error);
    if (!ok) {
        result_.error = "producer: " + error;
    }
    producerStarted_ = ok;
}

void RunSession::startWorkers(std::size_t group) {
    const int count = sc_.workers[group].count;
    std::string error;
    const auto ids = pool_->addWorkers(count, &error, sc_.groupOverride(group));
    if (static_cast<int>(ids.size()) != count) {
        result_.error = "workers: " + error;
    }
}

void RunSession::applyAction(const TimelineAction& action) {
    if (action.kind == ActionKind::Redrive) {
        redriveNow(action);
        return;
    }
    for (const auto& warning : applyTimelineAction(*pool_, action).warnings) {
        result_.warnings.push_back(action.describe() + ": " + warning);
    }
}

// Moves the run's own dead letters (never another run's, on a shared server)
// and blocks this thread meanwhile (seconds; the workers go on). Each move
// goes into the run, and the run waits until its ledger has them all, so the
// drained rule sees the tasks back before it is asked again.
void RunSession::redriveNow(const TimelineAction& action) {
    const std::uint64_t before = recorder_.status().summary.redriven;
    std::uint64_t reported = 0;
    RedriveOptions options = redriveOptionsFor(action);
    options.ids = recorder_.deadLetteredIn(action.from);
    if (options.ids.empty()) {
        log("  none of this run's tasks is dead-lettered in " + action.from + ": nothing to move");
        return;
    }
    options.batch = redriveBatchFor(options.ids);
    options.cancel = options_.cancelFlag != nullptr ? options_.cancelFlag : &stopRequested_;
    options.report = [&](const Event& moved) {
        stream_.push(moved);
        ++reported;
    };
    const RedriveReport report = redrive(*admin_, options);
    log("  " + describe(report));
    if (!report.ok()) {
        result_.warnings.push_back(action.describe() + ": " + describe(report));
    }
    const auto deadline = Clock::now() + std::chrono::seconds(30);
    while (recorder_.status().summary.redriven < before + reported && Clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

void RunSession::runChannel(ChannelStep step) {
    if (auto outcome = runChannelStep(*admin_, sc_, step)) {
        if (outcome->ok) {
            log(outcome->text);
        } else {
            result_.warnings.push_back(outcome->text);
        }
    }
}

bool RunSession::drained() const {
    if (!producerStarted_) {
        return false;
    }
    const workers::ProducerProgress p = producer_->progress();
    const RecorderStatus st = recorder_.status();
    const auto count = static_cast<std::uint64_t>(sc_.tasks.count);
    return p.finished && p.sent + p.failed == count && st.summary.sent >= count &&
           st.summary.unfinished() <= st.movedElsewhere;
}

bool RunSession::cancelled() const {
    return stopRequested_.load() || (options_.cancelFlag != nullptr && options_.cancelFlag->load());
}

void RunSession::end() {
    for (const ScheduleStep& step : schedule_.endSteps()) {
        result_.steps.push_back(step.label);
        applyEnd(step);
    }
    admin_.reset();
    recorder_.finish();
    shutdownBroker();
    result_.elapsedSeconds = secondsSince(start_);
}

void RunSession::applyEnd(const ScheduleStep& step) {
    switch (step.kind) {
        case StepKind::StopProducer:
            producer_->stop();
            producer_->wait();
            break;
        case StepKind::StopWorkers:
            stopPool();
            break;
        case StepKind::DeleteChannel:
            runChannel(ChannelStep::Delete);
            break;
        default:
            break;  // not an end step
    }
}

void RunSession::stopPool() {
    const auto stopStart = Clock::now();
    pool_->stop();
    log("pool stopped in " + fixedPoint(secondsSince(stopStart), 2) + " s");
    waitForQuietStream();
}

// Lets the broker's reaction to the closed streams (returned messages) reach
// the ledger: waits until the stream has been quiet for a moment.
void RunSession::waitForQuietStream() {
    if (!options_.recordEvents) {
        return;
    }
    const auto quietDeadline = Clock::now() + std::chrono::seconds(2);
    std::uint64_t lastSeen = ~std::uint64_t{0};
    while (Clock::now() < quietDeadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(60));
        const std::uint64_t pushed = stream_.pushedCount();
        if (pushed == lastSeen &&
            recorder_.status().eventsRecorded + stream_.droppedCount() >= pushed) {
            break;
        }
        lastSeen = pushed;
    }
}

void RunSession::shutdownBroker() {
    if (broker_) {
        broker_->setObserver(nullptr);
        broker_->stop();
    }
}

RunResult RunSession::result() {
    result_.producer = producer_->progress();
    result_.pool = pool_->snapshot();
    result_.eventsRecorded = recorder_.status().eventsRecorded;
    result_.eventsDropped = stream_.droppedCount();
    result_.eventsWritten = recorder_.eventsWritten();
    if (std::string writeError = recorder_.status().writeError; !writeError.empty()) {
        result_.error = "event log: " + writeError;
    }
    computeLedgerTotals(recorder_.ledger(), sc_.channel, options_.recordEvents,
                        options_.keepMessageRecords, result_);
    recording_.finish(result_);
    return std::move(result_);
}

}  // namespace

int RunResult::exitCode() const {
    if (!started || !error.empty()) {
        return 3;
    }
    if (tasksLost > 0 || totals.sendFailed > 0 || producer.failed > 0) {
        return 1;
    }
    return 0;
}

ScenarioRunner::ScenarioRunner(Scenario scenario, RunOptions options)
    : scenario_(std::move(scenario)), options_(std::move(options)) {}

RunResult ScenarioRunner::run() {
    if (std::string problems = scenario_.validate(); !problems.empty()) {
        RunResult result;
        result.error = problems;
        return result;
    }
    RunSession session(scenario_, options_, stopRequested_);
    if (!session.setUp()) {
        return session.failedSetUp();
    }
    session.playSchedule();
    session.end();
    return session.result();
}

LedgerOptions ledgerOptionsFor(const Scenario& sc) {
    LedgerOptions options;
    options.maxReceiveCount = sc.tasks.policy.maxReceiveCount;
    options.maxPendingDerivedEvents = 100000;
    options.maxFinishedMessages = std::max<std::size_t>(100000, sc.tasks.count + 1000);
    return options;
}

}  // namespace qs::runner
