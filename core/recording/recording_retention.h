#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

// How many recordings a runs folder keeps (docs/recording.md, "The console's
// recordings"): the newest ones, within a count and a size; the oldest go first.
namespace qs::recording {

struct RetentionLimits {
    static constexpr std::size_t kDefaultMaxRuns = 50;
    static constexpr std::uint64_t kDefaultMaxBytes = std::uint64_t{2} << 30;  // 2 GiB

    std::size_t maxRuns = kDefaultMaxRuns;      // 0 = no limit on the count
    std::uint64_t maxBytes = kDefaultMaxBytes;  // 0 = no limit on the size
};

struct RetentionResult {
    std::vector<std::filesystem::path> deleted;  // oldest first
    std::size_t kept = 0;                        // recordings left, the protected ones included
    std::uint64_t keptBytes = 0;
    std::vector<std::string> errors;  // "PATH: why" for a file that could not be deleted
};

// Applies RetentionLimits to one folder. Only `*.qsrun` files count and are
// deleted (with their `-wal` / `-shm` companions, which count towards their
// size); anything else in the folder is left alone. Age is the file's last
// write time (then its name). The protected paths (the recording being
// written) count towards both limits but are never deleted.
//
// Threading: none of its own; call from one thread at a time per folder.
class RecordingRetention {
public:
    explicit RecordingRetention(RetentionLimits limits) : limits_(limits) {}

    RetentionResult apply(const std::filesystem::path& folder,
                          const std::vector<std::filesystem::path>& protectedPaths) const;
    const RetentionLimits& limits() const { return limits_; }

private:
    RetentionLimits limits_;
};

}  // namespace qs::recording
