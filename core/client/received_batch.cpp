#include "client/received_batch.h"

#include <algorithm>
#include <iterator>

#include "client/argument_checks.h"
#include "client/downstream_session.h"
#include "client/proto_convert.h"
#include "client/transaction.h"
#include "common/ids.h"

namespace qs::client {

std::string_view toString(SettleOp op) {
    switch (op) {
        case SettleOp::Ack:
            return "ack";
        case SettleOp::Reject:
            return "reject";
        case SettleOp::Requeue:
            return "requeue";
        case SettleOp::AckAll:
            return "ack-all";
        case SettleOp::RejectAll:
            return "reject-all";
        case SettleOp::RequeueAll:
            return "requeue-all";
        case SettleOp::Close:
            return "close";
    }
    return "unknown";
}

namespace detail {

kubemq::QueuesDownstreamRequestType wireType(SettleOp op) {
    switch (op) {
        case SettleOp::Ack:
            return kubemq::AckRange;
        case SettleOp::Reject:
            return kubemq::NAckRange;
        case SettleOp::Requeue:
            return kubemq::ReQueueRange;
        case SettleOp::AckAll:
            return kubemq::AckAll;
        case SettleOp::RejectAll:
            return kubemq::NAckAll;
        case SettleOp::RequeueAll:
            return kubemq::ReQueueAll;
        case SettleOp::Close:
            return kubemq::CloseByClient;
    }
    return kubemq::PollRequestTypeUnknown;
}

SettleOp settleOpOf(kubemq::QueuesDownstreamRequestType type) {
    for (SettleOp op : {SettleOp::Reject, SettleOp::Requeue, SettleOp::AckAll, SettleOp::RejectAll,
                        SettleOp::RequeueAll, SettleOp::Close}) {
        if (wireType(op) == type) {
            return op;
        }
    }
    return SettleOp::Ack;
}

Transaction::Transaction(std::shared_ptr<DownstreamSession> session, std::string transactionId,
                         std::string clientId, bool autoAck, bool validate)
    : session_(std::move(session)),
      transactionId_(std::move(transactionId)),
      clientId_(std::move(clientId)),
      autoAck_(autoAck),
      validate_(validate) {}

ReceivedBatch Transaction::makeBatch(std::shared_ptr<DownstreamSession> session,
                                     kubemq::QueuesDownstreamResponse& response,
                                     const std::string& channel, const std::string& clientId,
                                     bool autoAck, bool validate) {
    auto txn = std::make_shared<Transaction>(std::move(session), response.transactionid(), clientId,
                                             autoAck, validate);
    ReceivedBatch batch;
    batch.txn_ = txn;
    batch.transactionId_ = response.transactionid();
    batch.channel_ = channel;
    batch.autoAck_ = autoAck;
    const auto count = static_cast<std::size_t>(response.messages_size());
    batch.messages_.reserve(count);
    if (!autoAck) {
        txn->unsettled_.reserve(count);
    }
    for (auto& message : *response.mutable_messages()) {
        QueueMessage converted = fromProto(std::move(message));
        if (!autoAck) {
            txn->unsettled_.push_back(converted.attributes.sequence);
        }
        batch.messages_.push_back(ReceivedMessage(txn, std::move(converted)));
    }
    std::sort(txn->unsettled_.begin(), txn->unsettled_.end());
    txn->unsettled_.erase(std::unique(txn->unsettled_.begin(), txn->unsettled_.end()),
                          txn->unsettled_.end());
    // An empty or auto-acked Get leaves no open transaction on the server.
    txn->closed_ = autoAck || count == 0;
    return batch;
}

bool Transaction::isUnsettledLocked(std::uint64_t sequence) const {
    return std::binary_search(unsettled_.begin(), unsettled_.end(), sequence);
}

void Transaction::markSettledLocked(std::uint64_t sequence) {
    auto it = std::lower_bound(unsettled_.begin(), unsettled_.end(), sequence);
    if (it != unsettled_.end() && *it == sequence) {
        unsettled_.erase(it);
    }
}

Result<void> Transaction::send(SettleOp op, std::vector<std::uint64_t> sequences,
                               const std::string& requeueChannel) {
    kubemq::QueuesDownstreamRequest request;
    request.set_requestid(newUuid());
    request.set_clientid(clientId_);
    request.set_requesttypedata(wireType(op));
    request.set_reftransactionid(transactionId_);
    for (std::uint64_t sequence : sequences) {
        request.add_sequencerange(static_cast<std::int64_t>(sequence));
    }
    if (op == SettleOp::Requeue || op == SettleOp::RequeueAll) {
        request.set_requeuechannel(requeueChannel);
    }
    if (!session_->settle(request, op, std::move(sequences))) {
        return Error{ErrorCategory::StreamLost,
                     std::string(toString(op)) +
                         " not sent: the downstream stream is gone; the message(s) were not "
                         "settled and will be redelivered",
                     0};
    }
    return {};
}

Result<void> Transaction::settleOne(SettleOp op, std::uint64_t sequence,
                                    const std::string& requeueChannel) {
    std::lock_guard lock(mutex_);
    if (autoAck_) {
        return invalidArgument("message " + std::to_string(sequence) +
                               " was auto-acknowledged on receive; nothing to settle");
    }
    if (op == SettleOp::Requeue && validate_) {
        if (auto error = checkChannelName(requeueChannel, "requeue channel")) {
            return *error;
        }
    }
    if (closed_ || !isUnsettledLocked(sequence)) {
        return invalidArgument("message " + std::to_string(sequence) + " of transaction " +
                               transactionId_ + " is already settled");
    }
    Result<void> sent = send(op, {sequence}, requeueChannel);
    if (sent.ok()) {
        markSettledLocked(sequence);
        closed_ = unsettled_.empty();
    }
    return sent;
}

Result<void> Transaction::settleRange(SettleOp op, std::span<const std::uint64_t> sequences,
                                      const std::string& requeueChannel) {
    if (sequences.size() == 1) {
        return settleOne(op, sequences.front(), requeueChannel);
    }
    std::lock_guard lock(mutex_);
    if (sequences.empty()) {
        return invalidArgument("no messages to " + std::string(toString(op)) +
                               ": the list is empty");
    }
    if (autoAck_) {
        return invalidArgument("transaction " + transactionId_ +
                               " was auto-acknowledged on receive; nothing to settle");
    }
    if (op == SettleOp::Requeue && validate_) {
        if (auto error = checkChannelName(requeueChannel, "requeue channel")) {
            return *error;
        }
    }
    std::vector<std::uint64_t> sorted(sequences.begin(), sequences.end());
    std::sort(sorted.begin(), sorted.end());
    if (auto dup = std::adjacent_find(sorted.begin(), sorted.end()); dup != sorted.end()) {
        return invalidArgument("message " + std::to_string(*dup) + " is listed twice");
    }
    for (std::uint64_t sequence : sorted) {
        if (closed_ || !isUnsettledLocked(sequence)) {
            return invalidArgument("message " + std::to_string(sequence) + " of transaction " +
                                   transactionId_ + " is already settled");
        }
    }
    Result<void> sent =
        send(op, std::vector<std::uint64_t>(sequences.begin(), sequences.end()), requeueChannel);
    if (sent.ok()) {
        // Both sorted: one merge pass instead of an erase per message.
        std::vector<std::uint64_t> left;
        left.reserve(unsettled_.size() - sorted.size());
        std::set_difference(unsettled_.begin(), unsettled_.end(), sorted.begin(), sorted.end(),
                            std::back_inserter(left));
        unsettled_.swap(left);
        closed_ = unsettled_.empty();
    }
    return sent;
}

Result<void> Transaction::settleAll(SettleOp op, const std::string& requeueChannel) {
    std::lock_guard lock(mutex_);
    if (op == SettleOp::RequeueAll && validate_) {
        if (auto error = checkChannelName(requeueChannel, "requeue channel")) {
            return *error;
        }
    }
    if (autoAck_ || closed_ || unsettled_.empty()) {
        return {};  // nothing left to settle: the server holds no open transaction
    }
    Result<void> sent = send(op, {}, requeueChannel);
    if (sent.ok()) {
        unsettled_.clear();
        closed_ = true;
    }
    return sent;
}

bool Transaction::isSettled(std::uint64_t sequence) const {
    std::lock_guard lock(mutex_);
    return autoAck_ || !isUnsettledLocked(sequence);
}

std::size_t Transaction::unsettledCount() const {
    std::lock_guard lock(mutex_);
    if (session_->isEnded()) {
        return 0;
    }
    return unsettled_.size();
}

}  // namespace detail

ReceivedMessage::ReceivedMessage(std::shared_ptr<detail::Transaction> txn, QueueMessage message)
    : txn_(std::move(txn)), message_(std::move(message)) {}

Result<void> ReceivedMessage::ack() {
    return txn_->settleOne(SettleOp::Ack, sequence(), {});
}

Result<void> ReceivedMessage::reject() {
    return txn_->settleOne(SettleOp::Reject, sequence(), {});
}

Result<void> ReceivedMessage::requeue(const std::string& channel) {
    return txn_->settleOne(SettleOp::Requeue, sequence(), channel);
}

bool ReceivedMessage::isSettled() const {
    return txn_->isSettled(sequence());
}

Result<void> ReceivedBatch::ackRange(std::span<const std::uint64_t> sequences) {
    if (!txn_) {
        return invalidArgument("this batch holds no messages: nothing to ack");
    }
    return txn_->settleRange(SettleOp::Ack, sequences, {});
}

Result<void> ReceivedBatch::rejectRange(std::span<const std::uint64_t> sequences) {
    if (!txn_) {
        return invalidArgument("this batch holds no messages: nothing to reject");
    }
    return txn_->settleRange(SettleOp::Reject, sequences, {});
}

Result<void> ReceivedBatch::requeueRange(std::span<const std::uint64_t> sequences,
                                         const std::string& channel) {
    if (!txn_) {
        return invalidArgument("this batch holds no messages: nothing to requeue");
    }
    return txn_->settleRange(SettleOp::Requeue, sequences, channel);
}

Result<void> ReceivedBatch::ackAll() {
    return txn_ ? txn_->settleAll(SettleOp::AckAll, {}) : Result<void>{};
}

Result<void> ReceivedBatch::rejectAll() {
    return txn_ ? txn_->settleAll(SettleOp::RejectAll, {}) : Result<void>{};
}

Result<void> ReceivedBatch::requeueAll(const std::string& channel) {
    return txn_ ? txn_->settleAll(SettleOp::RequeueAll, channel) : Result<void>{};
}

Result<void> ReceivedBatch::close() {
    return txn_ ? txn_->settleAll(SettleOp::Close, {}) : Result<void>{};
}

std::size_t ReceivedBatch::unsettledCount() const {
    return txn_ ? txn_->unsettledCount() : 0;
}

}  // namespace qs::client
