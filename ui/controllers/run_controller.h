#pragma once

#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <optional>

#include "events/event_stream.h"
#include "events/ledger.h"
#include "workers/task_producer.h"
#include "workers/worker_config.h"
#include "workers/worker_state.h"

namespace qs {
class BrokerEventSink;
}
namespace qs::workers {
class WorkerPool;
}

// The live run the console drives: one EventStream every source writes into,
// the worker pool consuming the current channel, and the task producer.
// Rebuilt when the connection changes.
//
// Threading: UI thread. The pool and producer run their own threads and are
// thread-safe; their control calls return without waiting for a poll, except
// shrinking the pool, which joins the removed workers after cancelling their
// polls (bounded by cancellation, not by the wait timeout).
namespace qs::ui {

class ConnectionController;

class RunController : public QObject {
    Q_OBJECT
public:
    explicit RunController(ConnectionController* connection, QObject* parent = nullptr);
    ~RunController() override;

    EventStream& stream() { return stream_; }
    ConnectionController* connection() const { return connection_; }

    QString channel() const { return channel_; }
    // Changing the channel stops the current pool (its workers consume the old one).
    void setChannel(const QString& channel);

    // --- pool -------------------------------------------------------------------
    bool setWorkerCount(int count, QString* error = nullptr);
    int workerCount() const;
    bool setConfig(const workers::WorkerConfig& config, QString* error = nullptr);
    workers::WorkerConfig config() const { return config_; }
    bool pause(const QString& id);
    bool resume(const QString& id);
    bool crash(const QString& id);
    bool restart(const QString& id);
    bool setSlowdown(const QString& id, double factor);
    void pauseAll();
    void resumeAll();
    // Cheap copy of every worker's state (safe at frame rate); nullopt = no pool.
    std::optional<workers::PoolSnapshot> snapshot() const;
    workers::WorkerPool* pool() const { return pool_.get(); }

    // --- producer ---------------------------------------------------------------
    // Sends `spec` numbered from nextTaskNumber() (its firstNumber is replaced):
    // a task's body says the number the run calls it by.
    bool startProducer(workers::TaskSpec spec, QString* error = nullptr);
    void stopProducer();
    void setProducerRate(double perSecond);
    std::optional<workers::ProducerProgress> producerProgress() const;
    const workers::TaskSpec* producerSpec() const;
    // The run's number for the next task sent: one past every task the run has
    // seen (`runTaskCount`, the console's Run) and every task this run's
    // producers sent (the Run may not have been handed their events yet).
    std::int64_t nextTaskNumber() const;
    void setRunTaskCount(std::function<std::size_t()> runTaskCount);

    // What the run's producers and pools did since the run began (the last
    // reset or connection change), the ones already stopped included: a new
    // send or a channel change replaces them mid-run. For the run's recording.
    struct RunCounters {
        workers::ProducerProgress producer;  // total, sent, failed summed; the first error
        workers::WorkerCounters pool;        // summed over the pools
    };
    RunCounters runCounters() const;
    // The seed of the current pool's work and failure draws (0 = no pool).
    std::uint64_t poolSeed() const { return pool_ ? poolSeed_ : 0; }
    // The seed the next pool built uses (once; 0 = a random one): a lesson's
    // step plays the same draws every time, as `queuescope lesson` does.
    void setNextPoolSeed(std::uint64_t seed) { nextPoolSeed_ = seed; }

    // Stops producer and pool and tells the views to start over with a run
    // whose ledger uses `options` (a scenario's; see runner::ledgerOptionsFor).
    void resetRun(const LedgerOptions& options = {});
    const LedgerOptions& ledgerOptions() const { return ledgerOptions_; }
    void stopAll();

Q_SIGNALS:
    // The run ends (resetRun(), or a new connection): producer and pool have
    // stopped; the stream still holds the run's last events and runCounters()
    // its numbers. The run's recording takes them now; then they go.
    void runEnding();
    void runReset();       // views clear themselves
    void poolChanged();    // workers added / removed, pool rebuilt
    void configChanged();  // config() changed
    void errorMessage(const QString& text);

private:
    bool ensurePool(QString* error);
    void dropPool();
    void endRun();

    ConnectionController* connection_;
    EventStream stream_{1 << 18};
    std::unique_ptr<BrokerEventSink> sink_;
    std::unique_ptr<workers::WorkerPool> pool_;
    std::unique_ptr<workers::TaskProducer> producer_;
    workers::WorkerConfig config_;
    RunCounters stopped_;  // of the producers and pools this run already stopped
    std::uint64_t poolSeed_ = 0;
    std::uint64_t nextPoolSeed_ = 0;
    QString channel_ = QStringLiteral("tasks");
    LedgerOptions ledgerOptions_;
    std::function<std::size_t()> runTaskCount_;
};

}  // namespace qs::ui
