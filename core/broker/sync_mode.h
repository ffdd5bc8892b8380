#pragma once

#include <optional>
#include <string_view>

namespace qs::broker {

// How far a recorded change is guaranteed before the client is answered
// (docs/broker.md, Durable store).
enum class SyncMode {
    Always,  // on disk (fdatasync) before the answer; concurrent operations share one fsync
    Batch,   // written to the OS before the answer, on disk within the batch interval
    None,    // written to the OS before the answer; the OS decides when it reaches disk
};

std::optional<SyncMode> parseSyncMode(std::string_view text);  // "always" | "batch" | "none"
std::string_view syncModeName(SyncMode mode);

}  // namespace qs::broker
