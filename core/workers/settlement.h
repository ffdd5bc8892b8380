#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "client/queue_message.h"
#include "client/result.h"

namespace qs::client {
class ReceivedBatch;
class StreamMessage;
}  // namespace qs::client

// What a worker received in one poll, and how it settles it on the wire: one
// strategy per consume mode (workers::ConsumeMode). The worker's batch run
// decides what to settle and when; these say how. Internal to the worker
// library; used on the worker's own thread only, for one poll.
namespace qs::workers {

class Settlement {
public:
    virtual ~Settlement() = default;

    virtual std::size_t size() const = 0;
    virtual const client::QueueMessage& message(std::size_t i) const = 0;
    // The name of the hand-out in events: the downstream TransactionId, or the
    // v1 receive's RequestID (what the embedded broker names it by).
    virtual const std::string& transactionId() const = 0;
    // The visibility timeout the hand-out started, in ms; 0 = none.
    virtual std::int64_t visibilityMs() const = 0;

    // Settles the messages at these indexes (one or several, unsettled).
    virtual client::Result<void> ack(std::span<const std::size_t> which) = 0;
    virtual client::Result<void> reject(std::size_t i) = 0;
    virtual client::Result<void> requeue(std::size_t i, const std::string& channel) = 0;
    // Every message not settled yet.
    virtual client::Result<void> ackAll() = 0;
};

// A downstream batch: settlements are writes in its transaction (one Ack, one
// AckRange for several, AckAll); failures arrive later as SettlementErrors.
class DownstreamSettlement final : public Settlement {
public:
    explicit DownstreamSettlement(client::ReceivedBatch& batch) : batch_(batch) {}

    std::size_t size() const override;
    const client::QueueMessage& message(std::size_t i) const override;
    const std::string& transactionId() const override;
    std::int64_t visibilityMs() const override { return 0; }
    client::Result<void> ack(std::span<const std::size_t> which) override;
    client::Result<void> reject(std::size_t i) override;
    client::Result<void> requeue(std::size_t i, const std::string& channel) override;
    client::Result<void> ackAll() override;

private:
    client::ReceivedBatch& batch_;
    std::vector<std::uint64_t> sequences_;  // reused by ack()
};

// One message of the v1 stream: every settlement waits for the server, so a
// settlement after the visibility ran out fails at once (VisibilityExpired).
class StreamMessageSettlement final : public Settlement {
public:
    StreamMessageSettlement(client::StreamMessage& message, int visibilitySeconds)
        : message_(message), visibilityMs_(std::int64_t{visibilitySeconds} * 1000) {}

    std::size_t size() const override { return 1; }
    const client::QueueMessage& message(std::size_t i) const override;
    const std::string& transactionId() const override;
    std::int64_t visibilityMs() const override { return visibilityMs_; }
    client::Result<void> ack(std::span<const std::size_t> which) override;
    client::Result<void> reject(std::size_t i) override;
    client::Result<void> requeue(std::size_t i, const std::string& channel) override;
    client::Result<void> ackAll() override;

private:
    client::StreamMessage& message_;
    std::int64_t visibilityMs_;
};

}  // namespace qs::workers
