#include "runner/redrive_command.h"

#include <cmath>
#include <iostream>
#include <ostream>

#include "client/queues_client.h"
#include "common/interrupt_scope.h"
#include "runner/command_line_values.h"
#include "runner/redrive.h"

namespace qs::runner {

namespace {

struct RedriveArgs {
    std::string address;
    std::string authToken;
    RedriveOptions options;
    bool quiet = false;
    bool help = false;
};

// One option and its value; false with *error naming it.
bool applyOption(const std::string& name, const std::string& value, RedriveArgs* a,
                 std::string* error) {
    auto bad = [&](const std::string& why) {
        *error = "--" + name + " " + value + ": " + why;
        return false;
    };
    if (name == "address") {
        if (std::string why = checkHostPort(value); !why.empty()) {
            return bad(why);
        }
        a->address = value;
    } else if (name == "auth-token") {
        a->authToken = value;
    } else if (name == "from") {
        a->options.from = value;
    } else if (name == "to") {
        a->options.to = value;
    } else if (name == "max") {
        int max = 0;
        if (!parseInt(value, 0, 1'000'000'000, &max)) {
            return bad("must be a whole number 0..1000000000 (0 = all)");
        }
        a->options.max = static_cast<std::uint64_t>(max);
    } else if (name == "batch") {
        if (!parseInt(value, 1, 1024, &a->options.batch)) {
            return bad("must be 1..1024");
        }
    } else if (name == "wait") {
        double seconds = 0.0;
        if (!parseDouble(value, &seconds) || seconds < 0.0 || seconds > 3600.0) {
            return bad("must be 0..3600 s");
        }
        a->options.wait = std::chrono::milliseconds(std::llround(seconds * 1000.0));
    } else {
        *error = "unknown option '--" + name + "'";
        return false;
    }
    return true;
}

bool parseRedriveArgs(const std::vector<std::string>& args, RedriveArgs* a, std::string* error) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg == "-h" || arg == "--help") {
            a->help = true;
            return true;
        }
        if (arg == "--quiet") {
            a->quiet = true;
            continue;
        }
        if (arg.rfind("--", 0) != 0) {
            *error = "unexpected argument '" + arg + "' (options start with --)";
            return false;
        }
        const std::size_t eq = arg.find('=');
        const std::string name = arg.substr(2, eq == std::string::npos ? eq : eq - 2);
        std::string value;
        if (eq != std::string::npos) {
            value = arg.substr(eq + 1);
        } else if (i + 1 < args.size()) {
            value = args[++i];
        } else {
            *error = "--" + name + " needs a value";
            return false;
        }
        if (!applyOption(name, value, a, error)) {
            return false;
        }
    }
    if (a->address.empty()) {
        *error = "--address is required: redrive works on a running server";
        return false;
    }
    if (std::string problem = checkRedriveOptions(a->options); !problem.empty()) {
        *error = problem;
        return false;
    }
    return true;
}

}  // namespace

std::string redriveUsage() {
    return R"(Usage: queuescope redrive --address HOST:PORT --from CHANNEL [options]

Moves messages out of CHANNEL (a dead-letter queue) back to the channel each one
came from (its ReRoutedFromQueue), or to --to. Each message is received in a
transaction, sent to its target with the same MessageID, body, metadata, tags
and policy, and acked in CHANNEL only after the send succeeded: a failure
leaves it where it was; a message whose ack failed after its send is in both
channels and is listed as a duplicate.

  --address HOST:PORT   the KubeMQ server (required)
  --auth-token TOKEN    token for --address
  --from CHANNEL        the channel to move messages out of (required)
  --to CHANNEL          move every message here instead
  --max N               stop after N moved (default 0 = all)
  --batch N             messages per receive, 1..1024 (default 100)
  --wait S              wait per receive, 0..3600 s (default 1; servers wait >= 1 s)
  --quiet               no progress lines on stderr
  -h, --help            this text

Exit status
  0  every message received was moved (or there was none)
  1  some stay in CHANNEL (refused by the target, or no target) or are in both
  2  bad command line
  3  the server could not be reached or went away (the report says what moved)
)";
}

int runRedrive(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
               const std::atomic<bool>* cancel) {
    RedriveArgs a;
    std::string error;
    if (!parseRedriveArgs(args, &a, &error)) {
        err << "queuescope redrive: " << error << "\n(see queuescope redrive --help)\n";
        return 2;
    }
    if (a.help) {
        out << redriveUsage();
        return 0;
    }
    client::ClientOptions clientOptions;
    clientOptions.address = a.address;
    clientOptions.authToken = a.authToken;
    clientOptions.clientId = "queuescope-redrive";
    auto made = client::QueuesClient::create(clientOptions);
    if (!made.ok()) {
        err << "queuescope redrive: " << made.error().describe() << '\n';
        return 3;
    }
    a.options.cancel = cancel;
    if (!a.quiet) {
        a.options.progress = [&err](const RedriveProgress& p) {
            err << "moved " << p.moved << (p.waiting ? " of " + std::to_string(p.waiting) : "")
                << ", left " << p.failed << '\n';
        };
    }
    const RedriveReport report = redrive(*made.value(), a.options);
    out << describe(report) << '\n';
    if (!report.error.empty()) {
        return 3;
    }
    return report.ok() && report.noTarget == 0 ? 0 : 1;
}

int runRedrive(int argc, char** argv) {
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) {
        if (i == 1 && std::string(argv[i]) == "redrive") {
            continue;
        }
        args.emplace_back(argv[i]);
    }
    const InterruptScope interrupts;
    return runRedrive(args, std::cout, std::cerr, &interruptRequested());
}

}  // namespace qs::runner
