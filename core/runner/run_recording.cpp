#include "runner/run_recording.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>
#include <random>

#include "common/number_text.h"
#include "common/version.h"
#include "recording/recording_reader.h"
#include "runner/run_totals.h"
#include "runner/scenario_json.h"

namespace qs::runner {

namespace {

using recording::RecordingReader;
using recording::RecordingWriter;

std::int64_t asInt(std::uint64_t v) {
    return static_cast<std::int64_t>(v);
}

std::string utcNow() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&now, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

// Redelivered events from the pool are the ledger's own output (derived):
// recorded for the timeline, never fed back into a ledger.
bool isDerived(const Event& e) {
    return e.kind == EventKind::Redelivered && e.source == EventSource::Pool;
}

}  // namespace

std::uint64_t resolveSeed(std::uint64_t requested) {
    if (requested != 0) {
        return requested;
    }
    std::random_device device;
    const std::uint64_t seed = (static_cast<std::uint64_t>(device()) << 32) ^ device();
    return seed != 0 ? seed : 1;
}

bool RunRecording::open(const std::string& path, std::int64_t originNs, std::string* error,
                        recording::RecordingWriterOptions options) {
    if (path.empty()) {
        return true;
    }
    writer_ = RecordingWriter::create(path, originNs, options, error);
    return writer_ != nullptr;
}

void RunRecording::finish(RunResult& result) {
    if (!writer_) {
        return;
    }
    const recording::RecordingWriterStats stats = writer_->stats();
    if (stats.eventsLost > 0) {
        result.warnings.push_back("recording: " + std::to_string(stats.eventsLost) +
                                  " events were not recorded" +
                                  (stats.error.empty() ? " (the writer could not keep up)" : ""));
    }
    recordRunOutcome(*writer_, result);
    std::string error;
    if (!writer_->close(&error)) {
        const std::string text = "recording " + writer_->path() + ": " + error;
        if (result.error.empty()) {
            result.error = text;
        } else {
            result.warnings.push_back(text);
        }
    }
    writer_.reset();
}

RunRecording::~RunRecording() {
    if (writer_) {
        recordRunOutcome(*writer_, result_);
        std::string ignored;
        writer_->close(&ignored);
    }
}

namespace {

// What every recording holds about its start and its ledger.
void recordCommonSettings(RecordingWriter& writer, const LedgerOptions& ledgerOptions) {
    writer.setSetting("queuescope_version", std::string(kVersion));
    writer.setSetting("started_at_utc", utcNow());
    writer.setSetting(
        "started_at_unix_ns",
        static_cast<std::int64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                      std::chrono::system_clock::now().time_since_epoch())
                                      .count()));
    writer.setSetting("ledger_max_receive_count", std::int64_t{ledgerOptions.maxReceiveCount});
    writer.setSetting("ledger_max_deliveries_per_message",
                      asInt(ledgerOptions.maxDeliveriesPerMessage));
    writer.setSetting("ledger_max_finished_messages", asInt(ledgerOptions.maxFinishedMessages));
    writer.setSetting("ledger_latency_sample_cap", asInt(ledgerOptions.latencySampleCap));
    writer.setSetting("ledger_worker_latency_sample_cap",
                      asInt(ledgerOptions.workerLatencySampleCap));
    writer.setSetting("ledger_max_pending_derived_events",
                      asInt(ledgerOptions.maxPendingDerivedEvents));
}

// As decimal text: SQLite integers are signed 64-bit, and half of all seeds
// would read back negative, which `run --seed` refuses.
void recordSeed(RecordingWriter& writer, std::uint64_t seed) {
    writer.setSetting("seed", std::to_string(seed));
}

}  // namespace

void recordRunSettings(RecordingWriter& writer, const Scenario& scenario, const RunOptions& options,
                       const LedgerOptions& ledgerOptions, std::uint64_t seed) {
    recordCommonSettings(writer, ledgerOptions);
    writer.setSetting("run_origin", std::string("headless"));
    writer.setSetting("scenario_json", scenarioToJson(scenario));
    writer.setSetting("scenario_name", scenario.name);
    writer.setSetting("channel", scenario.channel);
    writer.setSetting("requested_address", options.address);
    recordSeed(writer, seed);
}

