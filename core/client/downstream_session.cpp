#include "client/downstream_session.h"

#include "client/proto_convert.h"
#include "common/ids.h"

namespace qs::client::detail {

namespace {
// Successful settlements are never answered, so their records can only be
// forgotten by age; errors normally arrive within milliseconds.
constexpr std::size_t kSettleRecordLimit = 8192;
}  // namespace

DownstreamSession::DownstreamSession(ClientCore& core, std::shared_ptr<SettlementErrorSink> errors)
    : errors_(std::move(errors)), stub_(core.stub()) {
    core.prepare(context_, std::chrono::milliseconds(0), true);
    stream_ = stub_->QueuesDownstream(&context_);
    reader_ = std::thread([this] { readLoop(); });
}

DownstreamSession::~DownstreamSession() {
    closeGracefully(kCloseGrace);
    end(EndReason::Cancelled);
    join();
}

void DownstreamSession::closeGracefully(std::chrono::milliseconds grace) {
    if (reader_.get_id() == std::this_thread::get_id()) {
        return;
    }
    {
        std::lock_guard lock(mutex_);
        if (dead_ || reason_ != EndReason::None) {
            return;
        }
        for (const auto& [id, answer] : pendingGets_) {
            if (!answer) {
                return;  // a poll is open: the server would hold the stream for it
            }
        }
    }
    {
        std::lock_guard lock(writeMutex_);
        if (writesClosed_) {
            return;
        }
        writesClosed_ = true;
        stream_->WritesDone();
    }
    std::unique_lock lock(mutex_);
    cv_.wait_for(lock, grace, [this] { return dead_; });
}

void DownstreamSession::join() {
    if (!reader_.joinable()) {
        return;
    }
    if (reader_.get_id() == std::this_thread::get_id()) {
        // Last owner let go from inside a settlement error handler: the reader
        // is on its way out (the stream is cancelled) and cannot join itself.
        reader_.detach();
        return;
    }
    reader_.join();
}

bool DownstreamSession::isDead() const {
    std::lock_guard lock(mutex_);
    return dead_;
}

bool DownstreamSession::isEnded() const {
    std::lock_guard lock(mutex_);
    return dead_ || reason_ != EndReason::None;
}

bool DownstreamSession::hasSucceeded() const {
    std::lock_guard lock(mutex_);
    return succeeded_;
}

void DownstreamSession::end(EndReason reason) {
    {
        std::lock_guard lock(mutex_);
        if (dead_) {
            return;
        }
        if (reason_ == EndReason::None) {
            reason_ = reason;
        }
    }
    context_.TryCancel();
}

bool DownstreamSession::write(const kubemq::QueuesDownstreamRequest& request) {
    std::lock_guard lock(writeMutex_);
    if (writesClosed_) {
        return false;
    }
    return stream_->Write(request);
}

void DownstreamSession::readLoop() {
    kubemq::QueuesDownstreamResponse response;
    while (stream_->Read(&response)) {
        handle(response);
        response.Clear();
    }
    grpc::Status status;
    {
        std::lock_guard lock(writeMutex_);
        writesClosed_ = true;
        status = stream_->Finish();
    }
    std::lock_guard lock(mutex_);
    status_ = status;
    if (reason_ == EndReason::None) {
        reason_ = EndReason::Server;
    }
    dead_ = true;
    cv_.notify_all();
}

void DownstreamSession::handle(kubemq::QueuesDownstreamResponse& response) {
    std::unique_lock lock(mutex_);
    auto pending = pendingGets_.find(response.refrequestid());
    if (pending != pendingGets_.end() && !pending->second) {
        pending->second.emplace().Swap(&response);
        cv_.notify_all();
        return;
    }
    if (response.requesttypedata() == kubemq::Get) {
        // A Get nobody waits for any more (its receive timed out or was
        // cancelled): hand its messages straight back instead of leaving them
        // reserved until the stream ends.
        lock.unlock();
        if (!response.iserror() && response.messages_size() > 0) {
            kubemq::QueuesDownstreamRequest close;
            close.set_requestid(newUuid());
            close.set_requesttypedata(kubemq::CloseByClient);
            close.set_reftransactionid(response.transactionid());
            write(close);
        }
        return;
    }
    if (!response.iserror()) {
        return;  // e.g. an ActiveOffsets answer; the client does not ask for them
    }
    SettlementError error;
    error.requestId = response.refrequestid();
    error.transactionId = response.transactionid();
    error.message = response.error();
    auto record = settles_.find(response.refrequestid());
    if (record != settles_.end()) {
        error.operation = record->second.op;
        error.sequences = record->second.sequences;
        if (error.transactionId.empty()) {
            error.transactionId = record->second.transactionId;
        }
    } else {
        switch (response.requesttypedata()) {
            case kubemq::AckAll:
                error.operation = SettleOp::AckAll;
                break;
            case kubemq::NAckAll:
                error.operation = SettleOp::RejectAll;
                break;
            case kubemq::NAckRange:
                error.operation = SettleOp::Reject;
                break;
            case kubemq::ReQueueAll:
                error.operation = SettleOp::RequeueAll;
                break;
            case kubemq::ReQueueRange:
                error.operation = SettleOp::Requeue;
                break;
            case kubemq::CloseByClient:
                error.operation = SettleOp::Close;
                break;
            default:
                error.operation = SettleOp::Ack;
                break;
        }
    }
    lock.unlock();
    errors_->deliver(error);
}

Error DownstreamSession::lostError(bool freshStream) const {
    // Caller holds mutex_.
    switch (reason_) {
        case EndReason::Cancelled:
            return Error{ErrorCategory::Cancelled,
                         "receive cancelled; messages held unsettled on the stream will be "
                         "redelivered",
                         static_cast<int>(grpc::StatusCode::CANCELLED)};
        case EndReason::Abandoned:
            return Error{ErrorCategory::Cancelled,
                         "receive interrupted: the connection was abandoned; unsettled messages "
                         "will be redelivered",
                         static_cast<int>(grpc::StatusCode::CANCELLED)};
        default:
            break;
    }
    const grpc::StatusCode code = status_.error_code();
    if (code == grpc::StatusCode::UNAUTHENTICATED || code == grpc::StatusCode::PERMISSION_DENIED ||
        code == grpc::StatusCode::UNIMPLEMENTED || code == grpc::StatusCode::INVALID_ARGUMENT ||
        code == grpc::StatusCode::RESOURCE_EXHAUSTED) {
        return fromStatus(status_, false, "downstream stream");
    }
    if (freshStream && !succeeded_ && code == grpc::StatusCode::UNAVAILABLE) {
        return fromStatus(status_, false, "downstream stream");
    }
    std::string text = "downstream stream lost (";
    text += status_.ok() ? std::string("ended by the server")
                         : std::to_string(static_cast<int>(code)) + ": " + status_.error_message();
    text += "); unsettled messages will be redelivered";
    return Error{ErrorCategory::StreamLost, std::move(text), static_cast<int>(code)};
}

Result<kubemq::QueuesDownstreamResponse> DownstreamSession::get(
    const kubemq::QueuesDownstreamRequest& request, std::chrono::steady_clock::time_point deadline,
    bool freshStream) {
    const std::string id = request.requestid();
    {
        std::lock_guard lock(mutex_);
        if (dead_) {
            return lostError(freshStream);
        }
        pendingGets_[id];
    }
    // A failed write shows up as the stream's end below. Only a stream that
    // could not even take the Get counts as "never connected".
    const bool written = write(request);
    freshStream = freshStream && !written;
    std::unique_lock lock(mutex_);
    const bool answered = cv_.wait_until(lock, deadline, [&] {
        auto it = pendingGets_.find(id);
        return dead_ || (it != pendingGets_.end() && it->second.has_value());
    });
    auto it = pendingGets_.find(id);
    std::optional<kubemq::QueuesDownstreamResponse> response = std::move(it->second);
    pendingGets_.erase(it);
    if (response) {
        succeeded_ = true;
        return std::move(*response);
    }
    if (dead_) {
        return lostError(freshStream);
    }
    (void)answered;
    // No answer in time: the stream can no longer be trusted to be in step, so
    // it is ended (its reserved messages go back to the queue).
    lock.unlock();
    end(EndReason::Poisoned);
    return Error{ErrorCategory::Timeout,
                 "no answer to the downstream Get within its wait time plus grace; the stream "
                 "was closed and its unsettled messages will be redelivered",
                 static_cast<int>(grpc::StatusCode::DEADLINE_EXCEEDED)};
}

bool DownstreamSession::settle(const kubemq::QueuesDownstreamRequest& request, SettleOp op,
                               std::vector<std::uint64_t> sequences) {
    {
        std::lock_guard lock(mutex_);
        if (dead_ || reason_ != EndReason::None) {
            return false;
        }
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
    return write(request);
}

}  // namespace qs::client::detail
