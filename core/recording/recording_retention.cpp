#include "recording/recording_retention.h"

#include <algorithm>
#include <system_error>

#include "recording/recording_file_name.h"

namespace qs::recording {

namespace fs = std::filesystem;

namespace {

struct Candidate {
    fs::path path;
    fs::file_time_type written;
    std::uint64_t bytes = 0;
    bool isProtected = false;
};

// The file and what SQLite may have left beside it (a killed writer's WAL).
std::vector<fs::path> withCompanions(const fs::path& path) {
    return {path, fs::path(path.string() + "-wal"), fs::path(path.string() + "-shm")};
}

std::uint64_t sizeWithCompanions(const fs::path& path) {
    std::uint64_t total = 0;
    for (const fs::path& p : withCompanions(path)) {
        std::error_code ec;
        const auto n = fs::file_size(p, ec);
        total += ec ? 0 : n;
    }
    return total;
}

bool sameFile(const fs::path& a, const fs::path& b) {
    std::error_code ec;
    return fs::equivalent(a, b, ec) || a.lexically_normal() == b.lexically_normal();
}

std::vector<Candidate> listRecordings(const fs::path& folder,
                                      const std::vector<fs::path>& protectedPaths) {
    std::vector<Candidate> found;
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code typeError;
        if (it->path().extension() != kRecordingExtension || !it->is_regular_file(typeError)) {
            continue;
        }
        Candidate c;
        c.path = it->path();
        c.written = it->last_write_time(typeError);
        c.bytes = sizeWithCompanions(c.path);
        c.isProtected = std::any_of(protectedPaths.begin(), protectedPaths.end(),
                                    [&](const fs::path& p) { return sameFile(p, c.path); });
        found.push_back(std::move(c));
    }
    // Newest first.
    std::sort(found.begin(), found.end(), [](const Candidate& a, const Candidate& b) {
        return a.written != b.written ? a.written > b.written : a.path > b.path;
    });
    return found;
}

}  // namespace

RetentionResult RecordingRetention::apply(const fs::path& folder,
                                          const std::vector<fs::path>& protectedPaths) const {
    const std::vector<Candidate> recordings = listRecordings(folder, protectedPaths);
    RetentionResult result;
    std::size_t count = 0;
    std::uint64_t bytes = 0;
    for (const Candidate& c : recordings) {
        if (c.isProtected) {
            ++count;
            bytes += c.bytes;
        }
    }
    // Keep the newest that fit beside the protected ones; the rest go, oldest first.
    std::vector<const Candidate*> doomed;
    for (const Candidate& c : recordings) {
        if (c.isProtected) {
            continue;
        }
        const bool fitsCount = limits_.maxRuns == 0 || count + 1 <= limits_.maxRuns;
        const bool fitsSize = limits_.maxBytes == 0 || bytes + c.bytes <= limits_.maxBytes;
        if (fitsCount && fitsSize && doomed.empty()) {
            ++count;
            bytes += c.bytes;
        } else {
            doomed.push_back(&c);  // and every older one after it
        }
    }
    std::reverse(doomed.begin(), doomed.end());
    for (const Candidate* c : doomed) {
        std::error_code ec;
        fs::remove(c->path, ec);
        if (ec) {
            result.errors.push_back(c->path.string() + ": " + ec.message());
            ++count;
            bytes += c->bytes;
            continue;
        }
        for (const fs::path& companion : withCompanions(c->path)) {
            std::error_code ignored;
            fs::remove(companion, ignored);
        }
        result.deleted.push_back(c->path);
    }
    result.kept = count;
    result.keptBytes = bytes;
    return result;
}

}  // namespace qs::recording
