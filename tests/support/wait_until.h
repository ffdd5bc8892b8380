#pragma once

#include <chrono>
#include <functional>
#include <thread>

// Waiting in tests for a condition, never for a fixed time. Any thread.
namespace qs::test {

// Generous: it only bounds a failure (waitUntil returns as soon as the condition
// holds), and CI runs the sanitizer suites several at once on a starved 2-core
// machine next to a build, where a gRPC round trip can take seconds.
inline constexpr std::chrono::seconds kWaitDeadline{60};

// Polls predicate() every 10 ms until it holds or `timeout` passes; true when it held.
inline bool waitUntil(const std::function<bool()>& predicate,
                      std::chrono::milliseconds timeout = kWaitDeadline) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        if (predicate()) {
            return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return predicate();
}

}  // namespace qs::test