void recordConsoleRunSettings(RecordingWriter& writer, const ConsoleRunSettings& settings) {
    recordCommonSettings(writer, settings.ledgerOptions);
    writer.setSetting("run_origin", std::string("console"));
    if (settings.scenario) {
        writer.setSetting("scenario_json", scenarioToJson(*settings.scenario));
        writer.setSetting("scenario_name", settings.scenario->name);
    }
    writer.setSetting("channel", settings.channel);
    writer.setSetting("worker_config", workerConfigToJson(settings.workerConfig));
    writer.setSetting("requested_address", settings.requestedAddress);
    if (settings.seed != 0) {
        recordSeed(writer, settings.seed);
    }
}

void recordBroker(RecordingWriter& writer, const std::string& address, bool embedded,
                  const std::string& serverVersion) {
    writer.setSetting("broker_address", address);
    writer.setSetting("embedded_broker", std::int64_t{embedded ? 1 : 0});
    writer.setSetting("server_version", serverVersion);
}

void recordRunOutcome(RecordingWriter& writer, const RunResult& r) {
    writer.setOutcome("started", std::int64_t{r.started ? 1 : 0});
    writer.setOutcome("error", r.error);
    writer.setOutcome("warnings", nlohmann::json(r.warnings).dump());
    writer.setOutcome("elapsed_seconds", r.elapsedSeconds);
    writer.setOutcome("drained", std::int64_t{r.drained ? 1 : 0});
    writer.setOutcome("timed_out", std::int64_t{r.timedOut ? 1 : 0});
    writer.setOutcome("producer_total", asInt(r.producer.total));
    writer.setOutcome("producer_sent", asInt(r.producer.sent));
    writer.setOutcome("producer_failed", asInt(r.producer.failed));
    writer.setOutcome("producer_finished", std::int64_t{r.producer.finished ? 1 : 0});
    writer.setOutcome("producer_stopped", std::int64_t{r.producer.stopped ? 1 : 0});
    writer.setOutcome("producer_first_error", r.producer.firstError);
    const workers::WorkerCounters& pool = r.pool.totals;
    writer.setOutcome("pool_polls", asInt(pool.polls));
    writer.setOutcome("pool_empty_polls", asInt(pool.emptyPolls));
    writer.setOutcome("pool_received", asInt(pool.received));
    writer.setOutcome("pool_acked", asInt(pool.acked));
    writer.setOutcome("pool_rejected", asInt(pool.rejected));
    writer.setOutcome("pool_requeued", asInt(pool.requeued));
    writer.setOutcome("pool_crashes", asInt(pool.crashes));
    writer.setOutcome("events_recorded", asInt(r.eventsRecorded));
    writer.setOutcome("events_dropped", asInt(r.eventsDropped));
    writer.setOutcome("events_written", asInt(r.eventsWritten));
}

namespace {

void readOutcome(const RecordingReader& rec, RunResult& r) {
    r.started = rec.outcomeInt("started") != 0;
    r.error = rec.outcomeText("error");
    r.warnings.clear();
    const auto warnings = nlohmann::json::parse(rec.outcomeText("warnings", "[]"), nullptr, false);
    if (warnings.is_array()) {
        for (const auto& w : warnings) {
            if (w.is_string()) {
                r.warnings.push_back(w.get<std::string>());
            }
        }
    }
    r.elapsedSeconds = rec.outcomeDouble("elapsed_seconds");
    r.drained = rec.outcomeInt("drained") != 0;
    r.timedOut = rec.outcomeInt("timed_out") != 0;
    auto count = [&](const char* key) { return static_cast<std::uint64_t>(rec.outcomeInt(key)); };
    r.producer.total = count("producer_total");
    r.producer.sent = count("producer_sent");
    r.producer.failed = count("producer_failed");
    r.producer.finished = rec.outcomeInt("producer_finished") != 0;
    r.producer.stopped = rec.outcomeInt("producer_stopped") != 0;
    r.producer.firstError = rec.outcomeText("producer_first_error");
    workers::WorkerCounters& pool = r.pool.totals;
    pool.polls = count("pool_polls");
    pool.emptyPolls = count("pool_empty_polls");
    pool.received = count("pool_received");
    pool.acked = count("pool_acked");
    pool.rejected = count("pool_rejected");
    pool.requeued = count("pool_requeued");
    pool.crashes = count("pool_crashes");
    r.eventsDropped = count("events_dropped");
    r.eventsWritten = count("events_written");
}

LedgerOptions readLedgerOptions(const RecordingReader& rec) {
    LedgerOptions o;
    auto size = [&](const char* key, std::size_t fallback) {
        const std::int64_t v = rec.settingInt(key, static_cast<std::int64_t>(fallback));
        return v >= 0 ? static_cast<std::size_t>(v) : fallback;
    };
    o.maxReceiveCount = static_cast<std::int32_t>(rec.settingInt("ledger_max_receive_count", 0));
    o.maxDeliveriesPerMessage =
        size("ledger_max_deliveries_per_message", o.maxDeliveriesPerMessage);
    o.maxFinishedMessages = size("ledger_max_finished_messages", o.maxFinishedMessages);
    o.latencySampleCap = size("ledger_latency_sample_cap", o.latencySampleCap);
    // Recordings before the per-worker cap used one cap for both.
    o.workerLatencySampleCap = size("ledger_worker_latency_sample_cap", o.latencySampleCap);
    o.maxPendingDerivedEvents = size("ledger_max_pending_derived_events", 0);
    return o;
}

}  // namespace

