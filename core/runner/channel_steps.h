#pragma once

#include <optional>
#include <string>

#include "runner/scenario.h"

namespace qs::client {
class QueuesClient;
}

// The channel-management steps a scenario asks for around its run:
// `createChannel` before anything is sent, `deleteChannel` once its workers
// have stopped. The headless runner and the console's scenario player both
// take them from here, so both honour a scenario the same way and word the
// outcome the same way.
namespace qs::runner {

enum class ChannelStep { Create, Delete };

struct ChannelStepResult {
    bool ok = false;
    // "created channel tasks" when ok, else "create channel tasks: <error>".
    // A server without channel management answers Unsupported; the run goes on
    // (sending creates the channel), so callers report a failure as a warning.
    std::string text;
};

// Whether `scenario` asks for `step`.
bool wantsChannelStep(const Scenario& scenario, ChannelStep step);

// Runs `step` on the scenario's channel when the scenario asks for it
// (nullopt when it does not). Blocks on the network: call it from a thread
// that may wait (the runner's thread, a worker thread of the console; never
// the console's UI thread). `client` must outlive the call.
std::optional<ChannelStepResult> runChannelStep(client::QueuesClient& client,
                                                const Scenario& scenario, ChannelStep step);

}  // namespace qs::runner
