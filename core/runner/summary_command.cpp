#include "runner/summary_command.h"

#include <exception>
#include <iostream>

#include "common/version.h"
#include "runner/run_recording.h"
#include "runner/summary_table.h"

namespace qs::runner {

std::string summaryUsage() {
    return R"(Usage: queuescope summary RUN.qsrun

Prints the summary of a recorded run (queuescope run --record FILE) from the
recording alone: the per-worker table and the totals, the same text the run
printed when it ended. The events are replayed, in order, into the same
message ledger the run used. A run that never finished (killed) gets what its
events show, with a line saying so.

Options
  -h, --help   this text
  --version    print the version and exit

Exit status
  0  the summary was printed
  2  bad command line
  3  the file is not a readable Queuescope recording (the message says why)
)";
}

int runSummary(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    std::vector<std::string> files;
    for (const std::string& a : args) {
        if (a == "-h" || a == "--help") {
            out << summaryUsage();
            return 0;
        }
        if (a == "--version") {
            out << "queuescope summary " << kVersion << '\n';
            return 0;
        }
        if (a.size() > 1 && a[0] == '-') {
            err << "queuescope summary: unknown option '" << a << "'\n"
                << "(see queuescope summary --help)\n";
            return 2;
        }
        files.push_back(a);
    }
    if (files.size() != 1) {
        err << "queuescope summary: expected one recording (RUN.qsrun), got " << files.size()
            << "\n(see queuescope summary --help)\n";
        return 2;
    }
    ReplayedRun run;
    std::string error;
    try {
        if (!replayRecording(files.front(), &run, &error)) {
            err << "queuescope summary: " << error << '\n';
            return 3;
        }
    } catch (const std::exception& e) {
        // bad_alloc on a hostile file, say: one line, not std::terminate.
        err << "queuescope summary: " << files.front() << ": cannot be read: " << e.what() << '\n';
        return 3;
    }
    if (!run.note.empty()) {
        out << run.note << "\n\n";
    }
    out << formatSummary(run.scenario, run.result);
    out.flush();
    return 0;
}

int runSummary(int argc, char** argv) {
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) {
        args.emplace_back(argv[i]);
    }
    if (!args.empty() && args.front() == "summary") {
        args.erase(args.begin());
    }
    return runSummary(args, std::cout, std::cerr);
}

}  // namespace qs::runner
