#pragma once

#include <QObject>
#include <QString>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <thread>

#include "client/client_options.h"
#include "runner/redrive.h"

namespace qs::client {
class QueuesClient;
}

// One dead-letter redrive (runner::redrive) run for the console on a thread
// of its own, with a client of its own (the redrive receives on clients it
// makes from its options; the console's shared client keeps pinging and
// listing meanwhile).
//
// Threading: created, started, cancelled and destroyed on the UI thread; the
// signals are emitted from the job's thread and reach UI-thread receivers
// queued. A cancel lands between batches (the batch in hand is settled
// first), so the destructor, which cancels and joins, may wait for one
// receive's wait (1 s) and its send and ack.
namespace qs::ui {

// What a redrive came to, for the outcome line.
struct RedriveResult {
    QString channel;
    runner::RedriveReport report;
    std::optional<std::uint64_t> left;  // in the source afterwards; none = could not ask
};

class RedriveJob : public QObject {
    Q_OBJECT
public:
    explicit RedriveJob(QObject* parent = nullptr);
    ~RedriveJob() override;

    // Starts moving `options.from` (options.progress and options.cancel are the
    // job's own). Returns the problem with the options, or with the client
    // options, and starts nothing then. One start per job.
    QString start(const client::ClientOptions& clientOptions, runner::RedriveOptions options);
    // Stops after the batch in hand (it is settled first: nothing is lost).
    void cancel();

    // "Redrive of orders.dlq: moved 5 (orders: 5), failed 0, no target 0,
    // duplicated 0, left 0", then "; " and each reason of what did not move, and
    // "; stopped: why" when something ended it early.
    static QString describe(const RedriveResult& result);

Q_SIGNALS:
    // After each batch: moved, failed (still in the source), and left (the
    // messages waiting at the start less the moved; -1 when unknown).
    void progressed(quint64 moved, quint64 failed, qint64 left);
    void finished(const qs::ui::RedriveResult& result);

private:
    void work(runner::RedriveOptions options);

    std::shared_ptr<client::QueuesClient> client_;
    std::atomic<bool> cancel_{false};
    std::thread thread_;
};

}  // namespace qs::ui

Q_DECLARE_METATYPE(qs::ui::RedriveResult)
