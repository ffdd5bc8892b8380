#include "client/downstream_session.h"

#include "client/proto_convert.h"
#include "client/transaction.h"
#include "common/ids.h"

namespace qs::client::detail {

namespace {
// Successful settlements are never answered, so their records can only be
// forgotten by age; errors normally arrive within milliseconds.
constexpr std::size_t kSettleRecordLimit = 8192;

// Why a Get got no answer because its stream ended.
Error lostError(const StreamState& state, bool freshStream) {
    switch (state.reason) {
        case StreamEndReason::Cancelled:
            return Error{ErrorCategory::Cancelled,
                         "receive cancelled; messages held unsettled on the stream will be "
                         "redelivered",
                         static_cast<int>(grpc::StatusCode::CANCELLED)};
        case StreamEndReason::Abandoned:
            return Error{ErrorCategory::Cancelled,
                         "receive interrupted: the connection was abandoned; unsettled messages "
                         "will be redelivered",
                         static_cast<int>(grpc::StatusCode::CANCELLED)};
        default:
            break;
    }
    const grpc::Status& status = state.status;
    const grpc::StatusCode code = status.error_code();
    if (code == grpc::StatusCode::UNAUTHENTICATED || code == grpc::StatusCode::PERMISSION_DENIED ||
        code == grpc::StatusCode::UNIMPLEMENTED || code == grpc::StatusCode::INVALID_ARGUMENT ||
        code == grpc::StatusCode::RESOURCE_EXHAUSTED) {
        return fromStatus(status, false, "downstream stream");
    }
    if (freshStream && !state.answered && code == grpc::StatusCode::UNAVAILABLE) {
        return fromStatus(status, false, "downstream stream");
    }
    std::string text = "downstream stream lost (";
    text += status.ok() ? std::string("ended by the server")
                        : std::to_string(static_cast<int>(code)) + ": " + status.error_message();
    text += "); unsettled messages will be redelivered";
    return Error{ErrorCategory::StreamLost, std::move(text), static_cast<int>(code)};
}

}  // namespace

DownstreamSession::DownstreamSession(ClientCore& core, std::shared_ptr<SettlementErrorSink> errors)
    : errors_(std::move(errors)),
      stream_(
          core, &kubemq::kubemq::Stub::QueuesDownstream,
          [this](const kubemq::QueuesDownstreamResponse& response) { handleUnmatched(response); }) {
}

DownstreamSession::~DownstreamSession() {
    stream_.closeGracefully(kCloseGrace);
    stream_.end(StreamEndReason::Cancelled);
    stream_.join();  // before the members its reader uses go
}

void DownstreamSession::closeGracefully(std::chrono::milliseconds grace) {
    stream_.closeGracefully(grace);
}

void DownstreamSession::end(StreamEndReason reason) {
    stream_.end(reason);
}

bool DownstreamSession::isEnded() const {
    return stream_.isEnded();
}

void DownstreamSession::join() {
    stream_.join();
}

Result<kubemq::QueuesDownstreamResponse> DownstreamSession::get(
    const kubemq::QueuesDownstreamRequest& request, std::chrono::steady_clock::time_point deadline,
    bool freshStream) {
    // A failed write shows up as the stream's end below. Only a stream that
    // could not even take the Get counts as "never connected".
    const bool written = stream_.sendRequest(request);
    auto reply = stream_.awaitAnswer(request.requestid(), deadline);
    if (reply.response) {
        return std::move(*reply.response);
    }
    if (reply.state.dead) {
        return lostError(reply.state, freshStream && !written);
    }
    // No answer in time: the stream can no longer be trusted to be in step, so
    // it is ended (its reserved messages go back to the queue).
    stream_.end(StreamEndReason::Poisoned);
    return Error{ErrorCategory::Timeout,
                 "no answer to the downstream Get within its wait time plus grace; the stream "
                 "was closed and its unsettled messages will be redelivered",
                 static_cast<int>(grpc::StatusCode::DEADLINE_EXCEEDED)};
}

bool DownstreamSession::settle(const kubemq::QueuesDownstreamRequest& request, SettleOp op,
                               std::vector<std::uint64_t> sequences) {
    if (stream_.isEnded()) {
        return false;
    }
    rememberSettle(request, op, std::move(sequences));
    return stream_.write(request);
}

void DownstreamSession::rememberSettle(const kubemq::QueuesDownstreamRequest& request, SettleOp op,
                                       std::vector<std::uint64_t> sequences) {
    std::lock_guard lock(settlesMutex_);
    SettleRecord record{request.reftransactionid(), op, std::move(sequences)};
    auto [it, inserted] = settles_.try_emplace(request.requestid(), std::move(record));
    if (inserted) {
        settleOrder_.push_back(&it->first);  // node keys never move
    } else {  // request ids are fresh UUIDs: only a reused id lands here
        it->second = std::move(record);
    }
    while (settleOrder_.size() > kSettleRecordLimit) {
        settles_.erase(settles_.find(*settleOrder_.front()));
        settleOrder_.pop_front();
    }
}

void DownstreamSession::handleUnmatched(const kubemq::QueuesDownstreamResponse& response) {
    if (response.requesttypedata() == kubemq::Get) {
        closeStaleGet(response);
        return;
    }
    if (!response.iserror()) {
        return;  // e.g. an ActiveOffsets answer; the client does not ask for them
    }
    errors_->deliver(settlementError(response));
}

void DownstreamSession::closeStaleGet(const kubemq::QueuesDownstreamResponse& response) {
    // A Get nobody waits for any more (its receive timed out or was
    // cancelled): hand its messages straight back instead of leaving them
    // reserved until the stream ends.
    if (response.iserror() || response.messages_size() == 0) {
        return;
    }
    kubemq::QueuesDownstreamRequest close;
    close.set_requestid(newUuid());
    close.set_requesttypedata(kubemq::CloseByClient);
    close.set_reftransactionid(response.transactionid());
    stream_.write(close);
}

SettlementError DownstreamSession::settlementError(
    const kubemq::QueuesDownstreamResponse& response) {
    SettlementError error;
    error.requestId = response.refrequestid();
    error.transactionId = response.transactionid();
    error.message = response.error();
    std::lock_guard lock(settlesMutex_);
    auto record = settles_.find(response.refrequestid());
    if (record == settles_.end()) {
        error.operation = settleOpOf(response.requesttypedata());
        return error;
    }
    error.operation = record->second.op;
    error.sequences = record->second.sequences;
    if (error.transactionId.empty()) {
        error.transactionId = record->second.transactionId;
    }
    return error;
}

}  // namespace qs::client::detail
