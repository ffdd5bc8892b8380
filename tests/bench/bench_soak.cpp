// bench_soak: N tasks (default 1,000,000) through 16 workers on the embedded
// broker, with random worker crashes (mid-work, by the workers' crash rate, and
// from outside at random moments, while they poll or work), rejects and slow
// workers. At the end the run's Ledger (fed by the workers, the producer and
// the broker observer) must show every task acked, no task lost, and every
// hand-out beyond a task's first explained by how the one before it ended (a
// reject, a crash, a return, a lost ack). Prints the totals, the time and the
// peak memory. Exits 1 on a violated invariant, 2 on bad arguments, 3 when the
// broker or the pool cannot start. Timing never decides the verdict, only the
// --deadline bound on a run that stops making progress.
//   bench_soak [--tasks N] [--workers 16] [--slow 2] [--slowdown 20]
//              [--batch 10] [--work-ms 0.2] [--reject-rate 0.02]
//              [--crash-rate 0.0005] [--kill-every-ms 250] [--seed 1]
//              [--deadline S]
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench_stats.h"
#include "broker/broker.h"
#include "client/queues_client.h"
#include "events/broker_event_sink.h"
#include "events/event_stream.h"
#include "events/ledger.h"
#include "workers/task_producer.h"
#include "workers/worker_pool.h"

namespace {

using Clock = std::chrono::steady_clock;
using qs::bench::processCpuSeconds;

constexpr const char* kChannel = "soak";

struct SoakArgs {
    int tasks = 1'000'000;
    int workers = 16;
    int slowWorkers = 2;     // the last ones in the pool
    double slowdown = 20.0;  // their work takes this many times longer
    int batch = 10;
    double workMs = 0.2;  // exponential mean
    double rejectRate = 0.02;
    double crashRate = 0.0005;  // per message, mid-work
    int killEveryMs = 250;      // mean interval of crashes from outside; 0 = none
    std::uint64_t seed = 1;
    int deadlineSeconds = 0;  // 0 = 120 + 1 s per 1,000 tasks
};

// What the reader thread publishes while it feeds the ledger.
struct Progress {
    std::atomic<std::uint64_t> brokerAcked{0};
    std::atomic<std::uint64_t> events{0};
};

// The one reader of the stream: feeds every event to the ledger, in order.
class LedgerReader {
public:
    LedgerReader(qs::EventStream& stream, qs::Ledger& ledger, Progress& progress)
        : stream_(stream), ledger_(ledger), progress_(progress), thread_([this] { run(); }) {}
    ~LedgerReader() { finish(); }
    // Stops after draining everything pushed so far. Idempotent.
    void finish() {
        stop_ = true;
        if (thread_.joinable())
            thread_.join();
    }

private:
    void run() {
        std::vector<qs::Event> batch;
        while (!stop_.load()) {
            if (drainOnce(batch) == 0)
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        while (drainOnce(batch) > 0) {
        }
    }
    std::size_t drainOnce(std::vector<qs::Event>& batch) {
        batch.clear();
        stream_.drain(batch);
        std::uint64_t acked = 0;
        for (const qs::Event& e : batch)
            acked += e.kind == qs::EventKind::BrokerAcked ? 1 : 0;
        ledger_.apply(batch);
        progress_.brokerAcked += acked;
        progress_.events += batch.size();
        return batch.size();
    }

    qs::EventStream& stream_;
    qs::Ledger& ledger_;
    Progress& progress_;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

long peakRssMb() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024;
}

// Why a delivery that was not a message's last ended, or empty when nothing
// recorded explains the hand-out that followed it.
const char* redeliveryCause(const qs::DeliveryRecord& d) {
    if (d.ackLost)
        return "ack lost";
    if (d.workerCrashed)
        return "crash";
    switch (d.outcome) {
        case qs::DeliveryOutcome::Rejected:
            return "reject";
        case qs::DeliveryOutcome::Returned:
            return "return";
        default:
            return "";
    }
}

struct Verdict {
    std::uint64_t violations = 0;
    std::uint64_t duplicatesExplained = 0;  // hand-outs beyond a message's first
    std::uint64_t byReject = 0, byCrash = 0, byReturn = 0, byAckLost = 0;
    std::string firstViolation;

