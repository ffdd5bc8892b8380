#include "common/interrupt_scope.h"

#include <csignal>

namespace qs {

namespace {

std::atomic<bool> gInterrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

using Handler = void (*)(int);
Handler gPreviousInt = SIG_DFL;
Handler gPreviousTerm = SIG_DFL;

extern "C" void onInterrupt(int) {
    gInterrupted.store(true);
}

}  // namespace

InterruptScope::InterruptScope() {
    gInterrupted.store(false);
    gPreviousInt = std::signal(SIGINT, onInterrupt);
    gPreviousTerm = std::signal(SIGTERM, onInterrupt);
}

InterruptScope::~InterruptScope() {
    std::signal(SIGINT, gPreviousInt);
    std::signal(SIGTERM, gPreviousTerm);
}

const std::atomic<bool>& interruptRequested() {
    return gInterrupted;
}

}  // namespace qs
