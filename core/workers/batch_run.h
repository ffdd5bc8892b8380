#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "client/error.h"
#include "workers/delivery_registry.h"
#include "workers/settlement.h"
#include "workers/worker.h"

// The processing of one received batch by one worker: admit it (hand-out
// events, the snapshot), do each message's work, settle it the way the
// configuration says, and finish the batch. How a settlement goes on the wire
// is the Settlement's (one strategy per consume mode: a downstream batch, or
// the one message of a v1 stream). Internal to the worker library: a Worker
// makes one per batch on its own thread and drops it at the end.
namespace qs::workers {

class Worker::BatchRun {
public:
    BatchRun(Worker& worker, const WorkerConfig& config, Settlement& settlement);
    BatchRun(const BatchRun&) = delete;
    BatchRun& operator=(const BatchRun&) = delete;

    Outcome run();

private:
    void admit();
    // The work of message i, with its events; Continue, or Stop / Crash when
    // the worker is told to (or rolls a crash) before the work is done.
    Outcome work(std::size_t i);
    // After message i's work: settle it now, later, or never, by the mode.
    Outcome settleAfterWork(std::size_t i);
    // Reject (NAck) or requeue one failed message, with its event.
    Outcome settleFailed(std::size_t i);
    // Mode "batch" at the end: the failed messages one by one, then one AckAll.
    Outcome settleBatchAtEnd();
    // The acks due in mode "each": one Ack, or one AckRange for several.
    Outcome flushAcks();
    // A settlement of these messages failed on the wire. Their visibility
    // timer had run out (v1): reported per message as VisibilityExpired, not
    // a success, and the worker carries on; anything else: the worker's
    // usual handling of a failed settlement.
    Outcome settlementFailed(const client::Error& error, std::span<const std::size_t> which,
                             const char* what);
    // Stop / crash mid-batch: the acks due go out first (mode "async": they
    // are dropped with the stream).
    Outcome leave(Outcome why);
    // Mode "async" after the last poll: the queued acks are never written.
    bool asyncAcksDropped() const;
    void markIdle();

    // The events a hand-out implies after its own: a recognised redelivery, an auto-ack.
    void stageAfterAssigned(const Event& assigned,
                            const std::optional<DeliveryRegistry::Previous>& previous,
                            bool autoAcked);
    Event& stageMessage(EventKind kind, std::size_t i, std::int64_t timeNs = 0);
    void setStatuses(std::span<const std::size_t> which, ItemStatus status);
    void setStatus(std::size_t i, ItemStatus status);
    void forgetSettled(std::span<const std::size_t> which);

    Worker& w_;
    const WorkerConfig& config_;
    Settlement& settlement_;
    const bool eventsOn_;
    std::vector<BatchItem> items_;
    std::vector<char> failed_;
    std::vector<std::size_t> pendingAcks_;  // modes "each", "async": acks not yet written
};

}  // namespace qs::workers
