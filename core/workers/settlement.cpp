#include "workers/settlement.h"

#include "client/received_batch.h"
#include "client/stream_message.h"

namespace qs::workers {

std::size_t DownstreamSettlement::size() const {
    return batch_.size();
}

const client::QueueMessage& DownstreamSettlement::message(std::size_t i) const {
    return batch_.messages()[i].message();
}

const std::string& DownstreamSettlement::transactionId() const {
    return batch_.transactionId();
}

client::Result<void> DownstreamSettlement::ack(std::span<const std::size_t> which) {
    if (which.size() == 1) {
        return batch_.messages()[which.front()].ack();
    }
    sequences_.clear();
    for (std::size_t i : which) {
        sequences_.push_back(batch_.messages()[i].sequence());
    }
    return batch_.ackRange(sequences_);
}

client::Result<void> DownstreamSettlement::reject(std::size_t i) {
    return batch_.messages()[i].reject();
}

client::Result<void> DownstreamSettlement::requeue(std::size_t i, const std::string& channel) {
    return batch_.messages()[i].requeue(channel);
}

client::Result<void> DownstreamSettlement::ackAll() {
    return batch_.ackAll();
}

const client::QueueMessage& StreamMessageSettlement::message(std::size_t) const {
    return message_.message();
}

const std::string& StreamMessageSettlement::transactionId() const {
    return message_.receiveRequestId();
}

client::Result<void> StreamMessageSettlement::ack(std::span<const std::size_t>) {
    return message_.ack();
}

client::Result<void> StreamMessageSettlement::reject(std::size_t) {
    return message_.reject();
}

client::Result<void> StreamMessageSettlement::requeue(std::size_t, const std::string& channel) {
    return message_.resend(channel);
}

client::Result<void> StreamMessageSettlement::ackAll() {
    return message_.isSettled() ? client::Result<void>() : message_.ack();
}

}  // namespace qs::workers
