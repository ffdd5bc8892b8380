#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lessons/lesson.h"
#include "lessons/run_facts.h"

// A lesson's check evaluated against one run: decided by reading the run's
// Ledger and Run (never its printed text), explained with the run's own
// events. A check the run cannot decide says so with the reason; it never
// passes by default. Pure functions; any thread that owns the RunFacts.
namespace qs::lessons {

enum class Verdict { Pass, Fail, Undecided };
std::string_view verdictName(Verdict verdict);  // "pass", "FAIL", "undecided"

struct CheckResult {
    Verdict verdict = Verdict::Undecided;
    std::string title;     // what was checked: "every task acked exactly once"
    std::string sentence;  // why, from the run: names, times, counts
    // The events that prove it (indices into RunFacts::run()), oldest first:
    // what a console selects for "show me".
    std::vector<std::uint32_t> evidence;
};

CheckResult evaluateCheck(const CheckSpec& check, const RunFacts& facts);

// "every task acked exactly once", "worker-3 received: at most 0"...
std::string describeCheck(const CheckSpec& check);

}  // namespace qs::lessons
