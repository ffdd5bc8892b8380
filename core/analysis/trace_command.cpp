#include "analysis/trace_command.h"

#include <iostream>

#include "analysis/command_line.h"
#include "analysis/trace_export.h"
#include "common/version.h"

namespace qs::analysis {

std::string traceUsage() {
    return R"(Usage: queuescope trace RUN.qsrun --out run.trace.json

Writes a recorded run (queuescope run --record FILE) as Chrome trace-event
JSON, to open in Perfetto (https://ui.perfetto.dev, works offline once
loaded) or chrome://tracing: a track per worker, a slice per delivery from
hand-out to how it ended (named and coloured by that: acked, rejected,
dead-lettered, crashed, returned, expired...), flow arrows from each hand-out
of a message to its next, an instant where a worker crashed, and counter
tracks of each channel's depth (waiting, in flight, delayed).

Options
  -o, --out FILE  the JSON file to write ("-" = standard output)
  -h, --help      this text
  --version       print the version and exit

Exit status
  0  the trace was written
  1  the output could not be written (nothing is left half-written)
  2  bad command line
  3  the file is not a readable Queuescope recording (the message says why)
)";
}

int runTrace(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    CommandLine line;
    if (const std::string why = parseCommandLine(args, true, &line); !why.empty()) {
        err << "queuescope trace: " << why << "\n(see queuescope trace --help)\n";
        return kExitUsage;
    }
    if (line.help) {
        out << traceUsage();
        return kExitOk;
    }
    if (line.version) {
        out << "queuescope trace " << kVersion << '\n';
        return kExitOk;
    }
    if (line.files.size() != 1) {
        err << "queuescope trace: expected one recording (RUN.qsrun), got " << line.files.size()
            << "\n(see queuescope trace --help)\n";
        return kExitUsage;
    }
    const auto run = openRecording("trace", line.files.front(), err);
    if (!run) {
        return kExitBadRecording;
    }
    TraceStats stats;
    std::string error;
    if (!writeOutput(
            line.out, out, [&](std::ostream& o) { stats = writeTrace(*run, o); }, &error)) {
        err << "queuescope trace: " << error << '\n';
        return kExitCannotWrite;
    }
    if (line.out != "-") {
        out << line.out << ": " << stats.slices << " deliveries on " << stats.workerTracks
            << " worker tracks, " << stats.flowArrows << " flow arrows, " << stats.counterEvents
            << " depth samples\n";
    }
    return kExitOk;
}

int runTrace(int argc, char** argv) {
    return runTrace(argsOf(argc, argv, "trace"), std::cout, std::cerr);
}

}  // namespace qs::analysis
