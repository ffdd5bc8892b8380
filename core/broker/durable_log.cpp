#include "broker/durable_log.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <set>

namespace qs::broker {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kLogMagic = "QSBLOG01";
constexpr std::string_view kSnapshotMagic = "QSBSNP01";
constexpr std::string_view kLogPrefix = "log-";
constexpr std::string_view kSnapshotPrefix = "snapshot-";

thread_local const DurableLog* lastLog = nullptr;
thread_local std::uint64_t lastPosition = 0;      // the end of this thread's last record
thread_local std::uint64_t lastSyncPosition = 0;  // ... of its last one that is no settlement
thread_local int settlementDepth = 0;

std::string fileName(std::string_view prefix, std::uint64_t generation) {
    char digits[24];
    std::snprintf(digits, sizeof(digits), "%020llu", static_cast<unsigned long long>(generation));
    return std::string(prefix) + digits;
}

// The generation of "prefixNNNN", or 0 when `name` is not such a file.
std::uint64_t generationOf(std::string_view name, std::string_view prefix) {
    if (!name.starts_with(prefix) || name.size() != prefix.size() + 20)
        return 0;
    std::uint64_t value = 0;
    const char* begin = name.data() + prefix.size();
    const auto [end, ec] = std::from_chars(begin, name.data() + name.size(), value);
    return ec == std::errc() && end == name.data() + name.size() ? value : 0;
}

std::string errnoText(const std::string& what, const std::string& path) {
    return what + " '" + path + "': " + std::strerror(errno);
}

bool writeAll(int fd, std::string_view data) {
    while (!data.empty()) {
        const ssize_t n = ::write(fd, data.data(), data.size());
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

void syncDirectory(const std::string& directory) {
    const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

// A read-only view of a whole file.
class MappedFile {
public:
    bool open(const std::string& path, std::string* error) {
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            *error = errnoText("cannot open", path);
            return false;
        }
        struct stat info {};
        ::fstat(fd, &info);
        size_ = static_cast<std::size_t>(info.st_size);
        if (size_ > 0) {
            void* address = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
            if (address == MAP_FAILED) {
                *error = errnoText("cannot map", path);
                ::close(fd);
                return false;
            }
            ::madvise(address, size_, MADV_SEQUENTIAL);
            data_ = static_cast<const char*>(address);
        }
        ::close(fd);
        return true;
    }
    ~MappedFile() {
        if (data_ != nullptr)
            ::munmap(const_cast<char*>(data_), size_);
    }
    std::string_view view() const { return {data_, size_}; }

private:
    const char* data_ = nullptr;
    std::size_t size_ = 0;
};

struct ReadOutcome {
    std::size_t validBytes = 0;  // header + complete frames
    FrameCheck stop = FrameCheck::Complete;
};

// Applies the frames of one file until its end or the first bad frame.
ReadOutcome readFile(std::string_view data, std::string_view magic, RecoveredState& state) {
    ReadOutcome outcome;
    if (data.size() < magic.size() || data.substr(0, magic.size()) != magic) {
        outcome.stop = magic.starts_with(data) ? FrameCheck::Truncated : FrameCheck::Corrupt;
        return outcome;
    }
    std::size_t pos = magic.size();
    StoreRecord record;
    while (pos < data.size()) {
        std::size_t frameBytes = 0;
        const FrameCheck check = readFrame(data.substr(pos), &record, &frameBytes);
        if (check != FrameCheck::Complete) {
            outcome.stop = check;
            break;
        }
        if (!state.apply(std::move(record))) {
            outcome.stop = FrameCheck::Corrupt;
            break;
        }
        pos += frameBytes;
    }
    outcome.validBytes = pos;
    return outcome;
}

struct DirectoryListing {
    std::set<std::uint64_t> logs;
    std::set<std::uint64_t> snapshots;
};

DirectoryListing listDirectory(const std::string& directory) {
    DirectoryListing listing;
    for (const auto& entry : fs::directory_iterator(directory)) {
        const std::string name = entry.path().filename().string();
        if (name.ends_with(".tmp")) {
            std::error_code ignored;
            fs::remove(entry.path(), ignored);  // an unfinished snapshot
        } else if (const auto log = generationOf(name, kLogPrefix)) {
            listing.logs.insert(log);
        } else if (const auto snapshot = generationOf(name, kSnapshotPrefix)) {
            listing.snapshots.insert(snapshot);
        }
    }
    return listing;
}

// Writes a snapshot file atomically: temporary name, fsync, rename, fsync dir.
class SnapshotFile {
public:
    bool create(const std::string& directory, std::uint64_t generation, std::string* error) {
        directory_ = directory;
        final_ = directory + "/" + fileName(kSnapshotPrefix, generation);
        temporary_ = final_ + ".tmp";
        fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd_ < 0) {
            *error = errnoText("cannot create", temporary_);
            return false;
        }
        return write(kSnapshotMagic);
    }
    bool write(std::string_view data) {
        ok_ = ok_ && writeAll(fd_, data);
        bytes_ += data.size();
        return ok_;
    }
    bool finish(std::string* error) {
        ok_ = ok_ && ::fdatasync(fd_) == 0;
        ::close(fd_);
        fd_ = -1;
        if (!ok_ || ::rename(temporary_.c_str(), final_.c_str()) != 0) {
            *error = errnoText("cannot write", temporary_);
            ::unlink(temporary_.c_str());
            return false;
        }
        syncDirectory(directory_);
        return true;
    }
    ~SnapshotFile() {
        if (fd_ >= 0) {
            ::close(fd_);
            ::unlink(temporary_.c_str());
        }
    }
    std::uint64_t bytes() const { return bytes_; }

private:
    std::string directory_, final_, temporary_;
    int fd_ = -1;
    bool ok_ = true;
    std::uint64_t bytes_ = 0;
};

// Removes every log and snapshot older than `generation`.
void removeOlderThan(const std::string& directory, std::uint64_t generation) {
    const DirectoryListing listing = listDirectory(directory);
    bool removed = false;
    for (const auto log : listing.logs) {
        if (log < generation)
            removed |= ::unlink((directory + "/" + fileName(kLogPrefix, log)).c_str()) == 0;
    }
    for (const auto snapshot : listing.snapshots) {
        if (snapshot < generation)
            removed |=
                ::unlink((directory + "/" + fileName(kSnapshotPrefix, snapshot)).c_str()) == 0;
    }
    if (removed)
        syncDirectory(directory);
}

}  // namespace

std::optional<SyncMode> parseSyncMode(std::string_view text) {
    if (text == "always")
        return SyncMode::Always;
    if (text == "batch")
        return SyncMode::Batch;
    if (text == "none")
        return SyncMode::None;
    return std::nullopt;
}

std::string_view syncModeName(SyncMode mode) {
    switch (mode) {
        case SyncMode::Always:
            return "always";
        case SyncMode::Batch:
            return "batch";
        case SyncMode::None:
            return "none";
    }
    return "batch";
}

DurableLog::DurableLog(DurableLogOptions options) : options_(std::move(options)) {}

std::unique_ptr<DurableLog> DurableLog::open(DurableLogOptions options, RecoveredState* state,
                                             std::string* error) {
    const std::string directory = options.directory;
    std::error_code ec;
    fs::create_directories(directory, ec);
    if (ec || !fs::is_directory(directory)) {
        *error = "cannot use data directory '" + directory +
                 "': " + (ec ? ec.message() : std::string("not a directory"));
        return nullptr;
    }
    std::unique_ptr<DurableLog> log(new DurableLog(std::move(options)));
    const std::string lockPath = directory + "/LOCK";
    log->lockFd_ = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (log->lockFd_ < 0) {
        *error = errnoText("cannot open", lockPath);
        return nullptr;
    }
    if (::flock(log->lockFd_, LOCK_EX | LOCK_NB) != 0) {
        *error = "data directory '" + directory + "' is in use by another broker";
        return nullptr;
    }

    const DirectoryListing listing = listDirectory(directory);
    const std::uint64_t snapshot = listing.snapshots.empty() ? 0 : *listing.snapshots.rbegin();
    std::uint64_t diskBytes = 0;
    if (snapshot != 0) {
        const std::string path = directory + "/" + fileName(kSnapshotPrefix, snapshot);
        MappedFile file;
        if (!file.open(path, error))
            return nullptr;
        const ReadOutcome outcome = readFile(file.view(), kSnapshotMagic, *state);
        if (outcome.stop != FrameCheck::Complete) {
            *error = "snapshot '" + path + "' is corrupt at byte " +
                     std::to_string(outcome.validBytes) + "; move it away to start without it";
            return nullptr;
        }
        diskBytes += file.view().size();
    }
    std::uint64_t lastGeneration = snapshot;
    for (const auto generation : listing.logs) {
        lastGeneration = std::max(lastGeneration, generation);
        if (generation < snapshot)
            continue;  // superseded; removed below
        const std::string path = directory + "/" + fileName(kLogPrefix, generation);
        MappedFile file;
        if (!file.open(path, error))
            return nullptr;
        const ReadOutcome outcome = readFile(file.view(), kLogMagic, *state);
        diskBytes += outcome.validBytes;
        if (outcome.validBytes < file.view().size()) {
            // Only the tail a crash tore (or a corruption) is cut; every frame
            // before it was whole and checksummed.
            log->warn("data: " + path + ": " +
                      (outcome.stop == FrameCheck::Truncated ? "torn" : "corrupt") + " tail of " +
                      std::to_string(file.view().size() - outcome.validBytes) +
                      " bytes cut at byte " + std::to_string(outcome.validBytes));
            if (::truncate(path.c_str(), static_cast<off_t>(outcome.validBytes)) != 0)
                log->warn("data: " + errnoText("cannot truncate", path));
        }
    }
    removeOlderThan(directory, snapshot);

    const std::uint64_t generation = lastGeneration + 1;
    log->liveBytes_ = static_cast<std::int64_t>(state->liveBytes());
    if (diskBytes > log->options_.compactionFloorBytes &&
        diskBytes > 2 * static_cast<std::uint64_t>(log->liveBytes_)) {
        SnapshotFile file;
        if (!file.create(directory, generation, error))
            return nullptr;
        state->forEachFrame([&](std::string& frames) { file.write(frames); });
        if (!file.finish(error))
            return nullptr;
        removeOlderThan(directory, generation);
        diskBytes = file.bytes();
    }
    log->diskBytes_ = diskBytes;
    if (!log->openLogFile(generation, error))
        return nullptr;
    return log;
}

DurableLog::~DurableLog() {
    close();
    if (lockFd_ >= 0)
        ::close(lockFd_);
}

bool DurableLog::openLogFile(std::uint64_t generation, std::string* error) {
    const std::string path = options_.directory + "/" + fileName(kLogPrefix, generation);
    // SyncMode::None leaves even the new file's creation to the OS.
    const bool sync = options_.sync != SyncMode::None;
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0 || !writeAll(fd, kLogMagic) || (sync && ::fdatasync(fd) != 0)) {
        *error = errnoText("cannot create", path);
        if (fd >= 0)
            ::close(fd);
        return false;
    }
    if (sync)
        syncDirectory(options_.directory);
    if (fd_ >= 0) {
        if (sync)
            ::fdatasync(fd_);
        ::close(fd_);
    }
    fd_ = fd;
    generation_ = generation;
    diskBytes_ += kLogMagic.size();
    return true;
}

