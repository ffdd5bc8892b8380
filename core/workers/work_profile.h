#pragma once

#include <chrono>
#include <random>
#include <string>
#include <string_view>

// How long a worker's simulated work on one message takes.
namespace qs::workers {

enum class WorkKind {
    None,         // no work at all (benchmarks)
    Fixed,        // always `ms`
    Uniform,      // uniform in [minMs, maxMs]
    Exponential,  // exponential with mean `ms`
};

struct WorkProfile {
    WorkKind kind = WorkKind::Fixed;
    double ms = 0.0;     // Fixed: the duration; Exponential: the mean
    double minMs = 0.0;  // Uniform only
    double maxMs = 0.0;  // Uniform only

    static WorkProfile none() { return {WorkKind::None, 0.0, 0.0, 0.0}; }
    static WorkProfile fixed(double ms) { return {WorkKind::Fixed, ms, 0.0, 0.0}; }
    static WorkProfile uniform(double minMs, double maxMs) {
        return {WorkKind::Uniform, 0.0, minMs, maxMs};
    }
    static WorkProfile exponential(double meanMs) {
        return {WorkKind::Exponential, meanMs, 0.0, 0.0};
    }

    // Empty when usable; otherwise why not (outside limits::kWorkMs, or inverted bounds).
    std::string validate() const;

    // Draws one duration. Not thread-safe on `rng`: each worker owns its engine.
    std::chrono::nanoseconds sample(std::mt19937_64& rng) const;

    // "fixed 100 ms", "uniform 50..150 ms", "exponential mean 20 ms", "none".
    std::string describe() const;

    bool operator==(const WorkProfile&) const = default;
};

// Command-line form: "none", "MS" or "fixed:MS", "uniform:MIN:MAX",
// "exponential:MEAN" (milliseconds). False with *error on anything else.
bool parseWorkSpec(std::string_view text, WorkProfile* out, std::string* error);

std::string_view toString(WorkKind kind);
// Accepts "none", "fixed", "uniform", "exponential"; false on anything else.
bool parseWorkKind(std::string_view text, WorkKind* out);

}  // namespace qs::workers
