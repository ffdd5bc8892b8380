#include "lessons/lesson_library.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "common/data_dirs.h"
#include "lessons/lesson_json.h"

namespace qs::lessons {

namespace fs = std::filesystem;

namespace {

constexpr const char* kLessonFolder = "lessons";
constexpr const char* kExtension = ".json";

// "01-competing-consumers" answers to itself, "competing-consumers" and "01".
bool answersTo(const std::string& name, const std::string& asked) {
    if (name == asked) {
        return true;
    }
    const std::size_t dash = name.find('-');
    return dash != std::string::npos &&
           (name.substr(dash + 1) == asked || name.substr(0, dash) == asked);
}

}  // namespace

std::vector<std::string> bundledLessonNames() {
    std::vector<std::string> names;
    for (const fs::path& dir : dataDirectories()) {
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator(dir / kLessonFolder, ec)) {
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

std::string resolveLesson(const std::string& nameOrPath, std::string* error) {
    if (nameOrPath.empty()) {
        *error = "no lesson named (give a shipped lesson's name or a JSON file)";
        return {};
    }
    std::error_code ec;
    const bool isName = nameOrPath.find('/') == std::string::npos &&
                        fs::path(nameOrPath).extension() != kExtension &&
                        !fs::exists(nameOrPath, ec);
    if (!isName) {
        return nameOrPath;  // a path: loadLessonFile() says what is wrong with it
    }
    const std::vector<std::string> names = bundledLessonNames();
    for (const std::string& name : names) {
        if (answersTo(name, nameOrPath)) {
            if (auto found = findDataPath(std::string(kLessonFolder) + "/" + name + kExtension)) {
                return found->string();
            }
        }
    }
    std::string known;
    for (const std::string& n : names) {
        known += (known.empty() ? "" : ", ") + n;
    }
    *error = "no lesson \"" + nameOrPath + "\": not a file, nor a shipped lesson (known: " +
             (known.empty() ? std::string("none installed") : known) + ")";
    return {};
}

bool loadLesson(const std::string& nameOrPath, Lesson* out, std::string* error) {
    const std::string path = resolveLesson(nameOrPath, error);
    return !path.empty() && loadLessonFile(path, out, error);
}

}  // namespace qs::lessons
