#pragma once

#include <string>
#include <string_view>

#include "lessons/lesson.h"

// Lesson files (JSON, schema in docs/lessons.md) -> Lesson. Strict like the
// scenario format it embeds (runner/scenario_json.h): unknown keys, wrong
// types, unknown measures, workers or tasks a step's run does not have are
// errors naming the step and the field, so a typo never silently falls back
// to a default. Pure functions; any thread.
namespace qs::lessons {

// Parses `text`. On failure returns false and sets *error to lines such as
// "line 14: steps[1].checks[0].worker: 'worker-9' is not a worker of this
// step's run (worker-1 ... worker-3)" (the line of the value named, or of
// the object missing it); *out is untouched. The lesson keeps out->name
// (a text has no file name to take it from).
bool parseLessonJson(std::string_view text, Lesson* out, std::string* error);

// Reads and parses a file; every error line starts with the file name. The
// lesson's name is the file name without ".json".
bool loadLessonFile(const std::string& path, Lesson* out, std::string* error);

// The "needs" names of the schema: "channel-management" ("v1-stream" was one
// until the workers could consume through the v1 stream; it is refused, saying so).
std::string_view needName(Need need);
bool parseNeed(std::string_view text, Need* out);

}  // namespace qs::lessons
