#pragma once

#include <iosfwd>
#include <string>
#include <vector>

// `queuescope lesson FILE|NAME [--answer STEP=VALUE ...] [--address HOST:PORT]`
// and `queuescope lesson --list`: plays a lesson headless and prints each
// step's prose, its prediction and grade, and each check's verdict and
// sentence. Everything it accepts is in lessonUsage().
//
// Exit codes: 0 every check passed; 1 a check failed or could not be decided;
// 2 bad command line or lesson file; 3 a run failed, or the lesson cannot be
// played against that broker (the message says what it needs).
namespace qs::lessons {

// argv[0] is the program; argv[1] may be the word "lesson" (skipped).
// Installs a SIGINT/SIGTERM handler for the duration (stop the run early).
int runLessonCommand(int argc, char** argv);

// The same with explicit arguments (no program name, no "lesson") and streams.
int runLessonCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

std::string lessonUsage();

}  // namespace qs::lessons
