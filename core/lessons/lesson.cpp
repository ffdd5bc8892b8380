#include "lessons/lesson.h"

#include <cstdio>

namespace qs::lessons {

namespace {

std::string number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

}  // namespace

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
