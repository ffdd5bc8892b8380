#include "common/bundled_files.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "common/data_dirs.h"

namespace qs {

namespace fs = std::filesystem;

namespace {

constexpr const char* kExtension = ".json";

// "01-classic" answers to "classic" and "01" (and to itself, matched first).
bool answersTo(const std::string& name, const std::string& asked) {
    const std::size_t dash = name.find('-');
    return dash != std::string::npos &&
           (name.substr(dash + 1) == asked || name.substr(0, dash) == asked);
}

bool looksLikePath(const std::string& nameOrPath) {
    std::error_code ec;
    return nameOrPath.find('/') != std::string::npos ||
           fs::path(nameOrPath).extension() == kExtension || fs::exists(nameOrPath, ec);
}

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out.empty() ? std::string("none installed") : out;
}

}  // namespace

std::vector<std::string> bundledNames(const BundledFolder& folder) {
    std::vector<std::string> names;
    for (const fs::path& dir : dataDirectories()) {
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator(dir / folder.folder, ec)) {
            const fs::path& p = entry.path();
            if (p.extension() == kExtension && entry.is_regular_file(ec))
                names.push_back(p.stem().string());
        }
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

std::string resolveBundled(const BundledFolder& folder, const std::string& nameOrPath,
                           std::string* error) {
    if (nameOrPath.empty()) {
        *error = std::string("no ") + folder.noun + " named (give a shipped " + folder.noun +
                 "'s name or a JSON file)";
        return {};
    }
    if (looksLikePath(nameOrPath))
        return nameOrPath;
    const std::vector<std::string> names = bundledNames(folder);
    // An exact name first, so "01" never shadows a file literally named "01".
    std::vector<std::string> candidates;
    if (std::find(names.begin(), names.end(), nameOrPath) != names.end())
        candidates.push_back(nameOrPath);
    for (const std::string& name : names) {
        if (name != nameOrPath && answersTo(name, nameOrPath))
            candidates.push_back(name);
    }
    for (const std::string& name : candidates) {
        const std::string relative = std::string(folder.folder) + "/" + name + kExtension;
        if (auto found = findDataPath(relative))
            return found->string();
    }
    *error = "no " + std::string(folder.noun) + " \"" + nameOrPath +
             "\": not a file, nor a shipped " + folder.noun + " (known: " + joined(names) + ")";
    return {};
}

}  // namespace qs
