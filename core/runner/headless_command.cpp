#include "runner/headless_command.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string_view>

#include "common/interrupt_scope.h"
#include "common/prefix_lines.h"
#include "common/version.h"
#include "runner/command_line_values.h"
#include "runner/headless_options.h"
#include "runner/scenario_json.h"
#include "runner/scenario_library.h"
#include "runner/summary_table.h"

namespace qs::runner {

namespace {

// Each flag, as parsed: its option and its value ("" for a switch).
struct Flag {
    const HeadlessOption* option = nullptr;
    std::string value;
};

// The words of the command line as flags of the option table.
bool tokenize(const std::vector<std::string>& args, std::vector<Flag>* flags, std::string* error) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        const std::size_t eq = a.find('=');
        const bool dashed = a.size() >= 3 && a[0] == '-' && a[1] == '-';
        if (!dashed && a != "-h") {
            *error = "unexpected argument '" + a + "' (options start with --)";
            return false;
        }
        const std::string name =
            a == "-h" ? "help" : a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
        Flag f{findHeadlessOption(name), {}};
        if (f.option == nullptr) {
            *error = "unknown option '" + a + "'";
            return false;
        }
        const bool switchOption = f.option->placeholder.empty();
        if (eq != std::string::npos) {
            if (switchOption) {
                *error = "--" + name + " takes no value";
                return false;
            }
            f.value = a.substr(eq + 1);
        } else if (!switchOption) {
            if (i + 1 >= args.size()) {
                *error = "--" + name + " needs a value";
                return false;
            }
            f.value = args[++i];
        }
        flags->push_back(std::move(f));
    }
    return true;
}

// Files named twice, and a recording without events.
bool checkOutputs(const RunOptions& o, std::string* error) {
    if (!o.eventsCsvPath.empty() && !o.eventsJsonlPath.empty() &&
        sameFile(o.eventsCsvPath, o.eventsJsonlPath)) {
        *error = "--events-csv and --events-jsonl name the same file";
        return false;
    }
    for (const std::string* log : {&o.eventsCsvPath, &o.eventsJsonlPath}) {
        if (!o.recordingPath.empty() && !log->empty() && sameFile(*log, o.recordingPath)) {
            *error = "--record and an event log name the same file";
            return false;
        }
    }
    if (!o.recordingPath.empty() && !o.recordEvents) {
        *error = "--record needs the event stream: drop --no-events";
        return false;
    }
    return true;
}

}  // namespace

Scenario defaultScenario() {
    Scenario s;
    s.name = "";
    s.channel = "tasks";
    s.tasks.count = 10;
    WorkerGroup g;
    g.count = 3;
    g.config.batchSize = 5;
    g.config.waitMs = 10000;
    g.config.work = workers::WorkProfile::fixed(100.0);
    s.workers.push_back(g);
    s.untilDrained = true;
    s.timeoutSeconds = 60.0;
    return s;
}

std::string headlessUsage() {
    // The options' lines come from the table the parser reads (ranges from
    // the records the parser checks against).
    const std::string text = R"(Usage: queuescope run [--scenario NAME|FILE] [options]

Runs a work-queue scenario headless: sends tasks, runs a pool of workers (one
client and one connection each) against the embedded broker (started in this
process on a free port) or a KubeMQ server, then prints a per-worker summary and
totals computed from the event ledger. Without --scenario the classic demo runs:
10 tasks, 3 workers, batch 5, wait 10 s, 100 ms of work per task.
Options override the scenario file; worker options apply to every worker group.

)" + formatHeadlessOptions() +
                             R"(
Exit status
  0  every task was acked, dead-lettered, dropped or expired
  1  a task was lost (sent, never settled for good) or could not be sent
  2  bad command line or scenario
  3  the run failed (broker, connection, event log or recording file)
)";
    return text;
}

bool parseHeadlessArgs(const std::vector<std::string>& args, HeadlessArgs* out,
                       std::string* error) {
    std::vector<Flag> flags;
    if (!tokenize(args, &flags, error)) {
        return false;
    }
    HeadlessArgs h;
    h.scenario = defaultScenario();
    // --help and --version end the parse; the scenario is loaded before the
    // options that change it, wherever it stands on the line.
    for (const Flag& f : flags) {
        const std::string_view name = f.option->name;
        if (name == "help" || name == "version") {
            (name == "help" ? h.help : h.version) = true;
            *out = std::move(h);
            return true;
        }
        if (name == "scenario") {
            if (f.value.empty()) {
                *error = "--scenario needs a NAME or FILE";
                return false;
            }
            h.scenarioPath = f.value;
        }
    }
    if (!h.scenarioPath.empty() && !loadScenario(h.scenarioPath, &h.scenario, error)) {
        return false;
    }
    for (const Flag& f : flags) {
        std::string why;
        if (f.option->apply != nullptr && !f.option->apply(h, f.value, &why)) {
            *error = "--" + std::string(f.option->name) + " " + f.value + ": " + why;
            return false;
        }
    }
    if (!checkOutputs(h.options, error)) {
        return false;
    }
    Scenario& s = h.scenario;
    std::stable_sort(s.timeline.begin(), s.timeline.end(),
                     [](const TimelineAction& a, const TimelineAction& b) { return a.at < b.at; });
    if (std::string problems = s.validate(); !problems.empty()) {
        *error = problems;
        return false;
    }
    *out = std::move(h);
    return true;
}

int runHeadless(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    HeadlessArgs h;
    std::string error;
    if (!parseHeadlessArgs(args, &h, &error)) {
        // One line a problem (a scenario can have several), each readable alone.
        err << prefixLines("queuescope run: ", error) << '\n';
        err << "(see queuescope run --help)\n";
        return 2;
    }
    if (h.help) {
        out << headlessUsage();
        return 0;
    }
    if (h.version) {
        out << "queuescope run " << kVersion << '\n';
        return 0;
    }
    h.options.cancelFlag = &interruptRequested();
    if (!h.quiet) {
        h.options.log = [&err](const std::string& line) { err << line << '\n' << std::flush; };
    }
    RunResult result;
    try {
        ScenarioRunner runner(h.scenario, h.options);
        result = runner.run();
    } catch (const std::exception& e) {
        // Last resort for what escapes the run (std::system_error when a thread
        // cannot start, bad_alloc): one line and exit 3, not std::terminate.
        err << "queuescope run: the run failed: " << e.what() << '\n';
        return 3;
    }
    out << formatSummary(h.scenario, result);
    out.flush();
    if (!result.error.empty()) {
        err << "queuescope run: " << result.error << '\n';
    }
    return result.exitCode();
}

int runHeadless(int argc, char** argv) {
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) {
        args.emplace_back(argv[i]);
    }
    if (!args.empty() && args.front() == "run") {
        args.erase(args.begin());
    }
    const InterruptScope interrupts;
    return runHeadless(args, std::cout, std::cerr);
}

}  // namespace qs::runner
