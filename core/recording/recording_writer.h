#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "events/event.h"
#include "recording/setting_value.h"

// Writes one run's recording (*.qsrun, docs/recording.md): the events as they
// come, the run's settings, and at the end its outcome.
namespace qs::recording {

struct RecordingWriterOptions {
    // The writer thread commits what it has at least this often, so a killed
    // process loses at most about this much (plus the batch being written).
    std::chrono::milliseconds commitInterval{250};
    // Events handed over but not yet written. A batch that would go beyond is
    // not queued: its events are counted as lost and recorded as a gap.
    // They wait encoded (about 24 bytes an event in a full-speed pool's run,
    // so 2,097,152 events are about 50 MB; long texts take more).
    std::size_t maxPendingEvents = std::size_t{1} << 21;
    // Once this many events come within one commit interval (32,768 a second
    // at the defaults), the writer stages them: one compact blob per batch
    // instead of a row per event, for a fraction of the CPU. Staged events
    // become rows once the run is idle (a whole interval with fewer than
    // stageAtEvents / 64: 128 at the defaults, 512 a second), and at the
    // latest at close() (docs/recording.md): copying costs about 0.8 us a row,
    // which a run that is merely slower would pay on the cores it uses.
    // 0 = never stage.
    std::size_t stageAtEvents = 8192;
    // False: staged events stay staged until close(), however idle the run.
    bool copyStagedWhileRunning = true;
};

struct RecordingWriterStats {
    std::uint64_t eventsAppended = 0;   // every event handed to append(), lost ones included
    std::uint64_t eventsCommitted = 0;  // in the file, committed
    std::uint64_t eventsLost = 0;       // never written: the queue was full, or a write failed
    std::uint64_t commits = 0;
    std::uint64_t eventsStaged = 0;  // committed staged, not yet copied into rows
    std::size_t pendingEvents = 0;
    std::string error;  // the first write error; "" = none. After one, nothing more is written.
};

// Threading: append(), setSetting(), setOutcome() and stats() from any thread
// (the callers never wait for the disk: they queue under a short lock); the
// writer's own thread does every SQLite call. close() from the owner, once
// the producers are done; the destructor closes.
// Memory: what is queued (at most maxPendingEvents), the row ids of the last
// 65,536-131,072 message ids and transactions written as rows, and a
// few numbers per staged blob; the blobs themselves are in the file only, so
// a long busy run's memory stays flat.
class RecordingWriter {
public:
    // Creates the file at `path`, replacing a file (and its -wal / -shm) there,
    // writes the schema and starts the writer thread. `originNs` is the
    // monotonic time events are stored relative to. Null with *error when the
    // file cannot be created (a directory, no such folder, no permission).
    static std::unique_ptr<RecordingWriter> create(const std::string& path, std::int64_t originNs,
                                                   RecordingWriterOptions options,
                                                   std::string* error);
    ~RecordingWriter();
    RecordingWriter(const RecordingWriter&) = delete;
    RecordingWriter& operator=(const RecordingWriter&) = delete;

    // Takes the batch's events (the next index follows on) and encodes them
    // on the calling thread, where they are in the cache (30-80 ns an event:
    // docs/recording.md, "Figures"); the SQLite work is the writer thread's.
    // `batch` is left empty, keeping its capacity. Appends from several
    // threads take turns.
    void append(std::vector<Event>& batch);
    // Key/value facts of the run (the settings table, the outcome table),
    // written with the next commit; a later value replaces an earlier one.
    void setSetting(std::string key, SettingValue value);
    void setOutcome(std::string key, SettingValue value);

    // Writes everything queued, makes the file one self-contained database
    // (no -wal left) and closes it. False with *error when anything was not
    // written (the first write error). Idempotent.
    bool close(std::string* error);

    RecordingWriterStats stats() const;
    const std::string& path() const { return path_; }

private:
    struct Impl;
    struct Encoding;
    RecordingWriter(std::string path, RecordingWriterOptions options);
    struct Chunk;
    struct Fact;
    struct Gap;
    void loop();
    bool commitQueued(std::vector<Chunk>& chunks, std::vector<Fact>& facts,
                      std::vector<Gap>& gaps);
    void copyStagedWhileIdle(bool stopping);
    std::size_t idleBelow() const;
    bool noteRate(std::uint64_t events);

    const std::string path_;
    const RecordingWriterOptions options_;
    std::unique_ptr<Impl> impl_;          // the SQLite side: writer thread only (and create/close)
    std::mutex encodeMutex_;              // taken by append() first, then mutex_
    std::unique_ptr<Encoding> encoding_;  // under encodeMutex_

    // A batch encoded by append() (recording/staged_events.h), written staged
    // or as rows by the writer thread.
    struct Chunk {
        std::uint64_t firstIndex = 0;
        std::uint64_t count = 0;
        std::string data;
        std::vector<Name> newNames;  // numbered by this chunk, in id order
    };
    struct Fact {
        bool outcome = false;
        std::string key;
        SettingValue value;
    };
    struct Gap {
        std::uint64_t firstIndex = 0;
        std::uint64_t count = 0;
        std::string why;
    };
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::vector<Chunk> pending_;
    std::vector<Fact> facts_;
    std::vector<Gap> gaps_;
    std::uint64_t nextIndex_ = 1;
    bool stop_ = false;
    bool closed_ = false;
    RecordingWriterStats stats_;
    // The writer thread's view of the rate (noteRate()).
    std::chrono::steady_clock::time_point windowStart_ = std::chrono::steady_clock::now();
    std::uint64_t windowEvents_ = 0;
    bool busy_ = false;
    bool idle_ = false;
    std::thread thread_;
};

}  // namespace qs::recording
