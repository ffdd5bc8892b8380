#include "runner/scenario_runner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>

#include "broker/broker.h"
#include "client/queues_client.h"
#include "common/clock.h"
#include "events/broker_event_sink.h"
#include "events/event_stream.h"
#include "runner/channel_steps.h"
#include "runner/event_recorder.h"
#include "runner/run_recording.h"
#include "runner/run_totals.h"
#include "runner/timeline_step.h"
#include "workers/worker_pool.h"

namespace qs::runner {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kStreamCapacity = 1u << 20;

std::string seconds(double s) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f", s);
    return buffer;
}

bool usesRequeue(const Scenario& s) {
    for (const WorkerGroup& g : s.workers) {
        if (g.config.onFailure == workers::FailureAction::Requeue) {
            return true;
        }
    }
    for (const TimelineAction& a : s.timeline) {
        if (a.kind == ActionKind::Set && a.patch.onFailure == workers::FailureAction::Requeue) {
            return true;
        }
    }
    return false;
}

std::uint64_t unfinished(const LedgerSummary& s) {
    return s.count(MessageState::Waiting) + s.count(MessageState::Delayed) +
           s.count(MessageState::InFlight);
}

// One scheduled step of the run.
struct Step {
    double at = 0.0;
    int order = 0;  // ties: tasks sent at once, then worker groups, then actions
    std::string label;
    std::function<void()> run;
};

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
    RunResult result;
    auto log = [this](const std::string& line) {
        if (options_.log) {
            options_.log(line);
        }
    };
    if (std::string problems = scenario_.validate(); !problems.empty()) {
        result.error = problems;
        return result;
    }
    const Scenario& sc = scenario_;

    EventStream stream(kStreamCapacity, options_.recordEvents);
    LedgerOptions ledgerOptions;
    ledgerOptions.maxReceiveCount = sc.tasks.policy.maxReceiveCount;
    ledgerOptions.maxPendingDerivedEvents = 100000;
    ledgerOptions.maxFinishedMessages = std::max<std::size_t>(100000, sc.tasks.count + 1000);
    // Declared before the recorder, which hands it events: it outlives it.
    RunRecording recording(result);
    EventRecorder recorder(stream, ledgerOptions, sc.channel, usesRequeue(sc));
    const std::int64_t originNs = monotonicNanos();
    if (!recorder.openLogs(options_.eventsCsvPath, options_.eventsJsonlPath, originNs,
                           &result.error)) {
        return result;
    }
    if (!recording.open(options_.recordingPath, originNs, &result.error)) {
        return result;
    }
    const std::uint64_t seed = resolveSeed(options_.seed);
    if (recording.writer() != nullptr) {
        recordRunSettings(*recording.writer(), sc, options_, ledgerOptions, seed);
        recorder.setRecording(recording.writer());
    }

    // The broker: embedded on an ephemeral port, its observer feeding the
    // same stream, or a remote server.
    std::unique_ptr<broker::Broker> broker;
    std::unique_ptr<BrokerEventSink> sink;
    if (options_.address.empty()) {
        broker::BrokerOptions bo;
        bo.bindAddress = "127.0.0.1";
        bo.port = 0;
        broker = std::make_unique<broker::Broker>(bo);
        sink = std::make_unique<BrokerEventSink>(stream);
        broker->setObserver(sink.get());
        std::string error;
        if (!broker->start(&error)) {
            broker->setObserver(nullptr);
            result.error = "embedded broker did not start: " + error;
            return result;
        }
        result.address = broker->address();
        result.embeddedBroker = true;
        log("embedded broker on " + result.address);
    } else {
        result.address = options_.address;
        log("using KubeMQ server at " + result.address);
    }
    recorder.start();
    auto shutdownBroker = [&] {
        if (broker) {
            broker->setObserver(nullptr);
            broker->stop();
        }
    };

    client::ClientOptions clientOptions;
    clientOptions.address = result.address;
    clientOptions.authToken = options_.authToken;
    clientOptions.clientId = "queuescope-runner";
    auto adminCreated = client::QueuesClient::create(clientOptions);
    if (!adminCreated.ok()) {
        result.error = "cannot create a client: " + adminCreated.error().describe();
        recorder.finish();
        shutdownBroker();
        return result;
    }
    std::unique_ptr<client::QueuesClient> admin = std::move(adminCreated).value();
    auto ping = admin->ping();
    if (!ping.ok()) {
        result.error =
            "cannot reach the broker at " + result.address + ": " + ping.error().describe();
        recorder.finish();
        shutdownBroker();
        return result;
    }
    if (recording.writer() != nullptr) {
        recordBroker(*recording.writer(), result.address, result.embeddedBroker,
                     ping.value().version);
    }
    if (auto created = runChannelStep(*admin, sc, ChannelStep::Create)) {
        if (created->ok) {
            log(created->text);
        } else {
            result.warnings.push_back(created->text);
        }
    }
    result.started = true;

    // Producer and pool.
    const workers::TaskSpec spec = sc.taskSpec();
    workers::ProducerOptions producerOptions;
    producerOptions.client = clientOptions;
    producerOptions.client.clientId = "producer";
    producerOptions.events = &stream;
    workers::TaskProducer producer(producerOptions, spec);
    bool producerStarted = false;

    workers::PoolOptions poolOptions;
    poolOptions.client = clientOptions;
    poolOptions.channel = sc.channel;
    poolOptions.events = &stream;
    poolOptions.seed = seed;
    workers::WorkerPool pool(poolOptions, sc.workers.front().config);

    std::vector<Step> steps;
    {
        Step s;
        s.at = sc.tasks.startAt;
        s.order = sc.tasks.rate > 0.0 ? 1 : 0;
        s.label = "send " + std::to_string(sc.tasks.count) + " tasks" +
                  (sc.tasks.rate > 0.0 ? " at " + seconds(sc.tasks.rate) + "/s" : "");
        s.run = [&] {
            std::string error;
            bool ok = sc.tasks.rate > 0.0 ? producer.start(&error) : producer.run(&error);
            if (!ok) {
                result.error = "producer: " + error;
            }
            producerStarted = ok;
        };
        steps.push_back(std::move(s));
    }
    for (std::size_t g = 0; g < sc.workers.size(); ++g) {
        const WorkerGroup& group = sc.workers[g];
        Step s;
        s.at = group.startAt;
        s.order = 2;
        s.label = "start " + std::to_string(group.count) +
                  " worker(s): " + workers::describe(group.config);
        s.run = [&, g] {
            const int count = sc.workers[g].count;
            std::string error;
            auto ids = pool.addWorkers(count, &error, sc.groupOverride(g));
            if (static_cast<int>(ids.size()) != count) {
                result.error = "workers: " + error;
            }
        };
        steps.push_back(std::move(s));
    }
    for (const TimelineAction& action : sc.timeline) {
        Step s;
        s.at = action.at;
        s.order = 3;
        s.label = action.describe();
        s.run = [&, action] {
            for (const auto& warning : applyTimelineAction(pool, action).warnings) {
                result.warnings.push_back(action.describe() + ": " + warning);
            }
        };
        steps.push_back(std::move(s));
    }
    std::stable_sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) {
        return a.at != b.at ? a.at < b.at : a.order < b.order;
    });

    const auto start = Clock::now();
    const double limit = sc.untilDrained ? sc.timeoutSeconds : sc.runForSeconds;
    std::size_t next = 0;
    for (;;) {
        const double t = std::chrono::duration<double>(Clock::now() - start).count();
        while (next < steps.size() && steps[next].at <= t && result.error.empty()) {
            log("t=" + seconds(t) + "s " + steps[next].label);
            steps[next].run();
            ++next;
        }
        const bool cancelled = stopRequested_.load() ||
                               (options_.cancelFlag != nullptr && options_.cancelFlag->load());
        if (!result.error.empty() || cancelled) {
            if (cancelled) {
                result.warnings.push_back("stopped early on request");
            }
            break;
        }
        if (sc.untilDrained && producerStarted) {
            const workers::ProducerProgress p = producer.progress();
            const RecorderStatus st = recorder.status();
            const std::uint64_t attempted = p.sent + p.failed;
            const bool allSeen = st.summary.sent >= static_cast<std::uint64_t>(sc.tasks.count);
            if (p.finished && attempted == static_cast<std::uint64_t>(sc.tasks.count) && allSeen &&
                unfinished(st.summary) <= st.movedElsewhere) {
                result.drained = true;
                log("t=" + seconds(t) + "s every task reached an end state");
                break;
            }
        }
        if (t >= limit) {
            result.timedOut = sc.untilDrained;
            log("t=" + seconds(t) + "s " +
                (sc.untilDrained ? std::string("time bound reached before the queue drained")
                                 : std::string("run time over")));
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    for (; next < steps.size(); ++next) {
        result.warnings.push_back("not reached: " + steps[next].label);
    }

    producer.stop();
    producer.wait();
    const auto stopStart = Clock::now();
    pool.stop();
    log("pool stopped in " +
        seconds(std::chrono::duration<double>(Clock::now() - stopStart).count()) + " s");
    // Let the broker's reaction to the closed streams (returned messages)
    // reach the ledger: wait until the stream has been quiet for a moment.
    if (options_.recordEvents) {
        const auto quietDeadline = Clock::now() + std::chrono::seconds(2);
        std::uint64_t lastSeen = ~std::uint64_t{0};
        while (Clock::now() < quietDeadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(60));
            const std::uint64_t pushed = stream.pushedCount();
            if (pushed == lastSeen &&
                recorder.status().eventsRecorded + stream.droppedCount() >= pushed) {
                break;
            }
            lastSeen = pushed;
        }
    }
    if (auto deleted = runChannelStep(*admin, sc, ChannelStep::Delete)) {
        if (deleted->ok) {
            log(deleted->text);
        } else {
            result.warnings.push_back(deleted->text);
        }
    }
    admin.reset();
    recorder.finish();
    shutdownBroker();

    result.elapsedSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    result.producer = producer.progress();
    result.pool = pool.snapshot();
    result.eventsRecorded = recorder.status().eventsRecorded;
    result.eventsDropped = stream.droppedCount();
    result.eventsWritten = recorder.eventsWritten();
    if (std::string writeError = recorder.status().writeError; !writeError.empty()) {
        result.error = "event log: " + writeError;
    }
    computeLedgerTotals(recorder.ledger(), sc.channel, options_.recordEvents,
                        options_.keepMessageRecords, result);
    recording.finish(result);
    return result;
}

}  // namespace qs::runner
