#include "run/run_ingest.h"

#include <algorithm>
#include <chrono>
#include <exception>

#include "run/run.h"

namespace qs::run {

void AppendNotes::add(AppendNotes&& later) {
    for (auto& returned : later.returnedBy) {
        returnedBy.push_back(std::move(returned));
    }
    coreNs += later.coreNs;
}

void appendNoting(Run& run, std::span<const Event> events, AppendNotes& notes) {
    const auto start = std::chrono::steady_clock::now();
    for (const Event& e : events) {
        run.append(e);
        if (e.kind == EventKind::WorkerCrashed || e.kind == EventKind::WorkerStopped) {
            std::vector<std::uint32_t> returned = run.messagesTouchedByLastEvent();
            std::sort(returned.begin(), returned.end());
            returned.erase(std::unique(returned.begin(), returned.end()), returned.end());
            notes.returnedBy.emplace_back(run.eventCount() - 1, std::move(returned));
        }
    }
    notes.coreNs += std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count();
}

RunIngest::RunIngest() : thread_([this] { loop(); }) {}

RunIngest::~RunIngest() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    thread_.join();  // a job in hand is finished first: the loop ends only when idle
}

void RunIngest::start(Run& run, std::vector<Event> events, std::function<void()> then) {
    {
        std::lock_guard lock(mutex_);
        run_ = &run;
        events_ = std::move(events);
        then_ = std::move(then);
        finished_ = false;
    }
    busy_ = true;
    changed_.notify_all();
}

void RunIngest::wait(AppendNotes& notes) {
    if (!busy_) {
        return;
    }
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return finished_; });
    busy_ = false;
    run_ = nullptr;
    notes.add(std::move(notes_));
    notes_ = AppendNotes{};
    if (failure_) {
        std::rethrow_exception(std::exchange(failure_, nullptr));
    }
}

void RunIngest::loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
        changed_.wait(lock, [this] { return stopping_ || (run_ != nullptr && !finished_); });
        if (run_ == nullptr || finished_) {
            return;  // stopping, with no job in hand
        }
        Run& run = *run_;
        std::vector<Event> events = std::move(events_);
        std::function<void()> then = std::move(then_);
        lock.unlock();
        AppendNotes notes;
        std::exception_ptr failure;
        try {
            appendNoting(run, events, notes);
            if (then) {
                then();
            }
        } catch (...) {
            failure = std::current_exception();
        }
        lock.lock();
        notes_ = std::move(notes);
        failure_ = failure;
        finished_ = true;
        changed_.notify_all();
    }
}

}  // namespace qs::run
