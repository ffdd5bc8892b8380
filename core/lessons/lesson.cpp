#include "lessons/lesson.h"

#include <algorithm>
#include <cstdio>

namespace qs::lessons {

namespace {

std::string number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

}  // namespace

int runWorkerCount(const runner::Scenario& run) {
    int workers = run.totalWorkers();
    for (const runner::TimelineAction& a : run.timeline) {
        if (a.kind == runner::ActionKind::Scale) {
            workers = std::max(workers, a.count);
        }
    }
    return workers;
}

bool Bounds::contains(double value) const {
    return (!min || value >= *min) && (!max || value <= *max);
}

std::string Bounds::describe() const {
    if (min && max) {
        return *min == *max ? "exactly " + number(*min)
                            : "between " + number(*min) + " and " + number(*max);
    }
    if (min) {
        return "at least " + number(*min);
    }
    if (max) {
        return "at most " + number(*max);
    }
    return "any number";
}

}  // namespace qs::lessons
