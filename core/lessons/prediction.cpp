#include "lessons/prediction.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "lessons/check.h"
#include "lessons/wording.h"

namespace qs::lessons {

namespace {

std::string letter(std::size_t index) {
    return std::string(1, static_cast<char>('a' + index));
}

// "b" or "2" -> 1; nullopt when it names no choice.
std::optional<std::size_t> choiceIndex(std::string_view answer, std::size_t count) {
    if (answer.size() == 1 && answer[0] >= 'a' && answer[0] < 'a' + static_cast<int>(count)) {
        return static_cast<std::size_t>(answer[0] - 'a');
    }
    if (answer.size() == 1 && answer[0] >= 'A' && answer[0] < 'A' + static_cast<int>(count)) {
        return static_cast<std::size_t>(answer[0] - 'A');
    }
    char* end = nullptr;
    const std::string text(answer);
    const long n = std::strtol(text.c_str(), &end, 10);
    if (!text.empty() && *end == '\0' && n >= 1 && static_cast<std::size_t>(n) <= count) {
        return static_cast<std::size_t>(n - 1);
    }
    return std::nullopt;
}

std::optional<double> numberOf(std::string_view answer) {
    const std::string text(answer);
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(v)) {
        return std::nullopt;
    }
    return v;
}

// "3" -> "worker-3"; a name stays as it is.
std::string workerName(std::string_view answer) {
    const bool digits = !answer.empty() && std::all_of(answer.begin(), answer.end(),
                                                       [](char c) { return c >= '0' && c <= '9'; });
    return digits ? "worker-" + std::string(answer) : std::string(answer);
}

Grade gradeChoice(const Prediction& p, const std::optional<std::string>& answer,
                  const RunFacts& f) {
    Grade g;
    std::vector<CheckResult> results;
    std::vector<std::string> right;
    for (std::size_t i = 0; i < p.choices.size(); ++i) {
        results.push_back(evaluateCheck(p.choices[i].check, f));
        if (results.back().verdict == Verdict::Undecided) {
            g.outcome = GradeOutcome::Undecided;
            g.explanation = "(" + letter(i) + ") " + results.back().sentence;
            return g;
        }
        if (results.back().verdict == Verdict::Pass) {
            right.push_back(letter(i));
        }
    }
    for (std::size_t i = 0; i < right.size(); ++i) {
        g.actual += (i == 0 ? "" : i + 1 == right.size() ? " and " : ", ") + right[i];
    }
    if (right.empty()) {
        g.actual = "none of the choices";
    }
    // Past checkAnswer(), an answer names a choice; none = not answered.
    const std::size_t chosen =
        answer ? choiceIndex(*answer, p.choices.size()).value_or(p.choices.size())
               : p.choices.size();
    // The chosen and the true choices, each with its evidence; choices that
    // read the same evidence share one sentence.
    std::vector<std::pair<std::string, std::string>> said;  // (labels, sentence)
    for (std::size_t i = 0; i < p.choices.size(); ++i) {
        if (results[i].verdict != Verdict::Pass && chosen != i) {
            continue;
        }
        const std::string label = "(" + letter(i) + ") " +
                                  (results[i].verdict == Verdict::Pass ? "holds" : "does not hold");
        auto same = std::find_if(said.begin(), said.end(),
                                 [&](const auto& s) { return s.second == results[i].sentence; });
        if (same != said.end()) {
            same->first += ", " + label;
        } else {
            said.emplace_back(label, results[i].sentence);
        }
        g.evidence.insert(g.evidence.end(), results[i].evidence.begin(), results[i].evidence.end());
    }
    std::string why;
    for (const auto& [labels, sentence] : said) {
        why += (why.empty() ? "" : " ") + labels + ": " + sentence;
    }
    std::sort(g.evidence.begin(), g.evidence.end());
    g.evidence.erase(std::unique(g.evidence.begin(), g.evidence.end()), g.evidence.end());
    g.explanation = why;
    if (chosen >= p.choices.size()) {
        g.outcome = GradeOutcome::NotAnswered;
    } else {
        g.outcome =
            results[chosen].verdict == Verdict::Pass ? GradeOutcome::Right : GradeOutcome::Wrong;
    }
    return g;
}

Grade gradeNumber(const Prediction& p, const std::optional<std::string>& answer,
                  const RunFacts& f) {
    Grade g;
    const MeasureValue v = f.measure(p.measure);
    std::string sentence = f.describe(p.measure);
    if (!v.value) {
        g.outcome = GradeOutcome::Undecided;
        g.explanation = "Cannot be decided: " + sentence + ".";
        return g;
    }
    g.actual = formatNumber(*v.value);
    g.explanation = sentence + ".";
    g.evidence = f.evidenceOf(p.measure);
    if (!answer) {
        g.outcome = GradeOutcome::NotAnswered;
        return g;
    }
    const double guess = *numberOf(*answer);
    g.outcome =
        std::abs(guess - *v.value) <= p.tolerance ? GradeOutcome::Right : GradeOutcome::Wrong;
    return g;
}

Grade gradeWorker(const Prediction& p, const std::optional<std::string>& answer,
                  const RunFacts& f) {
    Grade g;
    const auto workers = f.workers();
    if (workers.empty()) {
        g.outcome = GradeOutcome::Undecided;
        g.explanation = "Cannot be decided: no worker took part in the run.";
        return g;
    }
    std::optional<double> best;
    std::string all;
    for (const WorkerStats& w : workers) {
        const double n = *f.measure({p.measure.name, w.worker}).value;
        best = !best ? n : p.most ? std::max(*best, n) : std::min(*best, n);
        all += (all.empty() ? "" : "; ") + f.describe({p.measure.name, w.worker});
    }
    if (p.most && *best == 0) {
        // "Which worker did it most" has no answer when none did it at all.
        g.outcome = GradeOutcome::Undecided;
        g.actual = "no worker";
        g.explanation = "Cannot be decided: no worker did it (" + all + ").";
        return g;
    }
    std::vector<std::string> winners;
    for (const WorkerStats& w : workers) {
        if (*f.measure({p.measure.name, w.worker}).value == *best) {
            winners.push_back(w.worker);
        }
    }
    for (std::size_t i = 0; i < winners.size(); ++i) {
        g.actual += (i == 0 ? "" : i + 1 == winners.size() ? " and " : ", ") + winners[i];
        // What the winners did: their tasks, or their polls when they got none.
        const auto shown = f.evidenceOf({p.measure.name, winners[i]});
        g.evidence.insert(g.evidence.end(), shown.begin(), shown.end());
    }
    std::sort(g.evidence.begin(), g.evidence.end());
    g.evidence.erase(std::unique(g.evidence.begin(), g.evidence.end()), g.evidence.end());
    g.explanation = all + ".";
    if (!answer) {
        g.outcome = GradeOutcome::NotAnswered;
        return g;
    }
    const std::string name = workerName(*answer);
    g.outcome = std::find(winners.begin(), winners.end(), name) != winners.end()
                    ? GradeOutcome::Right
                    : GradeOutcome::Wrong;
    return g;
}

}  // namespace

