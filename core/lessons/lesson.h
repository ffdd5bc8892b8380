#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runner/scenario.h"

// A guided lesson: plain values read from a lesson file (lesson_json.h; the
// schema is docs/lessons.md). A lesson teaches one idea in steps; each step
// asks the learner to predict, runs a scenario on a real broker, and checks
// assertions against that run (check.h). Nothing here runs anything.
namespace qs::lessons {

// A number the run decides: a run-wide measure ("acked", "expired"...) or,
// with `worker`, one of a worker's counters ("received", "emptyPolls"...).
struct Measure {
    std::string name;    // see measureNames() / workerCounterNames() in run_facts.h
    std::string worker;  // empty = the whole run
};

// Inclusive bounds; an unset side is open.
struct Bounds {
    std::optional<double> min;
    std::optional<double> max;

    bool contains(double value) const;
    std::string describe() const;  // "at least 3", "between 2 and 5", "exactly 10"
};

enum class CheckKind {
    AckedOnce,       // every task sent was acked exactly once
    Count,           // a measure within bounds
    Share,           // each (or one) worker's share of a counter within bounds (fractions)
    Redelivered,     // tasks handed out again (to / from a worker), or how many were
    CameBack,        // every task a worker held unsettled when it went away came back to another
    DeadLettered,    // task N dead-lettered after M receives (to a channel)
    NotBeforeDelay,  // no task was handed out before its delay was over
    RejectedToTail,  // every rejected task came back as a new copy, receive count + 1
};

struct CheckSpec {
    CheckKind kind = CheckKind::Count;
    Measure measure;  // Count; Share uses measure.name as the counter
    Bounds bounds;  // Count, Share (fractions), Redelivered / CameBack / RejectedToTail (how many)
    std::string worker;      // Share: a name or "each"; Redelivered: "to"; CameBack: "from"
    std::string fromWorker;  // Redelivered: the earlier hand-out went to this worker
    std::vector<int> tasks;  // Redelivered: these task numbers; DeadLettered: one
    int receives = 0;        // DeadLettered: hand-outs before it went (0 = any)
    std::string channel;     // DeadLettered: the dead-letter channel ("" = any)
    std::string where;       // "steps[1].checks[0]" for messages about it
};

enum class PredictionKind {
    Choice,  // one of several statements; each is true or false in the run (a check)
    Number,  // a measure, within a tolerance
    Worker,  // which worker has the most / fewest of a counter
};

struct Choice {
    std::string text;
    CheckSpec check;  // the choice is right when this holds in the run
};

struct Prediction {
    PredictionKind kind = PredictionKind::Number;
    std::string question;
    std::vector<Choice> choices;  // Choice
    Measure measure;              // Number; Worker: measure.name is the counter
    double tolerance = 0.0;       // Number
    bool most = true;             // Worker: the most (true) or the fewest (false)
};

struct LessonStep {
    std::string prose;
    std::optional<Prediction> prediction;
    runner::Scenario run;
    std::uint64_t seed = 0;  // the pool's random draws; 0 = the lesson default (fixed)
    std::vector<CheckSpec> checks;
};

// Something a lesson needs that a broker or this build may not have.
enum class Need {
    ChannelManagement,  // create / list / delete channels (KubeMQ v2.4.0 does not serve it)
};

// The most workers `run` has at once: its groups, or a "scale" action's count.
// They are named worker-1 ... worker-N.
int runWorkerCount(const runner::Scenario& run);

struct Lesson {
    std::string name;  // file name without ".json"
    std::string title;
    std::string idea;  // two or three sentences
    std::vector<Need> needs;
    std::vector<LessonStep> steps;

    bool hasNeed(Need need) const {
        return std::find(needs.begin(), needs.end(), need) != needs.end();
    }
};

}  // namespace qs::lessons
