#include "broker/session_threads.h"

#include <algorithm>

namespace qs::broker {

void SessionThreads::spawn(std::function<void()> body) {
    std::list<std::thread> done;
    {
        std::lock_guard lock(mutex_);
        for (auto it = threads_.begin(); it != threads_.end();) {
            if (std::find(finished_.begin(), finished_.end(), it->get_id()) != finished_.end()) {
                std::erase(finished_, it->get_id());
                auto next = std::next(it);
                done.splice(done.end(), threads_, it);
                it = next;
            } else {
                ++it;
            }
        }
        threads_.emplace_back([this, body = std::move(body)] {
            body();
            std::lock_guard inner(mutex_);
            finished_.push_back(std::this_thread::get_id());
        });
    }
    for (auto& thread : done)
        thread.join();
}

void SessionThreads::joinAll() {
    std::list<std::thread> all;
    {
        std::lock_guard lock(mutex_);
        all.swap(threads_);
        finished_.clear();
    }
    for (auto& thread : all)
        thread.join();
}

}  // namespace qs::broker
