#include "recording/recording_file_name.h"

#include <system_error>

namespace qs::recording {

namespace {

constexpr std::size_t kMaxScenarioChars = 64;

bool keeps(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_';
}

std::string safeScenario(std::string_view scenario) {
    std::string out;
    for (const char c : scenario) {
        if (keeps(c)) {
            out += c;
        } else if (!out.empty() && out.back() != '-') {
            out += '-';
        }
        if (out.size() >= kMaxScenarioChars) {
            break;
        }
    }
    while (!out.empty() && out.back() == '-') {
        out.pop_back();
    }
    return out.empty() ? std::string("manual") : out;
}

std::string stem(const std::tm& start, std::string_view scenario) {
    char time[32];
    std::strftime(time, sizeof time, "%Y-%m-%dT%H-%M-%S", &start);
    return std::string(time) + "_" + safeScenario(scenario);
}

}  // namespace

std::string recordingFileName(const std::tm& start, std::string_view scenario) {
    return stem(start, scenario) + std::string(kRecordingExtension);
}

std::filesystem::path uniqueRecordingPath(const std::filesystem::path& folder, const std::tm& start,
                                          std::string_view scenario) {
    const std::string base = stem(start, scenario);
    for (int n = 1;; ++n) {
        const std::string name =
            (n == 1 ? base : base + "-" + std::to_string(n)) + std::string(kRecordingExtension);
        const std::filesystem::path path = folder / name;
        std::error_code ec;
        if (!std::filesystem::exists(path, ec) && !ec) {
            return path;
        }
        if (ec) {
            return path;  // cannot tell: creating it will say why
        }
    }
}

}  // namespace qs::recording
