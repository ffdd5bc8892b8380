#pragma once

#include <iosfwd>
#include <string>
#include <vector>

// `queuescope parity --scenario S --address HOST:PORT`: the scenario on the
// embedded broker and on the server, both recorded, compared as `queuescope
// compare` compares (analysis/parity_check.h).
//
// Exit codes: 0 nothing differs beyond what the semantics allow; 1 a
// difference they do not allow; 2 bad command line, unknown scenario, bad
// address, unreachable server or unusable --record-dir (nothing ran); 3 the
// scenario needs what the server does not serve (nothing ran), or a run failed.
namespace qs::analysis {

// argv[0] is the program; argv[1] may be the word "parity" (skipped). Installs
// a SIGINT/SIGTERM handler for the duration of the runs (stop early, still report).
int runParity(int argc, char** argv);
// Summary and JSON to `out`, progress and errors to `err`.
int runParity(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

std::string parityUsage();

}  // namespace qs::analysis
