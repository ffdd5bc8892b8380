#include "runner/event_recorder.h"

#include <algorithm>
#include <chrono>

namespace qs::runner {

EventRecorder::EventRecorder(EventStream& stream, LedgerOptions ledgerOptions,
                             std::string homeChannel, bool trackMoved)
    : stream_(stream),
      ledger_(ledgerOptions),
      homeChannel_(std::move(homeChannel)),
      trackMoved_(trackMoved) {}

EventRecorder::~EventRecorder() {
    finish();
}

bool EventRecorder::openLogs(const std::string& csvPath, const std::string& jsonlPath,
                             std::int64_t originNs, std::string* error) {
    auto open = [&](const std::string& path, std::ofstream& file,
                    std::unique_ptr<EventLogWriter>& writer, EventLogFormat format) {
        if (path.empty()) {
            return true;
        }
        file.open(path, std::ios::out | std::ios::trunc | std::ios::binary);
        if (!file) {
            *error = path + ": cannot create the event log file";
            return false;
        }
        writer = std::make_unique<EventLogWriter>(file, format, originNs);
        return true;
    };
    return open(csvPath, csvFile_, csv_, EventLogFormat::Csv) &&
           open(jsonlPath, jsonlFile_, jsonl_, EventLogFormat::JsonLines);
}

void EventRecorder::start() {
    thread_ = std::thread([this] { loop(); });
}

void EventRecorder::drainOnce(std::vector<Event>& batch) {
    batch.clear();
    stream_.drain(batch);
    const std::size_t drained = batch.size();
    const std::int64_t lastEventNs = batch.empty() ? 0 : batch.back().timeNs;
    if (!batch.empty()) {
        ledger_.apply(batch);
        std::vector<Event> derived;
        ledger_.takeDerivedEvents(derived);
        for (auto* writer : {csv_.get(), jsonl_.get()}) {
            if (writer != nullptr) {
                writer->write(batch);
                if (!derived.empty()) {
                    writer->write(derived);
                }
            }
        }
        if (recording_ != nullptr) {
            // Moved, not copied: `batch` comes back empty (a recycled buffer).
            recording_->append(batch);
            recording_->append(derived);
        }
    }
    std::uint64_t moved = 0;
    LedgerSummary summary = ledger_.summary();
    std::map<std::string, std::vector<std::string>> deadLettered;
    for (const std::string& channel : watched_) {
        deadLettered[channel] = ledger_.deadLetteredIds(channel);
    }
    if (trackMoved_) {
        ledger_.forEachMessage([&](const MessageRecord& m) {
            if (m.state == MessageState::Waiting && m.channel != homeChannel_) {
                ++moved;
            }
        });
    }
    std::lock_guard lock(mutex_);
    if (!watched_.empty()) {
        deadLettered_ = std::move(deadLettered);
    }
    status_.summary = summary;
    status_.movedElsewhere = moved;
    status_.eventsRecorded += drained;
    if (drained > 0) {
        status_.lastEventNs = lastEventNs;
    }
    for (auto* writer : {csv_.get(), jsonl_.get()}) {
        if (writer != nullptr && !writer->ok() && status_.writeError.empty()) {
            status_.writeError = writer->error();
        }
    }
}

void EventRecorder::loop() {
    std::vector<Event> batch;
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            wake_.wait_for(lock, std::chrono::milliseconds(5), [this] { return stop_; });
            if (stop_) {
                break;
            }
        }
        drainOnce(batch);
    }
    drainOnce(batch);
}

void EventRecorder::finish() {
    {
        std::lock_guard lock(mutex_);
        if (finished_) {
            return;
        }
        finished_ = true;
        stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) {
        thread_.join();
    } else {
        std::vector<Event> batch;
        drainOnce(batch);
    }
    for (std::ofstream* file : {&csvFile_, &jsonlFile_}) {
        if (file->is_open()) {
            file->flush();
        }
    }
}

std::vector<std::string> EventRecorder::deadLetteredIn(const std::string& channel) const {
    std::lock_guard lock(mutex_);
    const auto it = deadLettered_.find(channel);
    return it == deadLettered_.end() ? std::vector<std::string>{} : it->second;
}

RecorderStatus EventRecorder::status() const {
    std::lock_guard lock(mutex_);
    return status_;
}

std::uint64_t EventRecorder::eventsWritten() const {
    std::uint64_t n = 0;
    for (auto* writer : {csv_.get(), jsonl_.get()}) {
        if (writer != nullptr) {
            n = std::max<std::uint64_t>(n, writer->written());
        }
    }
    return n;
}

}  // namespace qs::runner
