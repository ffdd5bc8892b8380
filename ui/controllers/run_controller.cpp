#include "controllers/run_controller.h"

#include <algorithm>

#include "controllers/connection_controller.h"
#include "events/broker_event_sink.h"
#include "models/core_text.h"
#include "runner/run_recording.h"
#include "workers/worker_pool.h"

namespace qs::ui {

namespace {
void add(workers::ProducerProgress& sum, const workers::ProducerProgress& p) {
    sum.total += p.total;
    sum.sent += p.sent;
    sum.failed += p.failed;
    sum.finished = p.finished;
    sum.stopped = p.stopped;
    if (sum.firstError.empty()) {
        sum.firstError = p.firstError;
    }
}

void add(workers::WorkerCounters& sum, const workers::WorkerCounters& c) {
    sum.polls += c.polls;
    sum.emptyPolls += c.emptyPolls;
    sum.received += c.received;
    sum.redelivered += c.redelivered;
    sum.acked += c.acked;
    sum.rejected += c.rejected;
    sum.requeued += c.requeued;
    sum.abandoned += c.abandoned;
    sum.crashes += c.crashes;
    sum.errors += c.errors;
    sum.busyNs += c.busyNs;
}
}  // namespace

RunController::RunController(ConnectionController* connection, QObject* parent)
    : QObject(parent), connection_(connection), sink_(std::make_unique<BrokerEventSink>(stream_)) {
    config_.batchSize = 5;
    config_.waitMs = 2000;
    config_.work = workers::WorkProfile::fixed(300.0);
    connection_->setBrokerObserver(sink_.get());
    // Another server is another run: the old one's tasks must not stay in the
    // views as if they were on the new server (#17 item 7).
    connect(connection_, &ConnectionController::connectionChanged, this, [this] { resetRun(); });
}

RunController::~RunController() {
    stopAll();
    connection_->setBrokerObserver(nullptr);
}

void RunController::setChannel(const QString& channel) {
    if (channel == channel_ || channel.trimmed().isEmpty()) {
        return;
    }
    const int workers = workerCount();
    dropPool();
    channel_ = channel.trimmed();
    if (workers > 0) {
        setWorkerCount(workers);
    }
    Q_EMIT poolChanged();
}

bool RunController::ensurePool(QString* error) {
    if (pool_) {
        return true;
    }
    if (!connection_->client()) {
        if (error) {
            *error = QStringLiteral("not connected to a server");
        }
        return false;
    }
    workers::PoolOptions options;
    options.client = connection_->settings().toClientOptions();
    options.channel = channel_.toStdString();
    options.events = &stream_;
    // Resolved here, not in the pool, so the run's recording can name it.
    options.seed = runner::resolveSeed(nextPoolSeed_);
    nextPoolSeed_ = 0;
    poolSeed_ = options.seed;
    pool_ = std::make_unique<workers::WorkerPool>(options, config_);
    return true;
}

void RunController::dropPool() {
    if (pool_) {
        pool_->stop();
        add(stopped_.pool, pool_->snapshot().totals);
        pool_.reset();
    }
}

bool RunController::setWorkerCount(int count, QString* error) {
    if (!ensurePool(error)) {
        return false;
    }
    std::string why;
    if (!pool_->scaleTo(std::max(0, count), &why)) {
        if (error) {
            *error = fromView(why);
        }
        Q_EMIT errorMessage(QStringLiteral("Could not scale the pool: ") + fromView(why));
        return false;
    }
    Q_EMIT poolChanged();
    return true;
}

int RunController::workerCount() const {
    return pool_ ? pool_->size() : 0;
}

bool RunController::setConfig(const workers::WorkerConfig& config, QString* error) {
    if (const std::string problem = config.validate(); !problem.empty()) {
        if (error) {
            *error = fromView(problem);
        }
        return false;
    }
    if (config == config_) {
        return true;
    }
    config_ = config;
    if (pool_) {
        std::string why;
        if (!pool_->setConfig(config, &why)) {
            if (error) {
                *error = fromView(why);
            }
            return false;
        }
    }
    Q_EMIT configChanged();
    return true;
}

bool RunController::pause(const QString& id) {
    return pool_ && pool_->pause(id.toStdString());
}
bool RunController::resume(const QString& id) {
    return pool_ && pool_->resume(id.toStdString());
}
bool RunController::crash(const QString& id) {
    return pool_ && pool_->crash(id.toStdString());
}
bool RunController::restart(const QString& id) {
    return pool_ && pool_->restart(id.toStdString());
}

bool RunController::setSlowdown(const QString& id, double factor) {
    return pool_ && pool_->setSlowdown(id.toStdString(), factor);
}

void RunController::pauseAll() {
    if (pool_) {
        pool_->pauseAll();
    }
}

void RunController::resumeAll() {
    if (pool_) {
        pool_->resumeAll();
    }
}

std::optional<workers::PoolSnapshot> RunController::snapshot() const {
    if (!pool_) {
        return std::nullopt;
    }
    return pool_->snapshot();
}

bool RunController::startProducer(workers::TaskSpec spec, QString* error) {
    if (!connection_->client()) {
        if (error) {
            *error = QStringLiteral("not connected to a server");
        }
        return false;
    }
    stopProducer();
    spec.firstNumber = nextTaskNumber();
    workers::ProducerOptions options;
    options.client = connection_->settings().toClientOptions(QStringLiteral("-producer"));
    options.events = &stream_;
    auto producer = std::make_unique<workers::TaskProducer>(options, spec);
    std::string why;
    if (!producer->start(&why)) {
        if (error) {
            *error = fromView(why);
        }
        return false;
    }
    producer_ = std::move(producer);
    return true;
}

std::int64_t RunController::nextTaskNumber() const {
    const workers::ProducerProgress sent = runCounters().producer;
    const auto attempted = static_cast<std::int64_t>(sent.sent + sent.failed);
    const auto seen = runTaskCount_ ? static_cast<std::int64_t>(runTaskCount_()) : 0;
    return std::max(attempted, seen) + 1;
}

void RunController::setRunTaskCount(std::function<std::size_t()> runTaskCount) {
    runTaskCount_ = std::move(runTaskCount);
}

void RunController::stopProducer() {
    if (producer_) {
        producer_->stop();
        producer_->wait();
        add(stopped_.producer, producer_->progress());
        producer_.reset();
    }
}

void RunController::setProducerRate(double perSecond) {
    if (producer_) {
        producer_->setRate(perSecond);
    }
}

std::optional<workers::ProducerProgress> RunController::producerProgress() const {
    if (!producer_) {
        return std::nullopt;
    }
    return producer_->progress();
}

const workers::TaskSpec* RunController::producerSpec() const {
    return producer_ ? &producer_->spec() : nullptr;
}

void RunController::stopAll() {
    stopProducer();
    dropPool();
}

RunController::RunCounters RunController::runCounters() const {
    RunCounters sum = stopped_;
    if (producer_) {
        add(sum.producer, producer_->progress());
    }
    if (pool_) {
        add(sum.pool, pool_->snapshot().totals);
    }
    return sum;
}

void RunController::endRun() {
    Q_EMIT runEnding();
    stopped_ = {};
}

void RunController::resetRun(const LedgerOptions& options) {
    stopAll();
    endRun();
    ledgerOptions_ = options;
    std::vector<Event> discard;
    stream_.drain(discard);
    Q_EMIT runReset();
    Q_EMIT poolChanged();
}

}  // namespace qs::ui