std::string_view gradeOutcomeName(GradeOutcome outcome) {
    switch (outcome) {
        case GradeOutcome::Right:
            return "right";
        case GradeOutcome::Wrong:
            return "wrong";
        case GradeOutcome::Undecided:
            return "undecided";
        case GradeOutcome::NotAnswered:
            return "not answered";
    }
    return "not answered";
}

bool checkAnswer(const Prediction& p, std::string_view answer, int workers, std::string* error) {
    bool ok = false;
    switch (p.kind) {
        case PredictionKind::Choice:
            ok = choiceIndex(answer, p.choices.size()).has_value();
            break;
        case PredictionKind::Number:
            ok = numberOf(answer).has_value();
            break;
        case PredictionKind::Worker: {
            const std::string name = workerName(answer);
            for (int i = 1; i <= workers && !ok; ++i) {
                ok = name == "worker-" + std::to_string(i);
            }
            break;
        }
    }
    if (!ok) {
        *error = "'" + std::string(answer) + "' is not " + answerForm(p, workers);
    }
    return ok;
}

std::string answerForm(const Prediction& p, int workers) {
    switch (p.kind) {
        case PredictionKind::Choice: {
            std::string text;
            for (std::size_t i = 0; i < p.choices.size(); ++i) {
                text += (i == 0 ? "" : i + 1 == p.choices.size() ? " or " : ", ") + letter(i);
            }
            return "a choice: " + text;
        }
        case PredictionKind::Number:
            return "a number";
        case PredictionKind::Worker:
            return workers > 0 ? "a worker (worker-1 ... worker-" + std::to_string(workers) + ")"
                               : "a worker's name or number";
    }
    return "an answer";
}

Grade gradePrediction(const Prediction& p, const std::optional<std::string>& answer,
                      const RunFacts& facts) {
    Grade g;
    if (!facts.undecidedReason().empty()) {
        g.outcome = GradeOutcome::Undecided;
        g.explanation = "Cannot be decided: " + facts.undecidedReason() + ".";
        return g;
    }
    switch (p.kind) {
        case PredictionKind::Choice:
            g = gradeChoice(p, answer, facts);
            break;
        case PredictionKind::Number:
            g = gradeNumber(p, answer, facts);
            break;
        case PredictionKind::Worker:
            g = gradeWorker(p, answer, facts);
            break;
    }
    return g;
}

}  // namespace qs::lessons
