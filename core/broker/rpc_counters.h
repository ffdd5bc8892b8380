#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

namespace qs::broker {

// How many RPCs each gRPC method was called, and how many ended with a status
// other than OK, by status code. Counts only grow; they live as long as the
// broker object, across stop() and start(). Thread-safe.
class RpcCounters {
public:
    struct Figures {
        std::map<std::string, std::uint64_t, std::less<>> requests;     // by method
        std::map<std::pair<std::string, int>, std::uint64_t> errors;  // by method, code
    };

    // Lists `method` with zero requests, so it shows before its first call.
    void declare(std::string_view method);
    void countRequest(std::string_view method);
    void countError(std::string_view method, int statusCode);
    Figures figures() const;

private:
    mutable std::mutex mutex_;
    Figures figures_;
};

}  // namespace qs::broker
