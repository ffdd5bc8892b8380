#include "lessons/lesson_library.h"

#include "common/bundled_files.h"
#include "lessons/lesson_json.h"

namespace qs::lessons {

namespace {

constexpr BundledFolder kLessons{"lessons", "lesson"};

}  // namespace

std::vector<std::string> bundledLessonNames() {
    return bundledNames(kLessons);
}

std::string resolveLesson(const std::string& nameOrPath, std::string* error) {
    return resolveBundled(kLessons, nameOrPath, error);
}

bool loadLesson(const std::string& nameOrPath, Lesson* out, std::string* error) {
    const std::string path = resolveLesson(nameOrPath, error);
    return !path.empty() && loadLessonFile(path, out, error);
}

}  // namespace qs::lessons
