#pragma once

#include <string>
#include <vector>

#include "lessons/lesson.h"

// The shipped lessons: <data dir>/lessons/NAME.json in the folders that
// common/data_dirs.h lists (an install's /usr/share/queuescope, a build tree's
// share/queuescope). Pure functions; any thread.
namespace qs::lessons {

// Every shipped lesson's NAME (file name without ".json"), sorted, once each.
std::vector<std::string> bundledLessonNames();

// The file for NAME or a path. A path (it exists, has a '/' or ends in
// ".json") is returned as it is. A NAME is a shipped lesson's name, with or
// without its number ("01-competing-consumers", "competing-consumers", "01");
// when none matches the result is empty and *error names the known ones.
std::string resolveLesson(const std::string& nameOrPath, std::string* error);

// resolveLesson() then loadLessonFile().
bool loadLesson(const std::string& nameOrPath, Lesson* out, std::string* error);

}  // namespace qs::lessons
