#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "runner/scenario.h"
#include "runner/scenario_runner.h"

// `queuescope run [--scenario FILE] [flags]`: the headless entry point the
// queuescope executable calls. Everything it accepts is in headlessUsage().
//
// Exit codes: 0 every task reached an end state (acked, dead-lettered,
// dropped, expired); 1 a task was lost or could not be sent; 2 bad command
// line or scenario; 3 the run failed (broker, connection, log or recording file).
namespace qs::runner {

struct HeadlessArgs {
    Scenario scenario;
    RunOptions options;
    std::string scenarioPath;
    bool help = false;
    bool version = false;  // --version: print it and exit
    bool quiet = false;
};

// argv[0] is the program; argv[1] may be the word "run" (skipped). Installs a
// SIGINT/SIGTERM handler for the duration of the run (stop early, still report).
int runHeadless(int argc, char** argv);

// The same with explicit arguments (no program name, no "run") and streams:
// the summary goes to `out`, progress and errors to `err`.
int runHeadless(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// Parses flags over the default (or --scenario) scenario. False with *error
// naming the bad flag or scenario field.
bool parseHeadlessArgs(const std::vector<std::string>& args, HeadlessArgs* out, std::string* error);

std::string headlessUsage();

// The scenario used without --scenario: the classic work-queue demo
// (10 tasks, 3 workers, batch 5, wait 10 s, 100 ms of work each).
Scenario defaultScenario();

}  // namespace qs::runner
