#include "analysis/parity_check.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "client/address_check.h"
#include "client/queues_client.h"
#include "runner/run_recording.h"

namespace qs::analysis {

namespace fs = std::filesystem;

namespace {

// Asks the server for a Ping, and when the scenario creates or deletes its
// channel, whether it serves channel management. "" when it can go on;
// otherwise the sentence, with *unavailable for a missing feature.
std::string probeServer(const ParityOptions& o, bool* unavailable) {
    client::ClientOptions co;
    co.address = o.address;
    co.authToken = o.authToken;
    co.clientId = "queuescope-parity-probe";
    auto created = client::QueuesClient::create(co);
    if (!created.ok()) {
        return "cannot connect to " + o.address + ": " + created.error().describe();
    }
    client::QueuesClient& client = *created.value();
    if (auto ping = client.ping(); !ping.ok()) {
        return "cannot reach the server at " + o.address + ": " + ping.error().describe();
    }
    // Ping goes without the token: one call that needs it, so a refused token
    // is found before the embedded run, not after it.
    if (auto info = client.queuesInfo(o.scenario.channel); !info.ok()) {
        return "the server at " + o.address + " refused a request: " + info.error().describe();
    }
    if (!o.scenario.createChannel && !o.scenario.deleteChannel) {
        return {};
    }
    (void)client.listQueues();
    if (client.channelManagementSupport() == client::QueuesClient::ChannelManagement::Unsupported) {
        *unavailable = true;
        return "the scenario creates or deletes its channel (createChannel / deleteChannel), and "
               "the server at " +
               o.address +
               " does not serve channel management (KubeMQ community v2.4.0 answers no request "
               "on kubemq.cluster.internal.requests); nothing was run. Run it without those "
               "steps to compare the rest (docs/broker.md)";
    }
    return {};
}

// What the server side cannot show at all: an expiry is seen only through the
// embedded broker's own events, so on a server expired and lost look alike.
// Only a task that can expire within the run's time bound matters.
std::string unobservable(const runner::Scenario& s) {
    const double bound = s.untilDrained ? s.timeoutSeconds : s.runForSeconds;
    const int expiry = s.tasks.policy.expirationSeconds;
    if (expiry > 0 && s.tasks.policy.delaySeconds + expiry < bound) {
        return "the scenario's tasks can expire within the run (policy expirationSeconds " +
               std::to_string(expiry) +
               "), and an expiry is seen only through the embedded broker's own events: a "
               "server reports none, so there an expired task would look lost; nothing was run";
    }
    return {};
}

// "" when the server answers a Ping now; else why not. After the server's
// run: a server that went away during it leaves a run that lost its tasks,
// which is no finding about the server's semantics.
std::string pingProblem(const ParityOptions& o) {
    client::ClientOptions co;
    co.address = o.address;
    co.authToken = o.authToken;
    co.clientId = "queuescope-parity-probe";
    auto created = client::QueuesClient::create(co);
    if (!created.ok()) {
        return created.error().describe();
    }
    if (auto ping = created.value()->ping(); !ping.ok()) {
        return ping.error().describe();
    }
    return {};
}

// The folder for the two recordings: made (or checked) here, before any run.
std::string prepareFolder(const ParityOptions& o, ParityResult& r) {
    if (o.recordDir.empty()) {
        std::error_code ec;
        std::string pattern = (fs::temp_directory_path(ec) / "queuescope-parity-XXXXXX").string();
        if (ec || ::mkdtemp(pattern.data()) == nullptr) {
            return std::string("cannot make a temporary folder: ") + std::strerror(errno);
        }
        r.recordDir = pattern;
    } else {
        std::error_code ec;
        if (fs::exists(o.recordDir, ec) && !fs::is_directory(o.recordDir, ec)) {
            return "--record-dir " + o.recordDir + " is not a folder";
        }
        r.recordDir = o.recordDir;
    }
    const fs::path dir(r.recordDir);
    r.embedded.recording = (dir / (o.recordingStem + ".embedded.qsrun")).string();
    r.server.recording = (dir / (o.recordingStem + ".server.qsrun")).string();
    for (const std::string* file : {&r.embedded.recording, &r.server.recording}) {
        std::error_code ec;
        if (fs::exists(*file, ec)) {
            return *file + " already exists: parity does not overwrite a recording (remove it "
                           "or choose another --record-dir)";
        }
    }
    if (!o.recordDir.empty()) {
        std::error_code ec;
        fs::create_directories(o.recordDir, ec);
        if (ec) {
            return "--record-dir " + o.recordDir + ": cannot be made: " + ec.message();
        }
    }
    return {};
}

bool runSide(const ParityOptions& o, ParitySide& side, std::uint64_t seed, std::string* problem) {
    if (o.log) {
        o.log("parity: running on the " + side.label +
              (side.address.empty() ? std::string() : " at " + side.address));
    }
    runner::RunOptions ro;
    ro.address = side.address;
    ro.authToken = side.address.empty() ? std::string() : o.authToken;
    ro.recordingPath = side.recording;
    ro.seed = seed;
    ro.cancelFlag = o.cancelFlag;
    ro.log = o.log;
    ro.keepMessageRecords = false;  // the recording has them
    runner::ScenarioRunner runner(o.scenario, ro);
    side.result = runner.run();
    if (side.address.empty()) {
        side.address = side.result.address;
    }
    if (side.result.exitCode() == 3) {
        *problem = "the run on the " + side.label + " failed: " + side.result.error;
        return false;
    }
    return true;
}

// The stop, when one was asked for: the sentence for the side it cut short.
bool stopRequested(const ParityOptions& o, bool onEmbedded, ParityResult& r) {
    if (o.cancelFlag == nullptr || !o.cancelFlag->load()) {
        return false;
    }
    r.stopped = true;
    r.problem = onEmbedded
                    ? "stopped on request during the run on the embedded broker; nothing ran "
                      "on the server"
                    : "stopped on request during the run on the server, so the two runs are "
                      "not compared (a run cut short differs for no fault of the server)";
    return true;
}

std::unique_ptr<RecordedRun> load(const ParitySide& side, std::string* problem) {
    std::string error;
    auto run = RecordedRun::load(side.recording, &error);
    if (!run) {
        *problem = "the recording of the " + side.label + " run cannot be read: " + error;
    }
    return run;
}

}  // namespace

int ParityResult::exitCode() const {
    switch (outcome) {
        case ParityOutcome::Same:
            return 0;
        case ParityOutcome::Differs:
            return 1;
        case ParityOutcome::BadInput:
            return 2;
        case ParityOutcome::Unavailable:
        case ParityOutcome::RunFailed:
            return 3;
    }
    return 3;
}

ParityResult checkParity(const ParityOptions& o) {
    ParityResult r;
    r.embedded.label = "embedded broker";
    r.server.label = "server";
    r.server.address = o.address;
    if (std::string bad = client::addressProblem(o.address); !bad.empty()) {
        r.problem = "--address " + o.address + ": " + bad;
        return r;
    }
    bool unavailable = false;
    if (std::string why = probeServer(o, &unavailable); !why.empty()) {
        r.outcome = unavailable ? ParityOutcome::Unavailable : ParityOutcome::BadInput;
        r.problem = why;
        return r;
    }
    if (std::string why = unobservable(o.scenario); !why.empty()) {
        r.outcome = ParityOutcome::Unavailable;
        r.problem = why;
        return r;
    }
    if (std::string why = prepareFolder(o, r); !why.empty()) {
        r.problem = why;
        return r;
    }
    r.seed = runner::resolveSeed(o.seed);
    r.outcome = ParityOutcome::RunFailed;
    for (ParitySide* side : {&r.embedded, &r.server}) {
        if (!runSide(o, *side, r.seed, &r.problem) || stopRequested(o, side == &r.embedded, r)) {
            return r;
        }
    }
    if (std::string why = pingProblem(o); !why.empty()) {
        r.problem = "the server at " + o.address + " went away during its run (it no longer "
                    "answers: " + why + "), so the two runs are not compared";
        return r;
    }
    r.embeddedRun = load(r.embedded, &r.problem);
    r.serverRun = r.embeddedRun ? load(r.server, &r.problem) : nullptr;
    if (!r.serverRun) {
        return r;
    }
    r.comparison = compareRuns(*r.embeddedRun, *r.serverRun);
    r.outcome = r.comparison->differs() ? ParityOutcome::Differs : ParityOutcome::Same;
    return r;
}

}  // namespace qs::analysis
