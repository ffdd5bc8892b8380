#pragma once

#include <string>
#include <string_view>

#include "runner/scenario.h"

// Scenario <-> JSON (schema in docs/workers.md). Strict: unknown keys, wrong
// types and out-of-range values are errors naming the offending field, so a
// typo never silently falls back to a default. Pure functions; any thread.
namespace qs::runner {

// Parses `text`. On failure returns false and sets *error; *out is untouched.
bool parseScenarioJson(std::string_view text, Scenario* out, std::string* error);

// Reads and parses a file; errors start with the file name.
bool loadScenarioFile(const std::string& path, Scenario* out, std::string* error);

// Command-line form of a "set" action: comma-separated KEY=VALUE pairs with
// the JSON keys of a worker group, e.g. "batch=1,failureRate=0.2,work=uniform:5:20"
// (work takes the parseWorkSpec() form; waitSeconds / restartAfterSeconds take seconds).
bool parseConfigAssignments(std::string_view text, ConfigPatch* out, std::string* error);

// Serialises every field (pretty-printed, 2-space indent). parseScenarioJson()
// of the result yields an equal scenario.
std::string scenarioToJson(const Scenario& scenario);

// A worker configuration alone, with the keys of a scenario's worker group
// ("batch", "waitSeconds", "work"...), compact.
std::string workerConfigToJson(const workers::WorkerConfig& config);

}  // namespace qs::runner
