#pragma once

#include <iosfwd>
#include <string>
#include <vector>

// `queuescope compare A.qsrun B.qsrun`: two recorded runs side by side
// (analysis/run_comparison.h), printed as tables.
//
// Exit codes: 0 no difference outside what the semantics allow; 1 a
// difference they do not allow; 2 bad command line; 3 a file is not a
// readable recording.
namespace qs::analysis {

// argv[0] is the program; argv[1] may be the word "compare" (skipped).
int runCompare(int argc, char** argv);
int runCompare(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

std::string compareUsage();

}  // namespace qs::analysis
