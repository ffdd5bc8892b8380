#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <span>
#include <thread>
#include <utility>
#include <vector>

#include "events/event.h"

namespace qs {
class Run;
}

namespace qs::run {

// What appending a batch left to tell the views beside the run itself: the
// messages each worker's crash or stop returned (they name none themselves),
// by the event's index in the run, and the time the core's append took.
struct AppendNotes {
    std::vector<std::pair<std::uint64_t, std::vector<std::uint32_t>>> returnedBy;
    std::int64_t coreNs = 0;

    void add(AppendNotes&& later);
};

// Appends `events` to `run` in order, adding what they returned to `notes`.
void appendNoting(Run& run, std::span<const Event> events, AppendNotes& notes);

// A thread of its own that appends batches to a Run, so that a UI thread
// idles while the core takes a frame's events in. The owner hands the Run
// over with start() and takes it back with wait(): between the two it must
// not touch the Run in any way (nor destroy it), and the ingest thread
// touches it only then. One batch at a time.
//
// Threading: start(), wait() and busy() from the owner's thread only.
class RunIngest {
public:
    RunIngest();
    ~RunIngest();  // waits for the job in hand, then ends the thread
    RunIngest(const RunIngest&) = delete;
    RunIngest& operator=(const RunIngest&) = delete;

    // Appends `events` to `run` on the ingest thread, then calls `then` there
    // (if given: what follows the run, lent with it). Requires !busy().
    void start(Run& run, std::vector<Event> events, std::function<void()> then = {});
    // True from start() until wait() has returned.
    bool busy() const { return busy_; }
    // Waits for the job in hand, if any, and adds its notes to `notes`. A job
    // that threw (a run past its limits) throws here, on the owner's thread.
    void wait(AppendNotes& notes);

private:
    void loop();

    std::mutex mutex_;
    std::condition_variable changed_;
    Run* run_ = nullptr;        // the job's run; null when there is none
    std::vector<Event> events_;
    std::function<void()> then_;
    AppendNotes notes_;
    std::exception_ptr failure_;
    bool finished_ = false;
    bool stopping_ = false;
    bool busy_ = false;         // the owner's view: read and written by it alone
    std::thread thread_;        // last: started once everything above is made
};

}  // namespace qs::run
