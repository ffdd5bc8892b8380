#include "analysis/parity_command.h"

#include <atomic>
#include <charconv>
#include <exception>
#include <filesystem>
#include <iostream>
#include <system_error>
#include <nlohmann/json.hpp>

#include "analysis/command_line.h"
#include "analysis/parity_check.h"
#include "common/interrupt_scope.h"
#include "common/prefix_lines.h"
#include "common/version.h"
#include "runner/scenario_library.h"

namespace qs::analysis {

namespace {

constexpr int kExitUnavailable = 3;

struct ParityLine {
    std::string scenario;
    std::string address;
    std::string authToken;
    std::string recordDir;
    std::uint64_t seed = 0;
    bool json = false;
    bool quiet = false;
    bool help = false;
    bool version = false;
};

// "" when fine, else the complaint.
std::string parseLine(const std::vector<std::string>& args, ParityLine* out) {
    ParityLine line;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string a = args[i];
        std::string value;
        bool inlineValue = false;
        if (const std::size_t eq = a.find('='); a.rfind("--", 0) == 0 && eq != std::string::npos) {
            value = a.substr(eq + 1);
            a = a.substr(0, eq);
            inlineValue = true;
        }
        auto take = [&](std::string* into) -> std::string {
            if (!inlineValue) {
                if (i + 1 >= args.size()) {
                    return a + " needs a value";
                }
                value = args[++i];
            }
            if (value.empty()) {
                return a + " needs a value";
            }
            *into = value;
            return {};
        };
        std::string why;
        std::string seed;
        const bool switchOption =
            a == "--help" || a == "--version" || a == "--json" || a == "--quiet";
        if (switchOption && inlineValue) {
            return a + " takes no value";
        }
        if (a == "-h" || a == "--help") {
            line.help = true;
        } else if (a == "--version") {
            line.version = true;
        } else if (a == "--json") {
            line.json = true;
        } else if (a == "--quiet") {
            line.quiet = true;
        } else if (a == "--scenario") {
            why = take(&line.scenario);
        } else if (a == "--address") {
            why = take(&line.address);
        } else if (a == "--auth-token") {
            why = take(&line.authToken);
        } else if (a == "--record-dir") {
            why = take(&line.recordDir);
        } else if (a == "--seed") {
            why = take(&seed);
            const auto [end, ec] = std::from_chars(seed.data(), seed.data() + seed.size(), line.seed);
            if (why.empty() && (ec != std::errc() || end != seed.data() + seed.size())) {
                why = "--seed " + seed + ": must be a whole number";
            }
        } else {
            why = a.rfind("-", 0) == 0 ? "unknown option '" + a + "'"
                                       : "unexpected argument '" + a + "'";
        }
        if (!why.empty()) {
            return why;
        }
    }
    if (!line.help && !line.version) {
        if (line.scenario.empty()) {
            return "--scenario NAME|FILE is required";
        }
        if (line.address.empty()) {
            return "--address HOST:PORT is required";
        }
    }
    *out = std::move(line);
    return {};
}

std::string outcomeName(ParityOutcome o) {
    switch (o) {
        case ParityOutcome::Same:
            return "same";
        case ParityOutcome::Differs:
            return "different";
        case ParityOutcome::BadInput:
            return "bad input";
        case ParityOutcome::Unavailable:
            return "not expressible on the server";
        case ParityOutcome::RunFailed:
            return "run failed";
    }
    return "?";
}

// The recordings that were made (a failed run may have left only one).
void printRecordings(const ParityResult& r, std::ostream& out) {
    out << "\nRecordings (open them with queuescope compare, report, trace, summary):\n";
    for (const std::string* file : {&r.embedded.recording, &r.server.recording}) {
        std::error_code ec;
        if (std::filesystem::exists(*file, ec)) {
            out << "  " << *file << '\n';
        }
    }
}

void printText(const ParityLine& line, const ParityResult& r, std::ostream& out) {
    out << "Parity of " << line.scenario << " (seed " << r.seed << ")\n";
    if (r.comparison) {
        out << formatComparison(*r.comparison, "embedded broker " + r.embedded.address,
                                "server " + r.server.address);
    }
    out << "\nParity: "
        << (r.outcome == ParityOutcome::Same
                ? "SAME - the server and the embedded broker did the same work, apart from "
                  "what the semantics allow"
            : r.outcome == ParityOutcome::Differs
                ? "DIFFERENT - the server and the embedded broker disagree where the semantics "
                  "do not allow it (rows marked DIFFERS)"
                : "NOT COMPARED - " + r.problem)
        << '\n';
    printRecordings(r, out);
}

void printJson(const ParityLine& line, const ParityResult& r, std::ostream& out) {
    nlohmann::json j = {{"scenario", line.scenario},
                        {"address", r.server.address},
                        {"embeddedAddress", r.embedded.address},
                        {"seed", r.seed},
                        {"result", outcomeName(r.outcome)},
                        {"exitCode", r.exitCode()}};
    if (!r.recordDir.empty()) {
        j["recordings"] = {{"directory", r.recordDir},
                           {"embedded", r.embedded.recording},
                           {"server", r.server.recording}};
    }
    if (!r.problem.empty()) {
        j["problem"] = r.problem;
    }
    if (r.comparison) {
        j["comparison"] = nlohmann::json::parse(comparisonJson(*r.comparison));
    }
    out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

}  // namespace

std::string parityUsage() {
    return R"(Usage: queuescope parity --scenario NAME|FILE --address HOST:PORT [options]

Runs the scenario twice, on the embedded broker (started in this process on
127.0.0.1, a free port, as `queuescope run` does without --address) and on the
server at HOST:PORT, records both runs and compares them as `queuescope
compare` does: the outcome of every task, each worker's share, redeliveries,
dead-letters, expiries, and how each hand-out reached its worker (in a full
batch at once, or when the poll's wait timeout ran out). Differences the
semantics of a work queue allow (which worker got a task, ordering among
competing consumers, timing, what the scenario leaves to chance) are marked
allowed; the others DIFFERS. Both runs use the same seed.

Options
  --scenario NAME|FILE  a bundled scenario (e.g. 04-worker-crash) or a JSON file
  --address HOST:PORT   the server to check against the embedded broker
  --auth-token TOKEN    token for the server
  --record-dir DIR      keep the two recordings in DIR (made if missing;
                        NAME.embedded.qsrun and NAME.server.qsrun, never
                        overwritten); default: a new temporary folder
  --seed N              the workers' seed in both runs (default: drawn once)
  --json                print the result as JSON instead of tables
  --quiet               no progress lines on stderr
  -h, --help            this text
  --version             print the version and exit

Exit status
  0  nothing differs beyond what the semantics allow
  1  a difference the semantics do not allow
  2  bad command line, unknown scenario, bad address, unreachable server or
     unusable --record-dir: nothing was run
  3  the scenario needs what the server does not serve (channel management,
     visible expiries): nothing was run; or a run failed
)";
}

int runParity(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    ParityLine line;
    if (const std::string why = parseLine(args, &line); !why.empty()) {
        err << "queuescope parity: " << why << "\n(see queuescope parity --help)\n";
        return kExitUsage;
    }
    if (line.help) {
        out << parityUsage();
        return kExitOk;
    }
    if (line.version) {
        out << "queuescope parity " << kVersion << '\n';
        return kExitOk;
    }
    ParityOptions options;
    std::string error;
    if (!runner::loadScenario(line.scenario, &options.scenario, &error)) {
        err << prefixLines("queuescope parity: ", error) << "\n(see queuescope parity --help)\n";
        return kExitUsage;
    }
    // The recordings are named after the scenario's file, also when a short
    // name chose it.
    std::string unused;
    const std::string file = runner::resolveScenario(line.scenario, &unused);
    options.recordingStem =
        std::filesystem::path(file.empty() ? line.scenario : file).stem().string();
    options.address = line.address;
    options.authToken = line.authToken;
    options.recordDir = line.recordDir;
    options.seed = line.seed;
    options.cancelFlag = &interruptRequested();
    if (!line.quiet) {
        options.log = [&err](const std::string& text) { err << text << '\n' << std::flush; };
    }
    ParityResult result;
    try {
        result = checkParity(options);
    } catch (const std::exception& e) {
        err << "queuescope parity: the check failed: " << e.what() << '\n';
        return kExitUnavailable;
    }
    if (result.outcome == ParityOutcome::BadInput) {
        err << "queuescope parity: " << result.problem << '\n';
        return result.exitCode();
    }
    if (result.outcome == ParityOutcome::Unavailable) {
        // Nothing ran: the reason, and with --json the same as an object.
        err << "queuescope parity: " << result.problem << '\n';
        if (line.json) {
            printJson(line, result, out);
        }
        return result.exitCode();
    }
    if (result.outcome == ParityOutcome::RunFailed) {
        err << "queuescope parity: " << result.problem << '\n';
    }
    if (line.json) {
        printJson(line, result, out);
    } else {
        printText(line, result, out);
    }
    out.flush();
    return result.exitCode();
}

int runParity(int argc, char** argv) {
    const InterruptScope interrupts;
    return runParity(argsOf(argc, argv, "parity"), std::cout, std::cerr);
}

}  // namespace qs::analysis
