#pragma once

#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

// Where Queuescope's read-only data (scenarios/, lessons/...) lives, for an
// installed package under any prefix and for a build tree alike: nothing of the
// source tree is baked in. Pure functions of the environment and the running
// executable's path; safe from any thread.
namespace qs {

// Candidate data folders, most specific first, each existing and listed once:
//  1. $QUEUESCOPE_DATA_DIR (one folder), when set;
//  2. the nearest share/queuescope at or above the executable's folder, up to
//     three levels up (an install: /usr/bin -> /usr/share/queuescope; a build
//     tree: <build>/app/queuescope -> <build>/share/queuescope);
//  3. $XDG_DATA_HOME/queuescope (default ~/.local/share/queuescope);
//  4. each of $XDG_DATA_DIRS/queuescope (default /usr/local/share:/usr/share).
std::vector<std::filesystem::path> dataDirectories();

// The first dataDirectories() entry holding `relative` (a file or a folder).
std::optional<std::filesystem::path> findDataPath(std::string_view relative);

// The running executable's folder (from /proc/self/exe); empty if unknown.
std::filesystem::path executableDirectory();

}  // namespace qs
