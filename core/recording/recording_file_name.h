#pragma once

#include <ctime>
#include <filesystem>
#include <string>
#include <string_view>

// The names of the console's recordings in their runs folder: by start time
// and scenario, e.g. `2026-12-02T07-15-03_04-worker-crash.qsrun`.
namespace qs::recording {

// Every recording's file name ends in it.
inline constexpr std::string_view kRecordingExtension = ".qsrun";

// `start` (broken-down local time) and the scenario's name made safe for any
// file system: ASCII letters, digits, '-' and '_' are kept, every other run of
// characters becomes one '-' (none leading or trailing), at most 64 are kept;
// "" or nothing left = "manual".
std::string recordingFileName(const std::tm& start, std::string_view scenario);

// A path in `folder` for a new recording no file holds yet: the plain name, or
// with "-2", "-3"... before the extension when a run of the same second and
// scenario is there already. Threading: any; two processes writing one folder
// in the same second could still pick the same name.
std::filesystem::path uniqueRecordingPath(const std::filesystem::path& folder, const std::tm& start,
                                          std::string_view scenario);

}  // namespace qs::recording
