#pragma once

#include <condition_variable>
#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "events/event_log_writer.h"
#include "events/event_stream.h"
#include "events/ledger.h"
#include "recording/recording_writer.h"

// The reader side of a headless run: a thread that drains the EventStream in
// batches, feeds the Ledger (which it owns) and appends to the event logs and
// the run's recording.
namespace qs::runner {

struct RecorderStatus {
    LedgerSummary summary;
    std::uint64_t movedElsewhere = 0;  // waiting in a channel other than the home channel
    std::uint64_t eventsRecorded = 0;
    std::int64_t lastEventNs = 0;  // monotonic time of the newest event recorded
    std::string writeError;
};

// Threading: start()/finish() on the owning thread; status() from any thread.
// The ledger is touched only by the recorder thread until finish() returns,
// then only by the owner.
class EventRecorder {
public:
    EventRecorder(EventStream& stream, LedgerOptions ledgerOptions, std::string homeChannel,
                  bool trackMoved);
    ~EventRecorder();

    // Opens the logs; false with *error when a file cannot be created.
    bool openLogs(const std::string& csvPath, const std::string& jsonlPath, std::int64_t originNs,
                  std::string* error);
    // Hands every drained batch (and the ledger's derived events) to `writer`
    // too. Not owned; it must outlive finish(). Call before start().
    void setRecording(recording::RecordingWriter* writer) { recording_ = writer; }
    void start();
    // Drains what is left, stops the thread, flushes the logs.
    void finish();

    RecorderStatus status() const;
    // Keeps the MessageIDs dead-lettered into `channels` (a redrive step's
    // sources) up to date for deadLetteredIn(). Call before start().
    void watchDeadLetters(std::vector<std::string> channels) { watched_ = std::move(channels); }
    // The run's own messages dead-lettered into a watched `channel`, as of the
    // last batch recorded. From any thread.
    std::vector<std::string> deadLetteredIn(const std::string& channel) const;
    Ledger& ledger() { return ledger_; }  // after finish()
    std::uint64_t eventsWritten() const;

private:
    void loop();
    void drainOnce(std::vector<Event>& batch);

    EventStream& stream_;
    Ledger ledger_;
    const std::string homeChannel_;
    const bool trackMoved_;
    std::ofstream csvFile_;
    std::ofstream jsonlFile_;
    std::unique_ptr<EventLogWriter> csv_;
    std::unique_ptr<EventLogWriter> jsonl_;
    recording::RecordingWriter* recording_ = nullptr;

    std::thread thread_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    bool stop_ = false;
    bool finished_ = false;
    RecorderStatus status_;
    std::vector<std::string> watched_;
    std::map<std::string, std::vector<std::string>> deadLettered_;  // by watched channel
};

}  // namespace qs::runner
