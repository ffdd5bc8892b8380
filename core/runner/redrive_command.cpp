#include "runner/redrive_command.h"

#include <charconv>
#include <cmath>
#include <iostream>
#include <ostream>

#include "client/argument_checks.h"
#include "client/queues_client.h"
#include "common/protocol_limits.h"
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

// "a,b,c" as its parts; false when one is empty.
bool parseList(const std::string& value, std::vector<std::string>* out) {
    for (std::string& part : split(value, ',')) {
        if (part.empty()) {
            return false;
        }
        out->push_back(std::move(part));
    }
    return true;
}

// "3,7,9" as sequences (each 1 or more); false when one is not.
bool parseSequences(const std::string& value, std::vector<std::uint64_t>* out) {
    for (const std::string& part : split(value, ',')) {
        std::uint64_t sequence = 0;
        const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), sequence);
        if (ec != std::errc() || end != part.data() + part.size() || part.empty() ||
            sequence == 0) {
            return false;
        }
        out->push_back(sequence);
    }
    return true;
}

// The options of what moves and with which policy; false with *error.
bool applyMoveOption(const std::string& name, const std::string& value, RedriveOptions* o,
                     std::string* why) {
    if (name == "max") {
        int max = 0;
        if (!parseInt(value, kRedriveMax, &max)) {
            *why = "must be a whole number " + kRedriveMax.range() + " (0 = all)";
            return false;
        }
        o->max = static_cast<std::uint64_t>(max);
    } else if (name == "ids") {
        if (!parseList(value, &o->ids)) {
            *why = "must be message IDs separated by commas, none empty";
            return false;
        }
    } else if (name == "sequences") {
        if (!parseSequences(value, &o->sequences)) {
            *why = "must be sequences (whole numbers from 1) separated by commas";
            return false;
        }
    } else if (name == "max-receive-count") {
        int count = 0;
        if (!parseInt(value, protocol::kMaxReceiveCount, &count)) {
            *why = "must be a whole number " + protocol::kMaxReceiveCount.range() +
                   " (0 = the server's default, " +
                   std::to_string(protocol::kDefaultMaxReceiveCount) + ")";
            return false;
        }
        o->maxReceiveCount = count;
    } else if (name == "dead-letter-queue") {
        if (auto bad = client::checkChannelName(value, "dead-letter queue")) {
            *why = bad->message;
            return false;
        }
        o->deadLetterQueue = value;
    } else {
        *why = "unknown option '--" + name + "'";
        return false;
    }
    return true;
}

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
    } else if (name == "batch") {
        if (!parseInt(value, protocol::kMaxNumberOfMessages, &a->options.batch)) {
            return bad("must be " + protocol::kMaxNumberOfMessages.range());
        }
    } else if (name == "wait") {
        double seconds = 0.0;
        const auto& wait = protocol::kWaitTimeSeconds;
        if (!parseDouble(value, &seconds) || seconds < wait.min || seconds > wait.max) {
            return bad("must be " + wait.range());
        }
        a->options.wait = std::chrono::milliseconds(std::llround(seconds * 1000.0));
    } else if (std::string why; !applyMoveOption(name, value, &a->options, &why)) {
        if (why.rfind("unknown option", 0) == 0) {
            *error = why;
            return false;
        }
        return bad(why);
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
    const std::string receives = protocol::kMaxReceiveCount.range();
    return R"(Usage: queuescope redrive --address HOST:PORT --from CHANNEL [options]

Moves messages out of CHANNEL (a dead-letter queue) back to the channel each one
came from (its ReRoutedFromQueue), or to --to. Each message is received in a
transaction, sent to its target with the same MessageID, body, metadata, tags
and policy, and acked in CHANNEL only after the send succeeded: a failure
leaves it where it was; a message whose ack failed after its send is in both
channels and is listed as a duplicate. Messages that do not move are never
settled: they stay in CHANNEL at their place with their receive count.

  --address HOST:PORT   the KubeMQ server (required)
  --auth-token TOKEN    token for --address
  --from CHANNEL        the channel to move messages out of (required)
  --to CHANNEL          move every message here instead
  --max N               stop after N moved, )" +
           kRedriveMax.range() + R"( (default 0 = all)
  --ids ID,ID           move only the messages with these MessageIDs (the first
                        waiting one of each)
  --sequences N,N       move only the messages with these sequences in CHANNEL
                        (as a peek shows them); with --ids, either selects

Policy of the moved messages. KubeMQ keeps no MaxReceiveCount and no dead-letter
queue on a dead-lettered copy: sent back as it is, a poison message gets the
server's default of 1024 receives.
  --max-receive-count N every moved message gets MaxReceiveCount N, )" +
           receives + R"(
                        (0 = the server's default); default: the message's own
                        (0 on a dead-lettered copy)
  --dead-letter-queue CH
                        every moved message gets dead-letter queue CH; default:
                        CHANNEL for a dead-lettered message (where it was
                        dead-lettered to), the message's own for the others

  --batch N             messages per receive, )" +
           protocol::kMaxNumberOfMessages.range() + R"( (default 100; with
                        --ids or --sequences every receive asks for the most)
  --wait S              wait per receive, )" +
           protocol::kWaitTimeSeconds.range() + R"( (default 1; servers wait >= 1 s)
  --quiet               no progress lines on stderr
  -h, --help            this text

Exit status
  0  every message received was moved (or there was none)
  1  some stay in CHANNEL (refused by the target, or no target), are in both,
     or some selected were not found
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