bool replayRecording(const std::string& path, ReplayedRun* out, std::string* error,
                     const ReplayVisitor& visitor) {
    recording::RecordingReaderOptions options;
    options.checkIntegrity = visitor.checkIntegrity;
    auto rec = RecordingReader::open(path, error, options);
    if (!rec) {
        return false;
    }
    ReplayedRun run;
    std::string why;
    const std::string scenarioJson = rec->settingText("scenario_json");
    if (scenarioJson.empty() && rec->settingText("run_origin") == "console") {
        run.scenario.name = kManualRunName;
        run.scenario.channel = rec->settingText("channel", run.scenario.channel);
    } else if (!parseScenarioJson(scenarioJson, &run.scenario, &why)) {
        *error = path + ": damaged: the recorded scenario does not parse: " + why;
        return false;
    }
    run.ledgerOptions = readLedgerOptions(*rec);
    if (visitor.opened) {
        visitor.opened(*rec, run.ledgerOptions);
    }
    Ledger ledger(run.ledgerOptions);
    std::uint64_t applied = 0;
    std::int64_t lastNs = rec->originNs();
    std::vector<Event> derived;
    if (!rec->forEachEvent(
            1, rec->lastIndex() + 1,
            [&](std::uint64_t, const Event& e) {
                lastNs = std::max(lastNs, e.timeNs);
                if (isDerived(e)) {
                    return;
                }
                ++applied;
                if (visitor.applied) {
                    visitor.applied(e);
                }
                if (visitor.eventsOnly) {
                    return;
                }
                ledger.apply(e);
                // The replay has no timeline to feed: keep the derived queue short.
                if (ledger.takeDerivedEvents(derived) > 0) {
                    derived.clear();
                }
            },
            error)) {
        return false;
    }
    RunResult& r = run.result;
    r.address = rec->settingText("broker_address", rec->settingText("requested_address"));
    r.embeddedBroker = rec->settingInt("embedded_broker") != 0;
    run.finished = rec->finished();
    if (run.finished) {
        readOutcome(*rec, r);
    } else {
        // Killed mid-run: what the events show.
        const LedgerSummary s = ledger.summary();
        r.started = true;
        r.elapsedSeconds = static_cast<double>(lastNs - rec->originNs()) / 1e9;
        r.producer.sent = s.sent;
        r.producer.failed = s.sendFailed;
        r.warnings.push_back("the run did not finish: its recording ends at t=" +
                             fixedPoint(r.elapsedSeconds, 2) + " s (last committed batch)");
        run.note =
            "This run did not finish (no outcome was recorded); the numbers below are "
            "what its events show up to t=" +
            fixedPoint(r.elapsedSeconds, 2) + " s.";
    }
    r.eventsRecorded = applied;
    if (const std::uint64_t lost = rec->lostEvents(); lost > 0) {
        const std::string text = "the recording lost " + std::to_string(lost) + " events (" +
                                 rec->gaps().front().why + "): its numbers may be short";
        r.warnings.push_back(text);
        run.note += (run.note.empty() ? "" : " ") + std::string("The recording lost ") +
                    std::to_string(lost) + " events.";
    }
    if (!visitor.eventsOnly) {
        computeLedgerTotals(ledger, run.scenario.channel, true, false, r);
    }
    *out = std::move(run);
    return true;
}

}  // namespace qs::runner
