#include "run/spill_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>
#include <vector>

namespace qs::run {

namespace {

std::string why(const std::string& directory, int error) {
    return directory + ": " + std::strerror(error);
}

// A file no one can name: O_TMPFILE, or (a file system without it) a unique
// name unlinked as soon as it exists.
int openNameless(const std::string& directory) {
    const int fd = ::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, S_IRUSR | S_IWUSR);
    if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)) {
        return fd;
    }
    std::string pattern = directory + "/queuescope-spill-XXXXXX";
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    const int named = ::mkostemp(name.data(), O_CLOEXEC);
    if (named >= 0) {
        ::unlink(name.data());
    }
    return named;
}

}  // namespace

std::shared_ptr<SpillFile> SpillFile::open(const std::string& directory, std::string* error) {
    if (directory.empty()) {
        *error = "no folder for the spill file was given";
        return nullptr;
    }
    const int fd = openNameless(directory);
    if (fd < 0) {
        *error = why(directory, errno);
        return nullptr;
    }
    return std::shared_ptr<SpillFile>(new SpillFile(fd, directory));
}

SpillFile::~SpillFile() {
    ::close(fd_);
}

std::optional<std::uint64_t> SpillFile::append(const void* data, std::size_t size,
                                               std::string* error) {
    const auto* bytes = static_cast<const char*>(data);
    std::size_t written = 0;
    while (written < size) {
        const ssize_t n = ::pwrite(fd_, bytes + written, size - written,
                                   static_cast<off_t>(size_ + written));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            *error = why(directory_, n < 0 ? errno : ENOSPC);
            // Gives back what a partial write took; the file stays as it was.
            [[maybe_unused]] const int ignored = ::ftruncate(fd_, static_cast<off_t>(size_));
            return std::nullopt;
        }
        written += static_cast<std::size_t>(n);
    }
    const std::uint64_t offset = size_;
    size_ += size;
    return offset;
}

bool SpillFile::overwrite(std::uint64_t offset, const void* data, std::size_t size,
                          std::string* error) {
    const auto* bytes = static_cast<const char*>(data);
    for (std::size_t written = 0; written < size;) {
        const ssize_t n = ::pwrite(fd_, bytes + written, size - written,
                                   static_cast<off_t>(offset + written));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            *error = why(directory_, n < 0 ? errno : ENOSPC);
            return false;
        }
        written += static_cast<std::size_t>(n);
    }
    return true;
}

void SpillFile::read(std::uint64_t offset, void* out, std::size_t size) const {
    auto* bytes = static_cast<char*>(out);
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n =
            ::pread(fd_, bytes + done, size - done, static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            throw std::system_error(n < 0 ? errno : EIO, std::generic_category(),
                                    "reading the run's spill file in " + directory_);
        }
        done += static_cast<std::size_t>(n);
    }
}

}  // namespace qs::run
