#pragma once

#include <functional>
#include <list>
#include <mutex>
#include <thread>
#include <vector>

namespace qs::broker {

// Owns the worker threads of callback-driven stream sessions so the broker
// can join them all on stop. Finished threads are reaped on the next spawn.
// Thread-safe.
class SessionThreads {
public:
    ~SessionThreads() { joinAll(); }

    void spawn(std::function<void()> body);
    void joinAll();  // call from a thread that is not one of these workers

private:
    std::mutex mutex_;
    std::list<std::thread> threads_;
    std::vector<std::thread::id> finished_;
};

}  // namespace qs::broker
