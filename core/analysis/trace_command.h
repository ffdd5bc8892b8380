#pragma once

#include <iosfwd>
#include <string>
#include <vector>

// `queuescope trace RUN.qsrun --out run.trace.json`: the recorded run as Chrome
// trace-event JSON (analysis/trace_export.h) for Perfetto and chrome://tracing.
//
// Exit codes: 0 written; 1 the output could not be written; 2 bad command
// line; 3 the file is not a readable recording.
namespace qs::analysis {

// argv[0] is the program; argv[1] may be the word "trace" (skipped).
int runTrace(int argc, char** argv);
int runTrace(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

std::string traceUsage();

}  // namespace qs::analysis
