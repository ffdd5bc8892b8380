#pragma once

#include <atomic>

// SIGINT and SIGTERM as a request to stop early, for the command-line
// commands (run, lesson, redrive...): while an InterruptScope lives, either
// signal sets interruptRequested() instead of ending the process, so the
// command can finish cleanly and still print its summary. The previous
// handlers come back when the scope ends.
//
// Threading: construct and destroy on the main thread, one scope at a time;
// interruptRequested() may be read from any thread (the flag is lock-free).
namespace qs {

class InterruptScope {
public:
    InterruptScope();  // clears the flag, installs the handlers
    ~InterruptScope();
    InterruptScope(const InterruptScope&) = delete;
    InterruptScope& operator=(const InterruptScope&) = delete;
};

// The process-wide flag the handlers set; lives for the whole process.
const std::atomic<bool>& interruptRequested();

}  // namespace qs
