#pragma once

#include <string>
#include <vector>

// The JSON files Queuescope ships in one folder of its data directories
// (scenarios/, lessons/...): listing them and resolving what a user typed.
// Pure functions of the file system (common/data_dirs.h); safe from any thread.
namespace qs {

struct BundledFolder {
    const char* folder;  // under each data directory, e.g. "scenarios"
    const char* noun;    // for messages, e.g. "scenario"
};

// Every NAME (file name without ".json") in the folder, sorted, once each.
std::vector<std::string> bundledNames(const BundledFolder& folder);

// The file for NAME or a path. A path (it exists, has a '/' or ends in
// ".json") is returned as it is: the loader says what is wrong with it. A NAME
// is a shipped file's name, with or without its number ("01-classic",
// "classic", "01"). When none matches the result is empty and *error names
// the known ones.
std::string resolveBundled(const BundledFolder& folder, const std::string& nameOrPath,
                           std::string* error);

}  // namespace qs
