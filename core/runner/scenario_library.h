#pragma once

#include <string>
#include <vector>

#include "runner/scenario.h"

// The bundled scenarios: <data dir>/scenarios/NAME.json in the folders that
// common/data_dirs.h lists (an install's /usr/share/queuescope, a build tree's
// share/queuescope). The console's menu and `queuescope run --scenario` both
// resolve names here. Pure functions; any thread.
namespace qs::runner {

// Every bundled scenario's NAME (file name without ".json"), sorted, once each.
std::vector<std::string> bundledScenarioNames();

// The file to load for NAME or a path. A path (it exists, has a '/' or ends in
// ".json") is returned as it is; a NAME is a bundled scenario's name, with or
// without its number ("04-crash-mid-batch", "crash-mid-batch", "04"), and when
// none has it the result is empty and *error names the known ones.
std::string resolveScenario(const std::string& nameOrPath, std::string* error);

// resolveScenario() then loadScenarioFile(). False with *error on either failure;
// *out is untouched then.
bool loadScenario(const std::string& nameOrPath, Scenario* out, std::string* error);

}  // namespace qs::runner
