#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "events/ledger.h"
#include "runner/scenario.h"
#include "workers/task_producer.h"
#include "workers/worker_state.h"

// Runs one Scenario to its end, headless: starts the embedded broker (or uses
// a remote address), takes the steps of the scenario's ScenarioSchedule (send
// the tasks, start the worker groups, the timeline) on its own clock, records
// every event into a Ledger (and optional event logs) and returns what
// happened.
namespace qs::runner {

struct RunOptions {
    std::string address;             // "host:port" of a KubeMQ server; empty = embedded broker
    std::string authToken;           // sent to a remote server
    std::string eventsCsvPath;       // write the full event log as CSV ("" = no)
    std::string eventsJsonlPath;     // ... as JSON Lines
    std::string recordingPath;       // record the run into this *.qsrun file ("" = no)
    bool recordEvents = true;        // false: no event stream at all (ledger totals then empty)
    bool keepMessageRecords = true;  // copy the ledger's per-message records into the result
    std::uint64_t seed = 0;          // 0 = random (the recording names the one used)
    // Set (e.g. by a signal handler) to end the run early; it still reports.
    const std::atomic<bool>* cancelFlag = nullptr;
    // Progress lines ("t=1.2s crash worker-2"); called on the runner's thread.
    std::function<void(const std::string&)> log;
};

struct RunResult {
    bool started = false;               // false: the run could not start (see error)
    std::string error;                  // setup / runtime problem (empty when none)
    std::vector<std::string> warnings;  // non-fatal (e.g. channel creation unsupported)
    std::string address;                // the broker used
    bool embeddedBroker = false;
    double elapsedSeconds = 0.0;
    bool drained = false;   // every task reached an end state
    bool timedOut = false;  // until-drained run hit its time bound

    workers::ProducerProgress producer;
    workers::PoolSnapshot pool;           // final pool counters (workers stopped)
    LedgerSummary totals;                 // computed by the ledger
    std::vector<WorkerStats> workers;     // per worker, from the ledger
    std::vector<MessageRecord> messages;  // if keepMessageRecords
    std::uint64_t tasksLost = 0;          // sent, yet not acked / dead-lettered / dropped / expired
    std::uint64_t tasksMoved = 0;         // re-queued to another channel and waiting there
    std::vector<std::string> lostMessageIds;  // up to 100
    std::uint64_t eventsRecorded = 0;
    std::uint64_t eventsDropped = 0;
    std::uint64_t eventsWritten = 0;
    // The scenario's steps as they were applied, in order, by their schedule
    // labels (ScenarioSchedule): setup, timed steps reached, end steps.
    std::vector<std::string> steps;

    // 0 = every task accounted for; 1 = a task was lost or failed to send;
    // 3 = the run could not start or failed (broker, connection, log file).
    int exitCode() const;
};

// Threading: construct and run() on one thread; requestStop() from any
// thread (a signal handler's helper thread, the GUI) ends the run early.
// The ledger's options for a run of `scenario`: its MaxReceiveCount (so a
// dead-lettering no broker reports is still seen), derived redeliveries, and
// room to keep every task's details. The headless runner and the console use it.
LedgerOptions ledgerOptionsFor(const Scenario& scenario);

class ScenarioRunner {
public:
    ScenarioRunner(Scenario scenario, RunOptions options);

    RunResult run();
    void requestStop() { stopRequested_ = true; }

private:
    Scenario scenario_;
    RunOptions options_;
    std::atomic<bool> stopRequested_{false};
};

}  // namespace qs::runner
