#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace qs::broker {

// A wake-up flag a blocked consumer sleeps on. Channels signal it when
// messages become available; sessions signal it for their own events; stop()
// signals everything. Thread-safe.
class Waiter {
public:
    void signal() {
        {
            std::lock_guard lock(mutex_);
            signalled_ = true;
        }
        cv_.notify_all();
    }

    // Sleeps until signalled or `deadline`; consumes the signal.
    bool waitUntil(std::chrono::steady_clock::time_point deadline) {
        std::unique_lock lock(mutex_);
        cv_.wait_until(lock, deadline, [this] { return signalled_; });
        const bool was = signalled_;
        signalled_ = false;
        return was;
    }

private:
    std::mutex mutex_;
    std::condition_variable cv_;
    bool signalled_ = false;
};

}  // namespace qs::broker
