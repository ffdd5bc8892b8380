#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "events/ledger.h"
#include "recording/recording_reader.h"
#include "recording/recording_writer.h"
#include "runner/scenario.h"
#include "runner/scenario_runner.h"

// A headless run and its recording (*.qsrun, docs/recording.md): what of the
// run goes into the recording's settings and outcome tables, and the way back,
// a RunResult rebuilt from the recording alone (`queuescope summary`).
namespace qs::runner {

// Before the run: the scenario (as JSON), the options that shape it, the
// ledger's options and the seed the pool really uses.
void recordRunSettings(recording::RecordingWriter& writer, const Scenario& scenario,
                       const RunOptions& options, const LedgerOptions& ledgerOptions,
                       std::uint64_t seed);
// A run the console drives (ui/run_recorder.h): by hand, from the producer
// form and the pool's controls, or while it plays a scenario.
struct ConsoleRunSettings {
    std::optional<Scenario> scenario;    // the scenario played; none = a manual run
    std::string channel = "tasks";       // the console's work queue
    workers::WorkerConfig workerConfig;  // the pool's shared configuration at the start
    std::string requestedAddress;        // a remote server's address; "" = the embedded broker
    LedgerOptions ledgerOptions;         // what a replay feeds its ledger with
    std::uint64_t seed = 0;              // the pool's seed; 0 = not known (not recorded)
};

// The console's counterpart of recordRunSettings(): `run_origin` = "console",
// the scenario (JSON, name) only when one is played, the worker configuration
// as JSON (`worker_config`), the seed only when known.
void recordConsoleRunSettings(recording::RecordingWriter& writer,
                              const ConsoleRunSettings& settings);

// Once the broker answered: where it is and what it says it is (Ping).
void recordBroker(recording::RecordingWriter& writer, const std::string& address, bool embedded,
                  const std::string& serverVersion);
// At the end: the facts of the summary the events do not carry (elapsed
// time, how the run ended, producer and pool counters, warnings, error).
void recordRunOutcome(recording::RecordingWriter& writer, const RunResult& result);

// The recording of one ScenarioRunner::run(): opened before the run, closed
// with the run's outcome. An early return from the run still leaves a
// recording with its outcome: the destructor writes the watched result.
// Threading: the runner's thread (the writer has its own).
class RunRecording {
public:
    explicit RunRecording(const RunResult& result) : result_(result) {}
    ~RunRecording();
    RunRecording(const RunRecording&) = delete;
    RunRecording& operator=(const RunRecording&) = delete;

    // "" = no recording (writer() is null, the rest does nothing).
    bool open(const std::string& path, std::int64_t originNs, std::string* error,
              recording::RecordingWriterOptions options = {});
    recording::RecordingWriter* writer() { return writer_.get(); }
    // Writes the outcome and closes: events the writer could not keep up with
    // become a warning (recorded too); a write error becomes result.error.
    void finish(RunResult& result);

private:
    const RunResult& result_;
    std::unique_ptr<recording::RecordingWriter> writer_;
};

// The pool's seed for a run: `requested`, or a random one for 0, so the
// recording can name the seed the run really used.
std::uint64_t resolveSeed(std::uint64_t requested);

inline constexpr const char* kManualRunName = "(manual run in the console)";

struct ReplayedRun {
    Scenario scenario;
    RunResult result;
    LedgerOptions ledgerOptions;
    bool finished = false;  // the run ended and wrote its outcome
    std::string note;       // why the numbers may differ from the run's own ("" = none)
};

// What a caller of replayRecording() sees besides the summary, in the same
// single pass over the file: the opened recording (its settings and origin)
// with the ledger options the replay uses, then every event the replay applies to its ledger, in
// order (the ledger's own derived Redelivered events are not applied, so not passed on either).
struct ReplayVisitor {
    std::function<void(const recording::RecordingReader&, const LedgerOptions&)> opened;
    std::function<void(const Event&)> applied;
    // The caller wants the events, not the summary (the console's loader,
    // whose own Run applies them again): no ledger is fed, and the
    // ReplayedRun's result holds only what the recording's settings and
    // outcome say, not the ledger's totals. The same events reach `applied`,
    // and a file that is not a readable recording is refused all the same.
    bool eventsOnly = false;
    // SQLite's integrity check of the whole file before the read (what
    // RecordingReader does by default). Off only for a caller that checks
    // it itself (the console's loader does, on a thread beside the read).
    bool checkIntegrity = true;
};

// Reads the recording at `path`, replays its events in order into a fresh
// Ledger with the run's LedgerOptions and computes the RunResult exactly as
// the run did (computeLedgerTotals). A run that never finished (killed)
// gets what its events show, and a note saying so. A manual console run has
// no scenario: the replay's is named kManualRunName, on the recorded channel.
// False with *error for a file that is not a readable recording.
bool replayRecording(const std::string& path, ReplayedRun* out, std::string* error,
                     const ReplayVisitor& visitor = {});

}  // namespace qs::runner