    void violate(const std::string& what) {
        if (violations++ == 0)
            firstViolation = what;
    }
};

// Every message: acked as its last hand-out (the broker applied it), every
// earlier hand-out ended in a recorded way, every later one a recorded redelivery.
void checkMessage(const qs::MessageRecord& m, Verdict& v) {
    if (m.state != qs::MessageState::Acked) {
        v.violate(m.messageId.str() + " ended " + std::string(qs::messageStateName(m.state)));
        return;
    }
    if (m.deliveries.empty() || m.deliveries.back().outcome != qs::DeliveryOutcome::Acked ||
        !m.deliveries.back().brokerSettled) {
        v.violate(m.messageId.str() + ": its last hand-out is not an ack the broker applied");
        return;
    }
    for (std::size_t i = 0; i < m.deliveries.size(); ++i) {
        const qs::DeliveryRecord& d = m.deliveries[i];
        const bool later = i + m.omittedDeliveries > 0;
        if (d.redelivery != later) {
            v.violate(m.messageId.str() + ": hand-out " + std::to_string(i + 1) +
                      (later ? " not recorded as a redelivery" : " recorded as a redelivery"));
            return;
        }
        if (i + 1 == m.deliveries.size())
            break;
        const std::string cause = redeliveryCause(d);
        if (cause.empty()) {
            v.violate(m.messageId.str() + ": hand-out " + std::to_string(i + 1) + " to " + d.worker.str() +
                      " ended " + std::string(qs::deliveryOutcomeName(d.outcome)) +
                      " and was handed out again with no recorded cause");
            return;
        }
        ++v.duplicatesExplained;
        if (cause == "reject")
            ++v.byReject;
        else if (cause == "crash")
            ++v.byCrash;
        else if (cause == "return")
            ++v.byReturn;
        else
            ++v.byAckLost;
    }
    // Hand-outs whose history was summarised to bound memory: counted, not named.
    v.duplicatesExplained += m.omittedDeliveries;
}

Verdict checkLedger(const qs::Ledger& ledger, const SoakArgs& args, std::uint64_t dropped) {
    Verdict v;
    const auto n = static_cast<std::uint64_t>(args.tasks);
    const qs::LedgerSummary s = ledger.summary();
    if (dropped > 0)
        v.violate(std::to_string(dropped) + " events dropped: the ledger cannot vouch for the run");
    if (s.sent != n || s.sendFailed != 0)
        v.violate("sent " + std::to_string(s.sent) + ", send failures " +
                  std::to_string(s.sendFailed) + " (expected " + std::to_string(n) + ", 0)");
    if (s.messages != n || s.evicted != 0)
        v.violate("the ledger knows " + std::to_string(s.messages) + " messages (" +
                  std::to_string(s.evicted) + " forgotten), expected " + std::to_string(n));
    if (s.count(qs::MessageState::Acked) != n)
        v.violate(std::to_string(n - std::min(n, s.count(qs::MessageState::Acked))) +
                  " tasks not acked (lost)");
    ledger.forEachMessage([&](const qs::MessageRecord& m) { checkMessage(m, v); });
    if (v.duplicatesExplained != s.redeliveries)
        v.violate("redeliveries: ledger summary " + std::to_string(s.redeliveries) +
                  ", explained per message " + std::to_string(v.duplicatesExplained));
    return v;
}

// Whatever the broker still holds on the channel (must be nothing).
std::size_t leftInQueue(const std::string& address, std::string* error) {
    qs::client::ClientOptions options;
    options.address = address;
    options.clientId = "soak-check";
    auto created = qs::client::QueuesClient::create(options);
    if (!created.ok()) {
        *error = created.error().describe();
        return 0;
    }
    auto client = std::move(created).value();
    auto got = client->receive(kChannel, 100, std::chrono::milliseconds(1000));
    if (!got.ok()) {
        *error = got.error().describe();
        return 0;
    }
    const std::size_t left = got->size();
    if (left > 0)
        (void)got->ackAll();
    return left;
}

qs::workers::WorkerConfig workerConfig(const SoakArgs& args) {
    qs::workers::WorkerConfig c;
    c.batchSize = args.batch;
    c.waitMs = 1000;
    c.work = qs::workers::WorkProfile::exponential(args.workMs);
    c.failureRate = args.rejectRate;
    c.onFailure = qs::workers::FailureAction::Reject;
    c.crashRate = args.crashRate;
    c.restartDelayMs = 20;
    return c;
}

int deadlineSecondsFor(const SoakArgs& args) {
    return args.deadlineSeconds > 0 ? args.deadlineSeconds : 120 + args.tasks / 1000;
}

// How the run went, as timed while it ran.
struct RunFigures {
    double seconds = 0;  // start to the broker's last ack (or the deadline)
    double cpuSeconds = 0;
    std::uint64_t kills = 0;  // crashes from outside
    bool timedOut = false;
};

// Crashes random workers from outside (exponential gaps, mean killEveryMs)
// until the broker has applied an ack of every task or the deadline passes;
// prints progress every 5 s.
RunFigures crashUntilAcked(const SoakArgs& args, qs::workers::WorkerPool& pool,
                           const std::vector<std::string>& ids, const Progress& progress,
                           Clock::time_point start) {
    const auto deadline = start + std::chrono::seconds(deadlineSecondsFor(args));
    std::mt19937_64 rng(args.seed);
    std::exponential_distribution<double> killGap(args.killEveryMs > 0 ? 1.0 / args.killEveryMs
                                                                       : 1.0);
    std::uniform_int_distribution<std::size_t> pick(0, ids.size() - 1);
    auto nextKill = start + std::chrono::milliseconds(static_cast<int>(killGap(rng)));
    auto nextReport = start + std::chrono::seconds(5);
    const auto n = static_cast<std::uint64_t>(args.tasks);
    RunFigures figures;
    while (progress.brokerAcked.load() < n) {
        const auto now = Clock::now();
        if (now >= deadline) {
            figures.timedOut = true;
            break;
        }
        if (args.killEveryMs > 0 && now >= nextKill) {
            figures.kills += pool.crash(ids[pick(rng)]) ? 1 : 0;
            nextKill = now + std::chrono::milliseconds(static_cast<int>(killGap(rng)));
        }
        if (now >= nextReport) {
            const auto t = pool.totals();
            std::printf("  %.0f s: %llu of %llu acked by the broker, %llu crashes, %llu rejects\n",
                        std::chrono::duration<double>(now - start).count(),
                        static_cast<unsigned long long>(progress.brokerAcked.load()),
                        static_cast<unsigned long long>(n),
                        static_cast<unsigned long long>(t.crashes),
                        static_cast<unsigned long long>(t.rejected));
            std::fflush(stdout);
            nextReport = now + std::chrono::seconds(5);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    figures.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return figures;
}

void printTotals(const SoakArgs& args, const RunFigures& f, const Progress& progress,
                 std::uint64_t dropped, const qs::LedgerSummary& s, const Verdict& v,
                 const qs::workers::WorkerCounters& totals, std::size_t left) {
    const auto n = static_cast<std::uint64_t>(args.tasks);
    std::printf(
        "bench_soak: %d tasks, %d workers (%d slowed x%g), batch %d, work exponential mean %g ms, "
        "reject rate %g, crash rate %g per task, a crash from outside every %d ms on average\n",
        args.tasks, args.workers, args.slowWorkers, args.slowdown, args.batch, args.workMs,
        args.rejectRate, args.crashRate, args.killEveryMs);
    std::printf(
        "time %.2f s to the last broker ack (%.0f tasks/s), cpu %.1f s, peak RSS %ld MB, "
        "%llu events (%llu dropped)\n",
        f.seconds, static_cast<double>(progress.brokerAcked.load()) / f.seconds, f.cpuSeconds,
        peakRssMb(), static_cast<unsigned long long>(progress.events.load()),
        static_cast<unsigned long long>(dropped));
    std::printf(
        "tasks: sent %llu, acked %llu, lost %llu, left in the queue %zu; hand-outs %llu, "
        "exactly once %llu, redelivered %llu (%llu redeliveries: %llu after a reject, %llu after "
        "a crash, %llu returned, %llu after a lost ack), processed more than once %llu\n",
        static_cast<unsigned long long>(s.sent),
        static_cast<unsigned long long>(s.count(qs::MessageState::Acked)),
        static_cast<unsigned long long>(n - std::min(n, s.count(qs::MessageState::Acked))), left,
        static_cast<unsigned long long>(s.deliveries),
        static_cast<unsigned long long>(s.exactlyOnce),
        static_cast<unsigned long long>(s.redelivered),
        static_cast<unsigned long long>(s.redeliveries),
        static_cast<unsigned long long>(v.byReject), static_cast<unsigned long long>(v.byCrash),
        static_cast<unsigned long long>(v.byReturn), static_cast<unsigned long long>(v.byAckLost),
        static_cast<unsigned long long>(s.processedMoreThanOnce));
    std::printf(
        "workers: %llu crashes (%llu from outside), %llu rejects, %llu abandoned at crashes, "
        "%llu polls (%llu empty), %llu redeliveries they recognised\n",
        static_cast<unsigned long long>(totals.crashes), static_cast<unsigned long long>(f.kills),
        static_cast<unsigned long long>(totals.rejected),
        static_cast<unsigned long long>(totals.abandoned),
        static_cast<unsigned long long>(totals.polls),
        static_cast<unsigned long long>(totals.emptyPolls),
        static_cast<unsigned long long>(totals.redelivered));
}

// 0 when every invariant held; otherwise 1, with each failure said on stderr.
int judge(const SoakArgs& args, const RunFigures& f, std::size_t left,
          const std::string& checkError, const Verdict& v) {
    int status = 0;
    if (f.timedOut) {
        std::fprintf(stderr, "FAIL: not every task was acked within %d s\n",
                     deadlineSecondsFor(args));
        status = 1;
    }
    if (left > 0 || !checkError.empty()) {
        std::fprintf(stderr, "FAIL: %zu message(s) still in the queue%s%s\n", left,
                     checkError.empty() ? "" : "; check: ", checkError.c_str());
        status = 1;
    }
    if (v.violations > 0) {
        std::fprintf(stderr, "FAIL: %llu violation(s); first: %s\n",
                     static_cast<unsigned long long>(v.violations), v.firstViolation.c_str());
        status = 1;
    }
    if (status == 0)
        std::printf("OK: 0 lost, every duplicate explained by a recorded redelivery\n");
    return status;
}

int runSoak(const SoakArgs& args) {
    qs::broker::BrokerOptions bo;
    bo.bindAddress = "127.0.0.1";
    bo.port = 0;
    qs::broker::Broker broker(bo);
    std::string error;
    if (!broker.start(&error)) {
        std::fprintf(stderr, "broker: %s\n", error.c_str());
        return 3;
    }
    // Large enough that the reader never has to keep up with a burst of sends.
    qs::EventStream stream(1u << 23);
    qs::BrokerEventSink sink(stream);
    broker.setObserver(&sink);
    qs::LedgerOptions lo;
    // Judge every task: forget none. (The bound counts a message once per time
    // it finished, so a message reopened by a lost ack takes two places.)
    lo.maxFinishedMessages = std::numeric_limits<std::size_t>::max();
    qs::Ledger ledger(lo);
    Progress progress;
    LedgerReader reader(stream, ledger, progress);

    qs::client::ClientOptions client;
    client.address = broker.address();
    qs::workers::PoolOptions po;
    po.client = client;
    po.channel = kChannel;
    po.events = &stream;
    po.seed = args.seed;
    qs::workers::WorkerPool pool(po, workerConfig(args));
    const auto ids = pool.addWorkers(args.workers, &error);
    if (static_cast<int>(ids.size()) != args.workers) {
        std::fprintf(stderr, "workers: %s\n", error.c_str());
        return 3;
    }
    for (int i = args.workers - args.slowWorkers; i < args.workers; ++i)
        pool.setSlowdown(ids[static_cast<std::size_t>(i)], args.slowdown);

    qs::workers::TaskSpec spec;
    spec.channel = kChannel;
    spec.count = args.tasks;
    spec.sendBatchSize = 500;
    qs::workers::ProducerOptions prod;
    prod.client = client;
    prod.events = &stream;
    qs::workers::TaskProducer producer(prod, spec);

    const auto start = Clock::now();
    const double cpuStart = processCpuSeconds();
    if (!producer.start(&error)) {
        std::fprintf(stderr, "producer: %s\n", error.c_str());
        return 3;
    }
    RunFigures figures = crashUntilAcked(args, pool, ids, progress, start);
    figures.cpuSeconds = processCpuSeconds() - cpuStart;
    producer.stop();
    producer.wait();
    pool.stop();
    const std::size_t left = leftInQueue(broker.address(), &error);
    broker.setObserver(nullptr);
    reader.finish();
    broker.stop();

    const Verdict verdict = checkLedger(ledger, args, stream.droppedCount());
    printTotals(args, figures, progress, stream.droppedCount(), ledger.summary(), verdict,
                pool.totals(), left);
    return judge(args, figures, left, error, verdict);
}

bool parseArgs(int argc, char** argv, SoakArgs& args) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) {
            std::fprintf(stderr, "%s needs a value\n", a.c_str());
            return false;
        }
        const char* value = argv[++i];
        if (a == "--tasks")
            args.tasks = std::atoi(value);
        else if (a == "--workers")
            args.workers = std::atoi(value);
        else if (a == "--slow")
            args.slowWorkers = std::atoi(value);
        else if (a == "--slowdown")
            args.slowdown = std::atof(value);
        else if (a == "--batch")
            args.batch = std::atoi(value);
        else if (a == "--work-ms")
            args.workMs = std::atof(value);
        else if (a == "--reject-rate")
            args.rejectRate = std::atof(value);
        else if (a == "--crash-rate")
            args.crashRate = std::atof(value);
        else if (a == "--kill-every-ms")
            args.killEveryMs = std::atoi(value);
        else if (a == "--seed")
            args.seed = std::strtoull(value, nullptr, 10);
        else if (a == "--deadline")
            args.deadlineSeconds = std::atoi(value);
        else
            return false;
    }
    return args.tasks > 0 && args.workers > 0 && args.slowWorkers >= 0 &&
           args.slowWorkers <= args.workers && args.slowdown >= 1.0 && args.batch > 0 &&
           args.workMs >= 0 && args.rejectRate >= 0 && args.rejectRate < 1.0 &&
           args.crashRate >= 0 && args.crashRate < 1.0 && args.killEveryMs >= 0 &&
           args.deadlineSeconds >= 0;
}

}  // namespace

int main(int argc, char** argv) {
    SoakArgs args;
    if (!parseArgs(argc, argv, args)) {
        std::fprintf(stderr,
                     "usage: bench_soak [--tasks N] [--workers N] [--slow N] [--slowdown X>=1] "
                     "[--batch N] [--work-ms MS] [--reject-rate 0..1) [--crash-rate 0..1) "
                     "[--kill-every-ms MS (0 = none)] [--seed N] [--deadline S]\n");
        return 2;
    }
    return runSoak(args);
}
