#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "broker/recovered_state.h"
#include "broker/store_record.h"
#include "broker/sync_mode.h"

namespace qs::broker {

// How far the log must have got for some records to be as durable as the sync
// mode promises: written to the OS up to `written`, fsynced up to `synced`
// (positions in the stream of appended bytes).
struct CommitTicket {
    std::uint64_t written = 0;
    std::uint64_t synced = 0;
};

struct DurableLogOptions {
    std::string directory;
    SyncMode sync = SyncMode::Batch;
    int batchIntervalMs = 50;
    // Compaction starts once the files exceed both twice the live data and this.
    std::uint64_t compactionFloorBytes = 16u * 1024u * 1024u;
    std::function<void(std::string_view line)> log;  // warnings (torn tail cut, ...)
    // The fsync of the log file; tests put a failing one here (default fdatasync).
    std::function<int(int fd)> syncFile;
};

// The broker's durable store: an append-only log of checksummed records
// (store_record.h) in numbered files `log-N`, plus at most one `snapshot-N`
// holding every live entry as of some moment after `log-N` was started.
// Recovery loads the newest snapshot, replays the logs from its number on, and
// cuts a torn or corrupt tail off the last log. Compaction writes a new
// snapshot and deletes what it supersedes, so the files stay within twice the
// live data (plus the floor).
//
// Threading: the append calls may come from any thread, also while the caller
// holds its own locks (the log's locks are taken last and never call out).
// commitThisThread() blocks for the write / fsync. Background threads sync
// (Batch) and compact; compaction calls the snapshot source, which may take
// the caller's locks. close() (or the destructor) stops them; nothing may be
// appended after it.
class DurableLog {
public:
    // Frames of every live entry, handed to `sink` in chunks.
    using FrameSink = std::function<void(std::string& frames)>;
    using SnapshotSource = std::function<void(const FrameSink& sink)>;

    // Creates the directory if needed, locks it against a second broker and
    // reads it into *state. Null, with *error saying why, when the directory is
    // unusable, locked, or holds a corrupt snapshot.
    static std::unique_ptr<DurableLog> open(DurableLogOptions options, RecoveredState* state,
                                            std::string* error);
    ~DurableLog();
    DurableLog(const DurableLog&) = delete;
    DurableLog& operator=(const DurableLog&) = delete;

    void put(std::string_view channel, const StoredMessage& message, const RecordOrigin& origin);
    void remove(std::string_view channel, std::uint64_t sequence, std::size_t footprint);
    void delay(std::uint64_t delayId, std::string_view channel, const StoredMessage& message,
               const RecordOrigin& origin);
    void channelCreated(std::string_view channel, std::uint64_t nextSequence,
                        std::int64_t lastTimestamp);
    void channelDeleted(std::string_view channel);
    // Live data that left without a record of its own (replaced, released, deleted).
    void forget(std::size_t footprint);

    // Makes every record this thread appended as durable as the sync mode
    // promises before returning. False once a write or fsync of the log has
    // failed: from then on nothing it holds is promised (restart the broker).
    bool commitThisThread() { return commit(thisThreadTicket()); }
    // What commitThisThread() would wait for, to be committed later, on any
    // thread (a pipelined stream answers request n while reading n + 1).
    CommitTicket thisThreadTicket() const;
    bool commit(const CommitTicket& ticket);

    // While one exists on a thread, the records it appends settle messages
    // already stored (ack, nack, requeue, expiry, dead letter). With
    // SyncMode::Always commitThisThread() writes them to the OS (a process
    // crash keeps them) but does not wait for their fsync: the next fsync takes
    // them, at the latest the background one within the batch interval. A power
    // loss before it can only bring such a message back (at-least-once).
    class SettlementRecords {
    public:
        SettlementRecords();
        ~SettlementRecords();
        SettlementRecords(const SettlementRecords&) = delete;
        SettlementRecords& operator=(const SettlementRecords&) = delete;
    };

    // Starts the background threads; compaction asks `source` for the live entries.
    void startBackground(SnapshotSource source);
    // Compacts if the files exceed twice the live data and the floor.
    bool compactIfWorthIt();
    void compactNow();
    // Stops the background thread, writes and syncs what is pending. Idempotent.
    void close();

    std::uint64_t diskBytes() const { return diskBytes_.load(); }
    std::uint64_t liveBytes() const;
    SyncMode syncMode() const { return options_.sync; }

private:
    explicit DurableLog(DurableLogOptions options);

    template <typename Encode>
    void append(std::int64_t liveDelta, Encode&& encode);
    std::uint64_t flushPending();  // returns the position written up to
    void syncNow();
    void fail(const std::string& what);
    bool openLogFile(std::uint64_t generation, std::string* error);
    void runEvery(int intervalMs, const std::function<void()>& work);
    void warn(const std::string& line) const;

    DurableLogOptions options_;
    int lockFd_ = -1;

    mutable std::mutex appendMutex_;  // pending_, appended_, liveBytes_
    std::string pending_;
    std::uint64_t appended_ = 0;
    std::int64_t liveBytes_ = 0;

    std::mutex syncMutex_;   // held across fdatasync and file rotation
    std::mutex writeMutex_;  // fd_, writing_, generation_
    int fd_ = -1;
    std::uint64_t generation_ = 0;
    std::string writing_;
    std::atomic<std::uint64_t> written_{0};
    std::atomic<std::uint64_t> synced_{0};
    std::atomic<std::uint64_t> diskBytes_{0};
    std::atomic<bool> failed_{false};  // a write or fsync failed: sticky

    std::mutex compactMutex_;
    SnapshotSource source_;

    std::mutex backgroundMutex_;
    std::condition_variable backgroundCv_;
    bool stopping_ = false;
    bool closed_ = false;
    std::thread syncer_;     // Batch and Always (for settlements): fsync every batch interval
    std::thread compactor_;  // checks every 100 ms whether to compact
};

}  // namespace qs::broker
