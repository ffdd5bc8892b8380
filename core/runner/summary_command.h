#pragma once

#include <iosfwd>
#include <string>
#include <vector>

// `queuescope summary RUN.qsrun`: prints the summary table of a recorded run
// from the recording alone, the same text `queuescope run` printed at the end
// of that run (both come from formatSummary() over computeLedgerTotals()).
//
// Exit codes: 0 printed; 2 bad command line; 3 the file is not a readable
// recording (the message says why).
namespace qs::runner {

// argv[0] is the program; argv[1] may be the word "summary" (skipped).
int runSummary(int argc, char** argv);
// The same with explicit arguments (no program name, no "summary").
int runSummary(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

std::string summaryUsage();

}  // namespace qs::runner
