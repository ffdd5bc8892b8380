#pragma once

// Private: shared state of one ReceivedBatch (one server transaction).
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "client/received_batch.h"
#include "kubemq.pb.h"

namespace qs::client::detail {

class DownstreamSession;

// A settlement's request type on the wire, and back: an error frame names only
// the type (AckRange and types that settle nothing read as Ack).
kubemq::QueuesDownstreamRequestType wireType(SettleOp op);
SettleOp settleOpOf(kubemq::QueuesDownstreamRequestType type);

class Transaction {
public:
    Transaction(std::shared_ptr<DownstreamSession> session, std::string transactionId,
                std::string clientId, bool autoAck, bool validate);

    // Builds the batch for a successful Get response.
    // Takes the messages out of `response` (moved, not copied).
    static ReceivedBatch makeBatch(std::shared_ptr<DownstreamSession> session,
                                   kubemq::QueuesDownstreamResponse& response,
                                   const std::string& channel, const std::string& clientId,
                                   bool autoAck, bool validate);

    Result<void> settleOne(SettleOp op, std::uint64_t sequence, const std::string& requeueChannel);
    // One Range request (Ack / Reject / Requeue) for all of `sequences`, which
    // must be distinct and unsettled: otherwise nothing is sent.
    Result<void> settleRange(SettleOp op, std::span<const std::uint64_t> sequences,
                             const std::string& requeueChannel);
    Result<void> settleAll(SettleOp op, const std::string& requeueChannel);
    bool isSettled(std::uint64_t sequence) const;
    std::size_t unsettledCount() const;

private:
    Result<void> send(SettleOp op, std::vector<std::uint64_t> sequences,
                      const std::string& requeueChannel);
    bool isUnsettledLocked(std::uint64_t sequence) const;
    void markSettledLocked(std::uint64_t sequence);

    std::shared_ptr<DownstreamSession> session_;
    const std::string transactionId_;
    const std::string clientId_;
    const bool autoAck_;
    const bool validate_;

    mutable std::mutex mutex_;
    // Sorted; a batch holds at most 1024 messages, so a flat vector beats a
    // node per message.
    std::vector<std::uint64_t> unsettled_;
    bool closed_ = false;
};

}  // namespace qs::client::detail