template <typename Encode>
void DurableLog::append(std::int64_t liveDelta, Encode&& encode) {
    std::uint64_t position = 0;
    {
        std::lock_guard lock(appendMutex_);
        const std::size_t before = pending_.size();
        encode(pending_);
        appended_ += pending_.size() - before;
        liveBytes_ += liveDelta;
        position = appended_;
    }
    if (lastLog != this)
        lastSyncPosition = 0;
    lastLog = this;
    lastPosition = position;
    if (settlementDepth == 0)
        lastSyncPosition = position;
}

DurableLog::SettlementRecords::SettlementRecords() {
    ++settlementDepth;
}

DurableLog::SettlementRecords::~SettlementRecords() {
    --settlementDepth;
}

void DurableLog::put(std::string_view channel, const StoredMessage& message,
                     const RecordOrigin& origin) {
    append(static_cast<std::int64_t>(storedFootprint(channel, message)),
           [&](std::string& out) { appendPutFrame(out, channel, message, origin); });
}

void DurableLog::remove(std::string_view channel, std::uint64_t sequence, std::size_t footprint) {
    append(-static_cast<std::int64_t>(footprint),
           [&](std::string& out) { appendRemoveFrame(out, channel, sequence); });
}

void DurableLog::delay(std::uint64_t delayId, std::string_view channel,
                       const StoredMessage& message, const RecordOrigin& origin) {
    append(static_cast<std::int64_t>(storedFootprint(channel, message)),
           [&](std::string& out) { appendDelayFrame(out, delayId, channel, message, origin); });
}

