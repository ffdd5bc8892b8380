#include "workers/work_profile.h"

#include <cmath>
#include <cstdlib>
#include <vector>

#include "workers/setting_limits.h"
#include "workers/worker_config.h"  // formatConfigNumber

namespace qs::workers {

namespace {

std::chrono::nanoseconds fromMs(double ms) {
    if (!(ms > 0.0)) {
        return std::chrono::nanoseconds{0};
    }
    return std::chrono::nanoseconds{static_cast<std::int64_t>(std::llround(ms * 1e6))};
}

}  // namespace

std::string WorkProfile::validate() const {
    const auto& limit = limits::kWorkMs;
    switch (kind) {
        case WorkKind::None:
            return {};
        case WorkKind::Fixed:
            return limit.problem(ms);
        case WorkKind::Exponential:
            return limit.contains(ms) ? std::string{} : "exponential mean: " + limit.problem(ms);
        case WorkKind::Uniform:
            if (!limit.contains(minMs)) {
                return "uniform minimum: " + limit.problem(minMs);
            }
            if (!limit.contains(maxMs)) {
                return "uniform maximum: " + limit.problem(maxMs);
            }
            if (minMs > maxMs) {
                return "uniform work needs minMs <= maxMs";
            }
            return {};
    }
    return "unknown work kind";
}

std::chrono::nanoseconds WorkProfile::sample(std::mt19937_64& rng) const {
    switch (kind) {
        case WorkKind::None:
            return std::chrono::nanoseconds{0};
        case WorkKind::Fixed:
            return fromMs(ms);
        case WorkKind::Uniform: {
            if (maxMs <= minMs) {
                return fromMs(minMs);
            }
            std::uniform_real_distribution<double> dist(minMs, maxMs);
            return fromMs(dist(rng));
        }
        case WorkKind::Exponential: {
            if (!(ms > 0.0)) {
                return std::chrono::nanoseconds{0};
            }
            std::exponential_distribution<double> dist(1.0 / ms);
            return fromMs(dist(rng));
        }
    }
    return std::chrono::nanoseconds{0};
}

std::string WorkProfile::describe() const {
    switch (kind) {
        case WorkKind::None:
            return "none";
        case WorkKind::Fixed:
            return "fixed " + formatConfigNumber(ms) + " ms";
        case WorkKind::Uniform:
            return "uniform " + formatConfigNumber(minMs) + ".." + formatConfigNumber(maxMs) +
                   " ms";
        case WorkKind::Exponential:
            return "exponential mean " + formatConfigNumber(ms) + " ms";
    }
    return "unknown";
}

std::string_view toString(WorkKind kind) {
    switch (kind) {
        case WorkKind::None:
            return "none";
        case WorkKind::Fixed:
            return "fixed";
        case WorkKind::Uniform:
            return "uniform";
        case WorkKind::Exponential:
            return "exponential";
    }
    return "unknown";
}

namespace {

bool parseMs(std::string_view text, double* out) {
    if (text.empty()) {
        return false;
    }
    std::string copy(text);
    char* end = nullptr;
    double v = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size() || !std::isfinite(v) || v < 0.0) {
        return false;
    }
    *out = v;
    return true;
}

}  // namespace

bool parseWorkSpec(std::string_view text, WorkProfile* out, std::string* error) {
    std::vector<std::string_view> parts;
    std::size_t from = 0;
    for (;;) {
        std::size_t colon = text.find(':', from);
        parts.push_back(
            text.substr(from, colon == std::string_view::npos ? text.npos : colon - from));
        if (colon == std::string_view::npos) {
            break;
        }
        from = colon + 1;
    }
    auto bad = [&](const std::string& why) {
        *error = "work '" + std::string(text) + "': " + why +
                 " (use none, MS, fixed:MS, uniform:MIN:MAX or exponential:MEAN)";
        return false;
    };
    WorkProfile p;
    double a = 0.0;
    double b = 0.0;
    if (parts.size() == 1) {
        if (parts[0] == "none") {
            *out = WorkProfile::none();
            return true;
        }
        if (!parseMs(parts[0], &a)) {
            return bad("not a duration in ms");
        }
        *out = WorkProfile::fixed(a);
        return true;
    }
    if (parts[0] == "fixed" && parts.size() == 2) {
        if (!parseMs(parts[1], &a))
            return bad("not a duration in ms");
        p = WorkProfile::fixed(a);
    } else if (parts[0] == "uniform" && parts.size() == 3) {
        if (!parseMs(parts[1], &a) || !parseMs(parts[2], &b))
            return bad("not durations in ms");
        if (a > b)
            return bad("MIN must be <= MAX");
        p = WorkProfile::uniform(a, b);
    } else if (parts[0] == "exponential" && parts.size() == 2) {
        if (!parseMs(parts[1], &a))
            return bad("not a duration in ms");
        p = WorkProfile::exponential(a);
    } else {
        return bad("unknown form");
    }
    *out = p;
    return true;
}

bool parseWorkKind(std::string_view text, WorkKind* out) {
    for (WorkKind kind :
         {WorkKind::None, WorkKind::Fixed, WorkKind::Uniform, WorkKind::Exponential}) {
        if (text == toString(kind)) {
            *out = kind;
            return true;
        }
    }
    return false;
}

}  // namespace qs::workers
