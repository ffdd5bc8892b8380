#include "broker/rpc_counters.h"

namespace qs::broker {

void RpcCounters::declare(std::string_view method) {
    std::lock_guard lock(mutex_);
    figures_.requests.try_emplace(std::string(method), 0);
}

void RpcCounters::countRequest(std::string_view method) {
    std::lock_guard lock(mutex_);
    auto it = figures_.requests.find(method);
    if (it == figures_.requests.end())
        it = figures_.requests.emplace(std::string(method), 0).first;
    ++it->second;
}

void RpcCounters::countError(std::string_view method, int statusCode) {
    std::lock_guard lock(mutex_);
    ++figures_.errors[{std::string(method), statusCode}];
}

RpcCounters::Figures RpcCounters::figures() const {
    std::lock_guard lock(mutex_);
    return figures_;
}

}  // namespace qs::broker
