#include "analysis/report_command.h"

#include <iostream>

#include "analysis/command_line.h"
#include "analysis/html_report.h"
#include "common/version.h"

namespace qs::analysis {

std::string reportUsage() {
    return R"(Usage: queuescope report RUN.qsrun --out report.html

Writes a recorded run (queuescope run --record FILE) as one self-contained
HTML page to hand to a colleague: it needs no network and runs no script.
It holds the result, the run's settings, the per-worker summary (the numbers
of queuescope summary), the queue depth over time and each worker's
deliveries by how they ended (inline SVG), what happened in plain sentences
(crashes, dead-letters), and the journey of every message that was
redelivered or not acked (the first 200; the trace has them all).

Options
  -o, --out FILE  the HTML file to write ("-" = standard output)
  -h, --help      this text
  --version       print the version and exit

Exit status
  0  the report was written
  1  the output could not be written (nothing is left half-written)
  2  bad command line
  3  the file is not a readable Queuescope recording (the message says why)
)";
}

int runReport(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    CommandLine line;
    if (const std::string why = parseCommandLine(args, true, &line); !why.empty()) {
        err << "queuescope report: " << why << "\n(see queuescope report --help)\n";
        return kExitUsage;
    }
    if (line.help) {
        out << reportUsage();
        return kExitOk;
    }
    if (line.version) {
        out << "queuescope report " << kVersion << '\n';
        return kExitOk;
    }
    if (line.files.size() != 1) {
        err << "queuescope report: expected one recording (RUN.qsrun), got " << line.files.size()
            << "\n(see queuescope report --help)\n";
        return kExitUsage;
    }
    const auto run = openRecording("report", line.files.front(), err);
    if (!run) {
        return kExitBadRecording;
    }
    ReportStats stats;
    std::string error;
    if (!writeOutput(
            line.out, out, [&](std::ostream& o) { stats = writeHtmlReport(*run, o); }, &error)) {
        err << "queuescope report: " << error << '\n';
        return kExitCannotWrite;
    }
    if (line.out != "-") {
        out << line.out << ": " << stats.journeys << " of " << stats.notableMessages
            << " redelivered or not-acked messages told\n";
    }
    return kExitOk;
}

int runReport(int argc, char** argv) {
    return runReport(argsOf(argc, argv, "report"), std::cout, std::cerr);
}

}  // namespace qs::analysis
