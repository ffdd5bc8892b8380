#pragma once

#include <iosfwd>
#include <string>
#include <vector>

// `queuescope report RUN.qsrun --out report.html`: the recorded run as one
// self-contained HTML page (analysis/html_report.h).
//
// Exit codes: 0 written; 1 the output could not be written; 2 bad command
// line; 3 the file is not a readable recording.
namespace qs::analysis {

// argv[0] is the program; argv[1] may be the word "report" (skipped).
int runReport(int argc, char** argv);
int runReport(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

std::string reportUsage();

}  // namespace qs::analysis
