#include "controllers/recording_loader.h"

#include <QMetaObject>
#include <QTimerEvent>
#include <exception>
#include <future>
#include <utility>

#include "recording/recording_reader.h"
#include "runner/run_recording.h"

namespace qs::ui {

namespace {

// Thrown from inside the replay when the load is cancelled: the reader and
// its statement are RAII, so unwinding through the core leaves nothing open.
struct LoadCancelled {};

constexpr int kProgressIntervalMs = 100;

}  // namespace

std::optional<LoadedRecording> loadRecording(const QString& path, QString* error,
                                             LoadProgress* progress) {
    LoadedRecording loaded;
    loaded.path = path;
    runner::ReplayVisitor visitor;
    // The console's Run applies the events again: a second ledger here would
    // only double the read (docs/benchmarks.md, bench_recording_open).
    visitor.eventsOnly = true;
    visitor.opened = [&loaded, progress](const recording::RecordingReader& reader,
                                         const LedgerOptions& options) {
        loaded.ledgerOptions = options;
        if (progress != nullptr) {
            progress->total.store(reader.lastIndex(), std::memory_order_relaxed);
            loaded.events.reserve(reader.eventCount());
        }
    };
    visitor.applied = [&loaded, progress](const Event& e) {
        loaded.events.push_back(e);
        if (progress != nullptr) {
            if (progress->cancel.load(std::memory_order_relaxed)) {
                throw LoadCancelled{};
            }
            progress->read.store(loaded.events.size(), std::memory_order_relaxed);
        }
    };
    // SQLite's integrity check reads the whole file once (a quarter of the
    // read of a million events): on a connection and a thread of its own
    // beside the read, which waits for its verdict before anything is shown.
    // Its refusal comes first, as when it ran before the read.
    visitor.checkIntegrity = false;
    std::string damage;
    std::future<bool> intact = std::async(std::launch::async, [file = path.toStdString(), &damage] {
        try {
            return recording::RecordingReader::open(file, &damage) != nullptr;
        } catch (const std::exception& e) {
            damage = file + ": cannot be read: " + e.what();
            return false;
        }
    });
    runner::ReplayedRun replayed;
    std::string why;
    bool read = false;
    try {
        read = runner::replayRecording(path.toStdString(), &replayed, &why, visitor);
    } catch (const LoadCancelled&) {
        intact.wait();
        if (error != nullptr) {
            error->clear();
        }
        return std::nullopt;
    } catch (const std::exception& e) {
        why = path.toStdString() + ": cannot be read: " + e.what();
    }
    if (!intact.get()) {
        read = false;
        why = damage;
    }
    if (!read) {
        if (error != nullptr) {
            *error = QString::fromStdString(why);
        }
        return std::nullopt;
    }
    loaded.name = QString::fromStdString(replayed.scenario.name);
    loaded.channel = QString::fromStdString(replayed.scenario.channel);
    loaded.finished = replayed.finished;
    return loaded;
}

RecordingLoader::RecordingLoader(QObject* parent) : QObject(parent) {}

RecordingLoader::~RecordingLoader() {
    if (job_) {
        job_->progress.cancel = true;
    }
    join();
}

QString RecordingLoader::path() const {
    return job_ ? job_->path : QString();
}

void RecordingLoader::start(const QString& path) {
    if (job_) {
        job_->progress.cancel = true;  // reported as cancelled; then `path` is read
        queued_ = path;
        return;
    }
    launch(path);
}

void RecordingLoader::cancel() {
    queued_.clear();
    if (job_) {
        job_->progress.cancel = true;
    }
}

void RecordingLoader::join() {
    if (worker_.joinable()) {
        worker_.join();
    }
}

void RecordingLoader::launch(const QString& path) {
    join();  // the last read's thread, already done
    auto job = std::make_shared<Job>();
    job->path = path;
    job_ = job;
    lastReported_ = ~std::uint64_t{0};
    progressTimer_ = startTimer(kProgressIntervalMs);
    worker_ = std::thread([this, job] {
        QString error;
        std::optional<LoadedRecording> loaded = loadRecording(job->path, &error, &job->progress);
        std::shared_ptr<const LoadedRecording> recording;
        if (loaded) {
            recording = std::make_shared<const LoadedRecording>(std::move(*loaded));
        }
        QMetaObject::invokeMethod(
            this, [this, job, recording, error] { jobEnded(job, recording, error); },
            Qt::QueuedConnection);
    });
}

void RecordingLoader::timerEvent(QTimerEvent* event) {
    if (event->timerId() != progressTimer_ || !job_) {
        return;
    }
    const std::uint64_t read = job_->progress.read.load(std::memory_order_relaxed);
    if (read != lastReported_ && !job_->progress.cancel) {
        lastReported_ = read;
        Q_EMIT progressed(job_->path, read, job_->progress.total.load(std::memory_order_relaxed));
    }
}

void RecordingLoader::jobEnded(const std::shared_ptr<Job>& job,
                               const std::shared_ptr<const LoadedRecording>& recording,
                               const QString& error) {
    if (job != job_) {
        return;
    }
    killTimer(progressTimer_);
    progressTimer_ = 0;
    job_.reset();
    join();
    if (job->progress.cancel) {
        if (!queued_.isEmpty()) {
            launch(std::exchange(queued_, QString()));
        }
        return;
    }
    if (recording) {
        Q_EMIT loaded(recording);
    } else {
        Q_EMIT refused(job->path, error);
    }
}

}  // namespace qs::ui
