#pragma once

#include <cstdint>
#include <string>

namespace qs::client {

// Answer of Ping.
struct ServerInfo {
    std::string host;
    std::string version;         // e.g. "v2.4.0"
    std::int64_t startTime = 0;  // Unix seconds of server start
    std::int64_t uptimeSeconds = 0;
};

}  // namespace qs::client
