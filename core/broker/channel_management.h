#pragma once

#include <string_view>

#include "broker/queue_engine.h"
#include "kubemq.pb.h"

namespace qs::broker {

// The channel that carries create / delete / list requests (spec §2.12).
inline constexpr std::string_view kChannelManagementChannel = "kubemq.cluster.internal.requests";

// Answers one channel-management Query. Success: Executed=true, Error="";
// failure: Executed=false with a reason. list-channels puts a JSON array in
// Body (`[]` when nothing matches). Thread-safe.
kubemq::Response handleChannelManagement(QueueEngine& engine, const kubemq::Request& request);

}  // namespace qs::broker
