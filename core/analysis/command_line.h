#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/recorded_run.h"

// What `queuescope trace`, `compare` and `report` share: their command line
// (recordings, --out FILE, --help, --version), opening a recording with the
// exit code for a bad one, and writing the output file whole or not at all.
namespace qs::analysis {

// Exit codes of the three commands.
inline constexpr int kExitOk = 0;
inline constexpr int kExitDiffers = 1;      // compare: a difference the semantics do not allow
inline constexpr int kExitCannotWrite = 1;  // trace, report: the output could not be written
inline constexpr int kExitUsage = 2;
inline constexpr int kExitBadRecording = 3;

struct CommandLine {
    std::vector<std::string> files;
    std::string out;  // --out FILE ("-" = standard output)
    bool help = false;
    bool version = false;
};

// `takesOut`: the command has --out FILE (required then). "" when fine, else
// the complaint (without the command's name).
std::string parseCommandLine(const std::vector<std::string>& args, bool takesOut, CommandLine* out);

// argv without the program and without `word` when it comes first.
std::vector<std::string> argsOf(int argc, char** argv, std::string_view word);

// Opens a recording; null after printing "queuescope COMMAND: why" to err.
std::unique_ptr<RecordedRun> openRecording(const std::string& command, const std::string& path,
                                           std::ostream& err);

// Writes through `write` into PATH.part, then renames it to PATH, so a failed
// write leaves any earlier PATH alone; "-" writes to `stdoutStream`. False
// with *error when it could not be written.
bool writeOutput(const std::string& path, std::ostream& stdoutStream,
                 const std::function<void(std::ostream&)>& write, std::string* error);

}  // namespace qs::analysis
