#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lessons/lesson.h"
#include "lessons/run_facts.h"

// Grading a learner's prediction against what the run really did. The right
// answer is never written in the lesson: it is what the run decided (a
// choice's check, a measure, the worker with the most / fewest of a counter).
// Pure functions; the thread that owns the RunFacts.
namespace qs::lessons {

enum class GradeOutcome {
    Right,
    Wrong,
    Undecided,    // the run cannot decide it (the reason is in the explanation)
    NotAnswered,  // no answer given: the run's answer is shown
};
std::string_view gradeOutcomeName(GradeOutcome outcome);  // "right", "wrong"...

struct Grade {
    GradeOutcome outcome = GradeOutcome::NotAnswered;
    std::string actual;                   // the run's answer: "b", "5", "worker-3"
    std::string explanation;              // the evidence, in a sentence or two
    std::vector<std::uint32_t> evidence;  // events (indices into the Run) that prove it
};

// Checks an answer's form for this prediction: a choice's letter or number
// ("b", "2"), a number, a worker's name or number ("worker-3", "3") among the
// run's `workers` (runWorkerCount()). False with *error saying what is expected.
bool checkAnswer(const Prediction& prediction, std::string_view answer, int workers,
                 std::string* error);

// How to answer, for prompts: "a, b or c", "a number", "a worker (worker-1 ... worker-3)".
std::string answerForm(const Prediction& prediction, int workers);

// Grades `answer` (nullopt = not answered) against the run. The answer must
// have passed checkAnswer().
Grade gradePrediction(const Prediction& prediction, const std::optional<std::string>& answer,
                      const RunFacts& facts);

}  // namespace qs::lessons
