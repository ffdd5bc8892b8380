#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace qs::run {

// A file that holds the old chunks of a long run's per-event lists (events,
// change logs, trail, per-message columns) so they leave RAM: written once
// (a column's chunk may be written again in place), read back on demand.
// It has no name: it is unlinked from the start (O_TMPFILE where the file
// system allows it, else created and unlinked at once), so nothing is left
// behind when the run ends, or when the process is killed.
//
// Threading: none (that of its owner, the Run). Shared by the lists of one
// Run through shared_ptr; the last one closes it.
class SpillFile {
public:
    // Null with *error ("DIRECTORY: why") when no file can be made there.
    static std::shared_ptr<SpillFile> open(const std::string& directory, std::string* error);
    ~SpillFile();
    SpillFile(const SpillFile&) = delete;
    SpillFile& operator=(const SpillFile&) = delete;

    // Appends `size` bytes; the offset they start at. Nullopt with *error
    // (disk full, file too large, an I/O error): then the file is as before.
    std::optional<std::uint64_t> append(const void* data, std::size_t size, std::string* error);
    // Writes `size` bytes over those append() wrote at `offset` (the same
    // size: a chunk changed since). False with *error if the write fails:
    // then the bytes there may be part old, part new, and only the caller's
    // copy is whole.
    bool overwrite(std::uint64_t offset, const void* data, std::size_t size, std::string* error);
    // Reads back `size` bytes that append() wrote at `offset`. Throws
    // std::system_error if the system cannot read them (an I/O error of the
    // disk under the file): the data is gone then, so there is no answer.
    void read(std::uint64_t offset, void* out, std::size_t size) const;

    std::uint64_t size() const { return size_; }
    const std::string& directory() const { return directory_; }

private:
    SpillFile(int fd, std::string directory) : fd_(fd), directory_(std::move(directory)) {}

    int fd_;
    std::string directory_;
    std::uint64_t size_ = 0;
};

}  // namespace qs::run
