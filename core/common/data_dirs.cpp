#include "common/data_dirs.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <system_error>

namespace qs {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kAppFolder = "queuescope";
// An install keeps its data one level above bin/; a build tree keeps it at the
// top of the tree, which is at most three levels above an executable.
constexpr int kLevelsAboveExecutable = 3;

std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value ? std::string(value) : std::string();
}

bool isDirectory(const fs::path& p) {
    std::error_code ec;
    return !p.empty() && fs::is_directory(p, ec);
}

void addIfDirectory(std::vector<fs::path>& out, const fs::path& p) {
    if (!isDirectory(p)) {
        return;
    }
    std::error_code ec;
    fs::path canonical = fs::canonical(p, ec);
    if (ec) {
        canonical = p;
    }
    if (std::find(out.begin(), out.end(), canonical) == out.end()) {
        out.push_back(std::move(canonical));
    }
}

std::optional<fs::path> besideExecutable() {
    fs::path dir = executableDirectory();
    for (int level = 0; level <= kLevelsAboveExecutable && !dir.empty(); ++level) {
        const fs::path candidate = dir / "share" / kAppFolder;
        if (isDirectory(candidate)) {
            return candidate;
        }
        if (dir == dir.parent_path()) {
            break;
        }
        dir = dir.parent_path();
    }
    return std::nullopt;
}

std::vector<fs::path> splitPathList(const std::string& list) {
    std::vector<fs::path> out;
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t end = std::min(list.find(':', start), list.size());
        if (end > start) {
            out.emplace_back(list.substr(start, end - start));
        }
        start = end + 1;
    }
    return out;
}

}  // namespace

fs::path executableDirectory() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe.parent_path();
}

std::vector<fs::path> dataDirectories() {
    std::vector<fs::path> dirs;
    addIfDirectory(dirs, environment("QUEUESCOPE_DATA_DIR"));
    if (auto beside = besideExecutable()) {
        addIfDirectory(dirs, *beside);
    }
    std::string dataHome = environment("XDG_DATA_HOME");
    if (dataHome.empty() && !environment("HOME").empty()) {
        dataHome = environment("HOME") + "/.local/share";
    }
    if (!dataHome.empty()) {
        addIfDirectory(dirs, fs::path(dataHome) / kAppFolder);
    }
    std::string dataDirs = environment("XDG_DATA_DIRS");
    if (dataDirs.empty()) {
        dataDirs = "/usr/local/share:/usr/share";
    }
    for (const fs::path& base : splitPathList(dataDirs)) {
        addIfDirectory(dirs, base / kAppFolder);
    }
    return dirs;
}

std::optional<fs::path> findDataPath(std::string_view relative) {
    for (const fs::path& dir : dataDirectories()) {
        const fs::path candidate = dir / fs::path(relative);
        std::error_code ec;
        if (fs::exists(candidate, ec)) {
            return candidate;
        }
    }
    return std::nullopt;
}

}  // namespace qs
