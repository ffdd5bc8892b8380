#include "controllers/run_recorder.h"

#include <QDir>
#include <QFileInfo>
#include <QPointer>
#include <QStandardPaths>
#include <algorithm>
#include <ctime>

#include "controllers/connection_controller.h"
#include "controllers/console_run.h"
#include "controllers/event_pump.h"
#include "controllers/run_controller.h"
#include "controllers/scenario_player.h"
#include "models/core_text.h"
#include "recording/recording_file_name.h"
#include "runner/run_recording.h"

namespace qs::ui {

namespace {

constexpr int kPollMs = 250;
// Frames of the stream's last events taken at a run's end (each up to the
// pump's maximum batch, 50,000 events).
constexpr int kMaxTailFrames = 64;
std::tm localNow() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    localtime_r(&now, &tm);
    return tm;
}

// Broker events held while no recording is open (see startRecording()).
constexpr std::size_t kMaxHeldEvents = 4096;

// The embedded broker's own events. Before any of the console's clients did
// something they are the ended run's aftermath: its pool's streams closing,
// the messages they held returned to the queue.
bool isBrokerEvent(const Event& e) {
    return e.source == EventSource::Broker;
}

}  // namespace

RunRecorder::RunRecorder(RunController* run, EventPump* pump, ScenarioPlayer* player,
                         const ConsoleRun* consoleRun, QObject* parent)
    : QObject(parent),
      run_(run),
      pump_(pump),
      consoleRun_(consoleRun),
      player_(player),
      folder_(defaultFolder()) {
    pump_->addSink([this](const std::vector<Event>& batch) { record(batch); },
                   QStringLiteral("recording"));
    connect(run_, &RunController::runEnding, this, &RunRecorder::endRun);
    connect(consoleRun_, &ConsoleRun::appended, this, &RunRecorder::noteStreamLoss);
    connect(consoleRun_, &ConsoleRun::wasReset, this, &RunRecorder::noteStreamLoss);
    poll_.setInterval(kPollMs);
    connect(&poll_, &QTimer::timeout, this, &RunRecorder::pollWriter);
}

RunRecorder::~RunRecorder() {
    // Normally endRun() came first (MainWindow's destructor); if not, the
    // recording still ends with an outcome, without the run's counters.
    if (recording_) {
        result_->started = true;
        result_->elapsedSeconds = static_cast<double>(clock_.nsecsElapsed()) / 1e9;
        recording_->finish(*result_);
    }
    for (const auto& closer : closers_) {
        closer->thread.join();
    }
}

QString RunRecorder::defaultFolder() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/runs");
}

void RunRecorder::setRetention(const recording::RetentionLimits& limits) {
    retention_ = limits;
    applyRetention();
}

void RunRecorder::record(const std::vector<Event>& batch) {
    if (batch.empty()) {
        return;
    }
    if (writer_ == nullptr && !startRecording(batch)) {
        return;
    }
    // The UI thread copies and append() encodes (tens of ns an event); the
    // writer's thread does the SQLite work (docs/recording.md).
    buffer_.assign(batch.begin(), batch.end());
    recorded_ += buffer_.size();
    writer_->append(buffer_);
}

bool RunRecorder::startRecording(const std::vector<Event>& batch) {
    if (!enabled_ || openFailed_) {
        return false;
    }
    // The broker alone does not make a run: its events are held until the
    // producer, a worker or the pool does something (then recorded first),
    // and go unrecorded if the run ends before.
    if (std::all_of(batch.begin(), batch.end(), isBrokerEvent) &&
        held_.size() + batch.size() <= kMaxHeldEvents) {
        held_.insert(held_.end(), batch.begin(), batch.end());
        return false;
    }
    if (!open(held_.empty() ? batch.front().timeNs : held_.front().timeNs)) {
        held_.clear();
        return false;
    }
    if (!held_.empty()) {
        recorded_ += held_.size();
        writer_->append(held_);
        held_.clear();
    }
    return true;
}

