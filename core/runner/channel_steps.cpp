#include "runner/channel_steps.h"

#include "client/queues_client.h"

namespace qs::runner {

bool wantsChannelStep(const Scenario& scenario, ChannelStep step) {
    return step == ChannelStep::Create ? scenario.createChannel : scenario.deleteChannel;
}

std::optional<ChannelStepResult> runChannelStep(client::QueuesClient& client,
                                                const Scenario& scenario, ChannelStep step) {
    if (!wantsChannelStep(scenario, step)) {
        return std::nullopt;
    }
    const bool create = step == ChannelStep::Create;
    auto outcome =
        create ? client.createQueue(scenario.channel) : client.deleteQueue(scenario.channel);
    ChannelStepResult result;
    result.ok = outcome.ok();
    if (result.ok) {
        result.text = (create ? "created channel " : "deleted channel ") + scenario.channel;
    } else {
        result.text = (create ? "create channel " : "delete channel ") + scenario.channel + ": " +
                      outcome.error().describe();
    }
    return result;
}

}  // namespace qs::runner
