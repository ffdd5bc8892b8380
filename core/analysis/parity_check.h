#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "analysis/recorded_run.h"
#include "analysis/run_comparison.h"
#include "runner/scenario.h"
#include "runner/scenario_runner.h"

// The parity check: one scenario run on the embedded broker (in this process,
// 127.0.0.1, an ephemeral port, as `queuescope run` without --address) and on
// a given server, both recorded, then compared by compareRuns() (one truth
// with `queuescope compare`). Everything that can be refused is refused
// before anything runs or any file is made.
namespace qs::analysis {

struct ParityOptions {
    runner::Scenario scenario;
    std::string recordingStem;  // "<stem>.embedded.qsrun", "<stem>.server.qsrun"
    std::string address;        // the server, host:port
    std::string authToken;      // for the server
    std::string recordDir;      // "" = a new folder in the system's temporary folder
    std::uint64_t seed = 0;     // the workers' seed in both runs; 0 = one drawn for both
    const std::atomic<bool>* cancelFlag = nullptr;
    std::function<void(const std::string&)> log;  // progress lines; the caller's thread
};

// One side of the check.
struct ParitySide {
    std::string label;      // "embedded broker", "server"
    std::string address;    // where it ran
    std::string recording;  // the file
    runner::RunResult result;
};

enum class ParityOutcome : std::uint8_t {
    Same,         // nothing differs beyond what the semantics allow (exit 0)
    Differs,      // a difference the semantics do not allow (exit 1)
    BadInput,     // bad address, unreachable server, unusable folder: nothing ran (exit 2)
    Unavailable,  // the scenario needs what the server does not serve: nothing ran (exit 3)
    RunFailed,    // a run failed (broker, connection, recording), or the check was
                  // stopped on request: see problem (exit 3)
};

struct ParityResult {
    ParityOutcome outcome = ParityOutcome::BadInput;
    std::string problem;  // why, for BadInput, Unavailable and RunFailed
    // cancelFlag ended it: a run cut short is not compared (it would differ
    // for no fault of the server), and a stop during the embedded run runs
    // nothing on the server. The recordings made so far are kept.
    bool stopped = false;
    std::string recordDir;
    std::uint64_t seed = 0;
    ParitySide embedded;
    ParitySide server;
    std::unique_ptr<RecordedRun> embeddedRun;  // both loaded when compared
    std::unique_ptr<RecordedRun> serverRun;
    std::optional<RunComparison> comparison;

    int exitCode() const;
};

// Blocks for both runs (each bounded by the scenario's timeout). Threading:
// the caller's thread; cancelFlag may be set from any thread (the run under
// way ends within a few milliseconds and tears down as at its end).
ParityResult checkParity(const ParityOptions& options);

}  // namespace qs::analysis