bool RunRecorder::open(std::int64_t originNs) {
    const runner::Scenario* scenario =
        player_ && player_->isRunning() ? &player_->scenario() : nullptr;
    const auto fail = [this](const QString& why) {
        openFailed_ = true;
        problem_ = QStringLiteral("Not recording this run: %1").arg(why);
        Q_EMIT statusChanged();
        return false;
    };
    if (!QDir().mkpath(folder_)) {
        return fail(QStringLiteral("cannot create the folder %1").arg(folder_));
    }
    const std::string path =
        recording::uniqueRecordingPath(folder_.toStdString(), localNow(),
                                       scenario != nullptr ? scenario->name : std::string())
            .string();
    result_ = std::make_unique<runner::RunResult>();
    recording_ = std::make_unique<runner::RunRecording>(*result_);
    std::string error;
    if (!recording_->open(path, originNs, &error, writerOptions_)) {
        recording_.reset();
        result_.reset();
        return fail(fromView(error));
    }
    writer_ = recording_->writer();

    runner::ConsoleRunSettings settings;
    if (scenario != nullptr) {
        settings.scenario = *scenario;
    }
    settings.channel = run_->channel().toStdString();
    settings.workerConfig = run_->config();
    // As `queuescope run --address`: "" for the embedded broker.
    settings.requestedAddress = run_->connection()->isEmbedded() ? std::string() : brokerAddress();
    // The options the console's own Run uses (MainWindow resets it with them).
    settings.ledgerOptions = run_->ledgerOptions();
    settings.seed = run_->poolSeed();
    runner::recordConsoleRunSettings(*writer_, settings);
    seed_ = settings.seed;
    recordBroker();

    currentPath_ = lastPath_ = fromView(path);
    problem_.clear();
    clock_.start();
    poll_.start();
    applyRetention();
    Q_EMIT statusChanged();
    return true;
}

void RunRecorder::recordBroker() {
    const ConnectionController* c = run_->connection();
    brokerVersion_ = c->serverInfo().version;
    runner::recordBroker(*writer_, brokerAddress(), c->isEmbedded(), brokerVersion_);
}

std::string RunRecorder::brokerAddress() const {
    const ConnectionController* c = run_->connection();
    return c->client() ? c->settings().address.toStdString() : std::string();
}

quint64 RunRecorder::streamLost() const {
    return consoleRun_->run().summaryNow().droppedEvents;
}

// The Run took a batch (its ledger counts the EventsDropped notices in it) or
// started empty: the status bar hears of a changed count.
void RunRecorder::noteStreamLoss() {
    if (const quint64 lost = streamLost(); lost != streamLostSaid_) {
        streamLostSaid_ = lost;
        Q_EMIT statusChanged();
    }
}

void RunRecorder::pollWriter() {
    if (writer_ == nullptr) {
        return;
    }
    // What became known after the recording opened: the server's version
    // (its first Ping), the seed of a pool built later.
    if (run_->connection()->serverInfo().version != brokerVersion_) {
        recordBroker();
    }
    if (const std::uint64_t seed = run_->poolSeed(); seed != 0 && seed != seed_) {
        seed_ = seed;
        writer_->setSetting("seed", std::to_string(seed));
    }
    const recording::RecordingWriterStats stats = writer_->stats();
    bool changed = false;
    if (stats.eventsLost != recordingLost_) {
        recordingLost_ = stats.eventsLost;
        changed = true;
    }
    if (!stats.error.empty() && problem_.isEmpty()) {
        problem_ = QStringLiteral("Recording stopped (%1): the run goes on unrecorded")
                       .arg(fromView(stats.error));
        changed = true;
    }
    if (changed) {
        Q_EMIT statusChanged();
    }
}