void DurableLog::channelCreated(std::string_view channel, std::uint64_t nextSequence,
                                std::int64_t lastTimestamp) {
    append(0, [&](std::string& out) {
        appendChannelFrame(out, channel, nextSequence, lastTimestamp);
    });
}

void DurableLog::channelDeleted(std::string_view channel) {
    append(0, [&](std::string& out) { appendDeleteChannelFrame(out, channel); });
}

void DurableLog::forget(std::size_t footprint) {
    std::lock_guard lock(appendMutex_);
    liveBytes_ -= static_cast<std::int64_t>(footprint);
}

std::uint64_t DurableLog::liveBytes() const {
    std::lock_guard lock(appendMutex_);
    return static_cast<std::uint64_t>(std::max<std::int64_t>(0, liveBytes_));
}

std::uint64_t DurableLog::flushPending() {
    std::lock_guard lock(writeMutex_);
    std::uint64_t end = 0;
    {
        std::lock_guard appendLock(appendMutex_);
        writing_.swap(pending_);
        end = appended_;
    }
    if (!writing_.empty()) {
        if (!writeAll(fd_, writing_))
            fail("write");
        diskBytes_ += writing_.size();
        writing_.clear();
    }
    written_.store(end);
    return end;
}

void DurableLog::syncNow() {
    std::lock_guard lock(syncMutex_);
    const std::uint64_t end = flushPending();
    if (synced_.load() >= end || failed_.load())
        return;
    const int result = options_.syncFile ? options_.syncFile(fd_) : ::fdatasync(fd_);
    if (result != 0) {
        // After a failed fsync the kernel may have dropped the dirty pages:
        // retrying cannot show whether they reached the disk.
        fail("fdatasync");
        return;
    }
    synced_.store(end);
}

