#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "broker/durable_log.h"
#include "broker/event_sink.h"
#include "broker/queue_channel.h"
#include "broker/recovered_state.h"
#include "broker/stored_message.h"

namespace qs::broker {

// Who acts on a message, for observer events only.
struct Actor {
    std::string_view clientId;
    std::string_view transaction;
};

// Which hand-out check runs first (spec §2.7: the APIs differ).
enum class CheckOrder { PolicyFirst, ExpiryFirst };

struct CollectOptions {
    CheckOrder order = CheckOrder::PolicyFirst;
    // Downstream Get counts expired / dead-lettered messages against MaxItems
    // (they were collected before being filtered); pull and peek do not.
    bool countDropped = false;
    // A peek: the messages are reported as seen (BrokerPeeked), not handed out;
    // the caller gives them back quietly.
    bool peek = false;
};

struct CollectResult {
    int counted = 0;  // towards the consumer's maximum
    int expired = 0;
};

struct StoreResult {
    std::uint64_t sequence = 0;  // 0 while delayed
    std::int64_t expirationAt = 0;
    std::int64_t delayedTo = 0;
};

// The queue store: channels by name, the delay timer, and every operation
// that moves a message between states. No gRPC types. In memory; with a
// durable log attached every change is also recorded there, and each public
// operation returns only once its records are as durable as the log's sync
// mode promises (or, inside a CommitScope, once the scope ends).
// Thread-safe; the delay thread runs between start() and stop().
class QueueEngine {
public:
    explicit QueueEngine(EventSink& events);
    ~QueueEngine();
    QueueEngine(const QueueEngine&) = delete;
    QueueEngine& operator=(const QueueEngine&) = delete;

    // Defers the durable commit of the operations this thread runs until the
    // outermost scope ends: one write (one fsync with SyncMode::Always) for a
    // whole batch. End it before the batch is answered.
    class CommitScope {
    public:
        explicit CommitScope(QueueEngine& engine);
        ~CommitScope();
        CommitScope(const CommitScope&) = delete;
        CommitScope& operator=(const CommitScope&) = delete;

    private:
        QueueEngine& engine_;
    };

    // Defers like CommitScope, but leaves the commit to the caller: take() ends
    // the scope and returns what must be committed, which commit(ticket) makes
    // durable later, on any thread. Create and take() on one thread (the scope
    // is per thread, like CommitScope's). Dropped without take(), it commits.
    class DeferredCommit {
    public:
        explicit DeferredCommit(QueueEngine& engine);
        ~DeferredCommit();
        DeferredCommit(const DeferredCommit&) = delete;
        DeferredCommit& operator=(const DeferredCommit&) = delete;
        CommitTicket take();

    private:
        QueueEngine& engine_;
        bool taken_ = false;
    };
    // Blocks until the ticket's records are as durable as the sync mode
    // promises (group commit). False when the store failed to write or fsync;
    // true without a store.
    bool commit(const CommitTicket& ticket);
    // True when a commit waits for an fsync (SyncMode::Always): a stream
    // gains by reading its next request while the previous one's runs.
    bool commitsWaitForDisk() const;

    // Makes the engine durable: loads `state` (what `log` recovered) and
    // records every later change in `log`, which must outlive the engine's
    // use of it (close it after stop()). Call once, before start() and before
    // any channel exists.
    void attachStore(DurableLog& log, RecoveredState state);

    void start();
    // Stops the delay thread and wakes every waiting consumer. Idempotent.
    void stop();
    bool stopping() const;

    std::shared_ptr<QueueChannel> channel(std::string_view name);  // get or create
    std::shared_ptr<QueueChannel> findChannel(std::string_view name) const;
    std::vector<std::shared_ptr<QueueChannel>> channels() const;  // sorted by name
    bool deleteChannel(std::string_view name);                    // false when it did not exist

    // Stores an already validated message. DelaySeconds > 0 holds it back
    // until release; ExpirationAt / DelayedTo are computed here (spec §2.3).
    StoreResult send(std::string_view channel, StoredMessage message, std::string_view clientId);

    // Reserves up to `max` deliverable messages of `channel` into `out`
    // (receive counts as the consumer sees them: stored + 1). Expired
    // messages are removed, over-limit ones dead-lettered.
    CollectResult collect(QueueChannel& channel, int max, const CollectOptions& options,
                          std::vector<StoredMessage>& out, const Actor& actor);

    // Settlement of reserved messages; false when `sequence` is not reserved.
    bool ack(QueueChannel& channel, std::uint64_t sequence, const Actor& actor);
    // Re-enqueues a copy at the tail with ReceiveCount + 1, or dead-letters.
    // `reason` (BrokerNacked's detail) says why when no client asked for it.
    bool nack(QueueChannel& channel, std::uint64_t sequence, const Actor& actor,
              std::string_view reason = {});
    // Back to its original position, unchanged (stream end / close / peek).
    bool giveBack(QueueChannel& channel, std::uint64_t sequence, const Actor& actor,
                  bool quiet = false);
    // Sends a copy to `destination` through the send path and removes the
    // original. Returns the send error text, or nullopt on success.
    std::optional<std::string> requeue(QueueChannel& channel, std::uint64_t sequence,
                                       std::string_view destination, const Actor& actor);
    // Removes a reserved message and stores `replacement` (already validated)
    // in `destination` (v1 SendModifiedMessage).
    std::optional<std::string> replace(QueueChannel& channel, std::uint64_t sequence,
                                       std::string_view destination, StoredMessage replacement,
                                       const Actor& actor);
    // Removes every ready message (AckAllQueueMessages), reporting each as
    // BrokerPurged (not an ack: nobody received it). Returns the count.
    std::size_t purgeReady(QueueChannel& channel, const Actor& actor);

    // Error text of the send path for a destination name ("" = acceptable).
    static std::string_view publishError(std::string_view channel);

    // Delayed messages currently held, for tests and statistics.
    std::size_t delayedCount() const;

private:
    struct Delayed {
        std::uint64_t id = 0;  // names it in the durable log
        std::string channel;
        StoredMessage message;
    };

    StoreResult sendFrom(std::string_view channel, StoredMessage message, std::string_view clientId,
                         const RecordOrigin& origin);
    void deadLetter(QueueChannel& source, StoredMessage message, const Actor& actor);
    std::uint64_t storeNow(QueueChannel& channel, StoredMessage message, std::string_view clientId,
                           EventKind kind, const RecordOrigin& origin = {});
    void emitAcked(const QueueChannel& channel, const StoredMessage& removed, const Actor& actor);
    // Held (shared) while a message is between its removal and the record of
    // its copy, so a compaction snapshot never misses it; no-op in memory.
    std::shared_lock<std::shared_mutex> guardMove();
    void writeSnapshot(const DurableLog::FrameSink& sink);
    void commit();
    void delayLoop();
    void releaseDue();

    EventSink& events_;
    DurableLog* log_ = nullptr;  // set once before start(); null = memory only
    std::shared_mutex moveGate_;
    mutable std::shared_mutex channelsMutex_;
    std::map<std::string, std::shared_ptr<QueueChannel>, std::less<>> channels_;

    mutable std::mutex delayMutex_;
    std::condition_variable delayCv_;
    std::multimap<std::int64_t, Delayed> delayed_;  // by due time, then arrival
    std::uint64_t nextDelayId_ = 1;                 // under delayMutex_
    std::thread delayThread_;
    bool started_ = false;
    std::atomic<bool> stopping_{false};
};

}  // namespace qs::broker
