#include "runner/scenario_library.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "common/data_dirs.h"
#include "runner/scenario_json.h"

namespace qs::runner {

namespace fs = std::filesystem;

namespace {

constexpr const char* kScenarioFolder = "scenarios";
constexpr const char* kExtension = ".json";

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) {
        out += (out.empty() ? "" : ", ") + n;
    }
    return out.empty() ? std::string("none installed") : out;
}

}  // namespace

std::vector<std::string> bundledScenarioNames() {
    std::vector<std::string> names;
    for (const fs::path& dir : dataDirectories()) {
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator(dir / kScenarioFolder, ec)) {
            const fs::path& p = entry.path();
            if (p.extension() == kExtension && entry.is_regular_file(ec)) {
                names.push_back(p.stem().string());
            }
        }
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

std::string resolveScenario(const std::string& nameOrPath, std::string* error) {
    if (nameOrPath.empty()) {
        *error = "no scenario named (give a bundled scenario's name or a JSON file)";
        return {};
    }
    std::error_code ec;
    const bool isName = nameOrPath.find('/') == std::string::npos &&
                        fs::path(nameOrPath).extension() != kExtension &&
                        !fs::exists(nameOrPath, ec);
    if (!isName) {
        return nameOrPath;  // a path: loadScenarioFile() says what is wrong with it
    }
    const std::string relative = std::string(kScenarioFolder) + "/" + nameOrPath + kExtension;
    if (auto found = findDataPath(relative)) {
        return found->string();
    }
    *error = "no scenario \"" + nameOrPath +
             "\": not a file, nor a bundled scenario (known: " + joined(bundledScenarioNames()) +
             ")";
    return {};
}

bool loadScenario(const std::string& nameOrPath, Scenario* out, std::string* error) {
    const std::string path = resolveScenario(nameOrPath, error);
    return !path.empty() && loadScenarioFile(path, out, error);
}

}  // namespace qs::runner
