#include "runner/scenario_library.h"

#include "common/bundled_files.h"
#include "runner/scenario_json.h"

namespace qs::runner {

namespace {

constexpr BundledFolder kScenarios{"scenarios", "scenario"};

}  // namespace

std::vector<std::string> bundledScenarioNames() {
    return bundledNames(kScenarios);
}

std::string resolveScenario(const std::string& nameOrPath, std::string* error) {
    return resolveBundled(kScenarios, nameOrPath, error);
}

bool loadScenario(const std::string& nameOrPath, Scenario* out, std::string* error) {
    const std::string path = resolveScenario(nameOrPath, error);
    return !path.empty() && loadScenarioFile(path, out, error);
}

}  // namespace qs::runner