runner::RunResult RunRecorder::outcome() const {
    runner::RunResult r;
    r.started = true;
    r.address = brokerAddress();
    r.embeddedBroker = run_->connection()->isEmbedded();
    r.elapsedSeconds = static_cast<double>(clock_.nsecsElapsed()) / 1e9;
    const RunController::RunCounters counters = run_->runCounters();
    r.producer = counters.producer;
    r.pool.totals = counters.pool;
    r.eventsRecorded = recorded_;
    r.eventsDropped = streamLost();
    if (r.eventsDropped > 0) {
        r.warnings.push_back("the console's event stream lost " + std::to_string(r.eventsDropped) +
                             " events: the views and this recording are incomplete");
    }
    return r;
}

void RunRecorder::endRun() {
    if (ending_) {
        return;
    }
    ending_ = true;
    // The run's last events, to every view and into the recording. Bounded:
    // another client of the embedded broker could keep its stream busy.
    for (int frame = 0; frame < kMaxTailFrames && pump_->pumpOnce() > 0; ++frame) {
    }
    if (recording_) {
        pollWriter();
        *result_ = outcome();
        auto closer = std::make_unique<Closer>();
        closer->path = currentPath_;
        Closer* raw = closer.get();
        // The writer's last commit and the file's checkpoint run here, not on
        // the UI thread; the recording refers to the result, so both go along.
        closer->thread = std::thread(
            [this, raw, recording = std::move(recording_), result = std::move(result_)]() mutable {
                recording->finish(*result);
                recording.reset();
                const QString error = fromView(result->error);
                QMetaObject::invokeMethod(
                    this, [this, raw, error] { closed(raw, error); }, Qt::QueuedConnection);
            });
        closers_.push_back(std::move(closer));
    }
    writer_ = nullptr;
    held_.clear();
    poll_.stop();
    currentPath_.clear();
    problem_.clear();
    openFailed_ = false;
    recordingLost_ = 0;
    recorded_ = 0;
    seed_ = 0;
    ending_ = false;
    Q_EMIT statusChanged();
}

void RunRecorder::closed(const Closer* closer, const QString& error) {
    const auto it = std::find_if(closers_.begin(), closers_.end(),
                                 [closer](const auto& c) { return c.get() == closer; });
    if (it == closers_.end()) {
        return;
    }
    (*it)->thread.join();
    const QString path = (*it)->path;
    closers_.erase(it);
    if (!error.isEmpty() && problem_.isEmpty()) {
        problem_ = QStringLiteral("The recording %1 is incomplete: %2")
                       .arg(QFileInfo(path).fileName(), error);
        Q_EMIT statusChanged();
    }
    Q_EMIT recordingClosed(path, error);
}

bool RunRecorder::isClosing(const QString& path) const {
    return std::any_of(closers_.begin(), closers_.end(),
                       [&path](const auto& c) { return c->path == path; });
}

RunRecorder::ExportMark RunRecorder::markForExport() {
    if (writer_ != nullptr) {
        pump_->pumpOnce();
    }
    return {currentPath_, recorded_};
}

bool RunRecorder::committedThrough(const ExportMark& mark) const {
    if (writer_ != nullptr && mark.path == currentPath_) {
        const recording::RecordingWriterStats s = writer_->stats();
        return s.eventsCommitted + s.eventsLost >= mark.events || !s.error.empty();
    }
    return !isClosing(mark.path);  // that recording ended: closed, or being closed
}

void RunRecorder::applyRetention() {
    if (!QFileInfo(folder_).isDir()) {
        return;
    }
    std::vector<std::filesystem::path> keep;
    if (!currentPath_.isEmpty()) {
        keep.emplace_back(currentPath_.toStdString());
    }
    for (const auto& closer : closers_) {
        keep.emplace_back(closer->path.toStdString());
    }
    const recording::RetentionResult r =
        recording::RecordingRetention(retention_).apply(folder_.toStdString(), keep);
    retentionErrors_.clear();
    for (const std::string& e : r.errors) {
        retentionErrors_ << fromView(e);
    }
}

}  // namespace qs::ui