void DurableLog::fail(const std::string& what) {
    const std::string reason = std::strerror(errno);
    if (!failed_.exchange(true))
        warn("data: " + what + " of the log failed (" + reason +
             "); from now on changes are answered with an error");
}

CommitTicket DurableLog::thisThreadTicket() const {
    if (lastLog != this)
        return {};
    return CommitTicket{lastPosition, options_.sync == SyncMode::Always ? lastSyncPosition : 0};
}

bool DurableLog::commit(const CommitTicket& ticket) {
    if (synced_.load() < ticket.synced) {
        // Group commit: whoever holds syncMutex_ writes and syncs everything
        // pending, so the sends waiting behind it usually find theirs done.
        syncNow();
    }
    if (written_.load() < ticket.written)
        flushPending();
    return !failed_.load();
}

void DurableLog::startBackground(SnapshotSource source) {
    {
        std::lock_guard lock(compactMutex_);
        source_ = std::move(source);
    }
    std::lock_guard lock(backgroundMutex_);
    if (closed_ || compactor_.joinable())
        return;
    // Separate threads: a long compaction must not hold back the batch fsync.
    if (options_.sync != SyncMode::None) {
        syncer_ = std::thread(
            [this] { runEvery(std::max(1, options_.batchIntervalMs), [this] { syncNow(); }); });
    }
    compactor_ = std::thread([this] { runEvery(100, [this] { compactIfWorthIt(); }); });
}

void DurableLog::runEvery(int intervalMs, const std::function<void()>& work) {
    std::unique_lock lock(backgroundMutex_);
    while (!stopping_) {
        backgroundCv_.wait_for(lock, std::chrono::milliseconds(intervalMs));
        if (stopping_)
            break;
        lock.unlock();
        work();
        lock.lock();
    }
}

bool DurableLog::compactIfWorthIt() {
    const std::uint64_t disk = diskBytes_.load();
    if (disk <= options_.compactionFloorBytes || disk <= 2 * liveBytes())
        return false;
    compactNow();
    return true;
}

void DurableLog::compactNow() {
    std::lock_guard compactLock(compactMutex_);
    if (!source_)
        return;
    std::uint64_t generation = 0;
    std::string error;
    {
        // Rotate: everything from here on goes to a new log, which the
        // snapshot (taken after this point) and it together describe.
        std::lock_guard syncLock(syncMutex_);
        const std::uint64_t end = flushPending();
        std::lock_guard writeLock(writeMutex_);
        if (!openLogFile(generation_ + 1, &error)) {
            warn("data: compaction skipped: " + error);
            return;
        }
        // openLogFile synced the old file: everything written to it is on disk.
        synced_.store(std::max(end, written_.load()));
        generation = generation_;
    }
    SnapshotFile file;
    if (!file.create(options_.directory, generation, &error)) {
        warn("data: compaction skipped: " + error);
        return;
    }
    source_([&](std::string& frames) { file.write(frames); });
    if (!file.finish(&error)) {
        warn("data: compaction failed: " + error);
        return;
    }
    flushPending();
    removeOlderThan(options_.directory, generation);
    std::error_code ec;
    const auto logSize =
        fs::file_size(options_.directory + "/" + fileName(kLogPrefix, generation), ec);
    diskBytes_ = file.bytes() + (ec ? 0 : logSize);
}

void DurableLog::close() {
    {
        std::lock_guard lock(backgroundMutex_);
        if (closed_)
            return;
        closed_ = true;
        stopping_ = true;
    }
    backgroundCv_.notify_all();
    if (syncer_.joinable())
        syncer_.join();
    if (compactor_.joinable())
        compactor_.join();
    if (fd_ >= 0) {
        syncNow();
        ::close(fd_);
        fd_ = -1;
    }
}

void DurableLog::warn(const std::string& line) const {
    if (options_.log)
        options_.log(line);
}

}  // namespace qs::broker
