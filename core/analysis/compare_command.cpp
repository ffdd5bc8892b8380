#include "analysis/compare_command.h"

#include <iostream>

#include "analysis/command_line.h"
#include "analysis/run_comparison.h"
#include "common/version.h"

namespace qs::analysis {

std::string compareUsage() {
    return R"(Usage: queuescope compare A.qsrun B.qsrun

Compares two recorded runs (queuescope run --record FILE): the settings that
differ, the totals, latency percentiles, each worker's share, and the tasks
that ended differently. A task is known across runs by its task number and
body (message ids are new in every run). Each difference is judged:

  allowed  the semantics of a work queue allow it between two runs of the
           same work: which worker got a task (so each worker's share, polls,
           empty polls), timing (elapsed time, latencies), which tasks a
           crashed worker happened to hold when as many came back in both
  DIFFERS  they do not: a different number of tasks sent, acked,
           dead-lettered, dropped, expired or lost; different amounts of
           rejection, redelivery, return or crashes; a task acked in one run
           and dead-lettered or lost in the other, or sent in one run only

Options
  -h, --help   this text
  --version    print the version and exit

Exit status
  0  no difference outside what the semantics allow
  1  a difference the semantics do not allow
  2  bad command line
  3  a file is not a readable Queuescope recording (the message says why)
)";
}

int runCompare(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    CommandLine line;
    if (const std::string why = parseCommandLine(args, false, &line); !why.empty()) {
        err << "queuescope compare: " << why << "\n(see queuescope compare --help)\n";
        return kExitUsage;
    }
    if (line.help) {
        out << compareUsage();
        return kExitOk;
    }
    if (line.version) {
        out << "queuescope compare " << kVersion << '\n';
        return kExitOk;
    }
    if (line.files.size() != 2) {
        err << "queuescope compare: expected two recordings (A.qsrun B.qsrun), got "
            << line.files.size() << "\n(see queuescope compare --help)\n";
        return kExitUsage;
    }
    const auto a = openRecording("compare", line.files[0], err);
    if (!a) {
        return kExitBadRecording;
    }
    const auto b = openRecording("compare", line.files[1], err);
    if (!b) {
        return kExitBadRecording;
    }
    const RunComparison comparison = compareRuns(*a, *b);
    out << formatComparison(comparison, line.files[0], line.files[1]);
    out.flush();
    return comparison.differs() ? kExitDiffers : kExitOk;
}

int runCompare(int argc, char** argv) {
    return runCompare(argsOf(argc, argv, "compare"), std::cout, std::cerr);
}

}  // namespace qs::analysis
