#include "lessons/lesson.h"

#include <algorithm>

#include "lessons/wording.h"

namespace qs::lessons {

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
        return *min == *max ? "exactly " + formatNumber(*min)
                            : "between " + formatNumber(*min) + " and " + formatNumber(*max);
    }
    if (min) {
        return "at least " + formatNumber(*min);
    }
    if (max) {
        return "at most " + formatNumber(*max);
    }
    return "any number";
}

}  // namespace qs::lessons
