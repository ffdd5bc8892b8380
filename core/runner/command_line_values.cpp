#include "runner/command_line_values.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "client/address_check.h"

namespace qs::runner {

bool parseDouble(const std::string& text, double* out) {
    if (text.empty()) {
        return false;
    }
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(v)) {
        return false;
    }
    *out = v;
    return true;
}

bool parseInt(const std::string& text, long long min, long long max, int* out) {
    if (text.empty()) {
        return false;
    }
    char* end = nullptr;
    errno = 0;
    long long v = std::strtoll(text.c_str(), &end, 10);
    if (errno != 0 || end != text.c_str() + text.size() || v < min || v > max) {
        return false;
    }
    *out = static_cast<int>(v);
    return true;
}

bool parseInt(const std::string& text, const Limit<int>& limit, int* out) {
    return parseInt(text, limit.min, limit.max, out);
}

bool parseNumber(const std::string& text, const Limit<double>& limit, double* out) {
    return parseDouble(text, out) && limit.contains(*out);
}

std::vector<std::string> split(const std::string& text, char sep, std::size_t maxParts) {
    std::vector<std::string> parts;
    std::size_t from = 0;
    for (;;) {
        if (maxParts != 0 && parts.size() + 1 == maxParts) {
            parts.push_back(text.substr(from));
            break;
        }
        std::size_t at = text.find(sep, from);
        parts.push_back(text.substr(from, at == std::string::npos ? std::string::npos : at - from));
        if (at == std::string::npos) {
            break;
        }
        from = at + 1;
    }
    return parts;
}

std::string checkHostPort(const std::string& address) {
    return client::addressProblem(address);  // the console's Connect field says the same
}

bool sameFile(const std::string& a, const std::string& b) {
    std::error_code ea;
    std::error_code eb;
    const auto ca = std::filesystem::weakly_canonical(a, ea);
    const auto cb = std::filesystem::weakly_canonical(b, eb);
    return a == b || (!ea && !eb && ca == cb);
}

}  // namespace qs::runner
