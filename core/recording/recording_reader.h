#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "events/event.h"
#include "recording/setting_value.h"

// Reads a recording (*.qsrun, docs/recording.md) written by RecordingWriter:
// the run's settings and outcome, and its events in order, by index range or
// by time range. Refuses, with a message naming the file and the reason,
// anything that is not a readable Queuescope recording.
namespace qs::recording {

// A stretch of event indexes the writer could not record.
struct RecordingGap {
    std::uint64_t firstIndex = 0;
    std::uint64_t count = 0;
    std::string why;
};

struct RecordingReaderOptions {
    // Run SQLite's PRAGMA quick_check when opening (O(file size); about a
    // second for a million events). Off: damage shows up when it is read.
    bool checkIntegrity = true;
};

// Threading: one thread at a time (the reader owns an SQLite connection).
class RecordingReader {
public:
    // Opens `path` read-only. Null with *error ("PATH: why") when it is not a
    // file, not SQLite, not a Queuescope recording, of a schema version this
    // build does not read, truncated or damaged.
    static std::unique_ptr<RecordingReader> open(const std::string& path, std::string* error,
                                                 RecordingReaderOptions options = {});
    ~RecordingReader();
    RecordingReader(const RecordingReader&) = delete;
    RecordingReader& operator=(const RecordingReader&) = delete;

    int schemaVersion() const { return schemaVersion_; }
    std::int64_t originNs() const { return originNs_; }
    const std::map<std::string, SettingValue>& settings() const { return settings_; }
    // Written when the run ended; empty for a run that never finished (killed).
    const std::map<std::string, SettingValue>& outcome() const { return outcome_; }
    bool finished() const { return !outcome_.empty(); }
    const std::vector<RecordingGap>& gaps() const { return gaps_; }
    std::uint64_t lostEvents() const;

    std::uint64_t eventCount() const { return eventCount_; }  // rows and staged events
    std::uint64_t lastIndex() const { return lastIndex_; }    // 0 = no event
    // Of eventCount(): events still staged (docs/recording.md), which a run
    // killed in a busy stretch leaves; 0 for a closed recording.
    std::uint64_t stagedEvents() const;

    // Lookups with a default for a missing key or another type.
    std::string settingText(const std::string& key, std::string fallback = {}) const;
    std::int64_t settingInt(const std::string& key, std::int64_t fallback = 0) const;
    std::string outcomeText(const std::string& key, std::string fallback = {}) const;
    std::int64_t outcomeInt(const std::string& key, std::int64_t fallback = 0) const;
    double outcomeDouble(const std::string& key, double fallback = 0.0) const;

    using Visitor = std::function<void(std::uint64_t index, const Event& event)>;
    // Events with index in [fromIndex, toIndex), in order. Indexes start at 1.
    bool forEachEvent(std::uint64_t fromIndex, std::uint64_t toIndex, const Visitor& visit,
                      std::string* error);
    // Events with fromNs <= timeNs <= toNs (monotonic, like Event::timeNs), in
    // index order (the order the run saw them, not re-sorted by time).
    bool forEachEventInTime(std::int64_t fromNs, std::int64_t toNs, const Visitor& visit,
                            std::string* error);
    bool readEvents(std::uint64_t fromIndex, std::uint64_t toIndex, std::vector<Event>* out,
                    std::string* error);

private:
    struct Impl;
    RecordingReader();
    bool load(const std::string& path, const RecordingReaderOptions& options, std::string* why);
    bool scan(std::uint64_t fromIndex, std::uint64_t toIndex,
              std::optional<std::pair<std::int64_t, std::int64_t>> times, const Visitor& visit,
              std::string* error);
    bool loadStagedBlocks(std::string* why);
    bool scanStaged(std::uint64_t fromIndex, std::uint64_t toIndex,
                    std::optional<std::pair<std::int64_t, std::int64_t>> times,
                    std::uint64_t previous, const Visitor& visit, std::string* error);

    std::unique_ptr<Impl> impl_;
    std::string path_;
    int schemaVersion_ = 0;
    std::int64_t originNs_ = 0;
    std::map<std::string, SettingValue> settings_;
    std::map<std::string, SettingValue> outcome_;
    std::vector<RecordingGap> gaps_;
    std::vector<Name> names_;  // names.id -> name (index 0 unused)
    std::uint64_t eventCount_ = 0;
    std::uint64_t lastIndex_ = 0;
    // staged_events rows (a killed run's last busy stretch), in index order.
    struct StagedBlock {
        std::uint64_t firstIndex = 0;
        std::uint64_t count = 0;
    };
    std::vector<StagedBlock> staged_;
};

}  // namespace qs::recording
