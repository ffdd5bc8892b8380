#include "client/request_stream.h"

namespace qs::client::detail {

namespace {
// The id an answer names: RefRequestID on the v2 streams; the v1 stream
// echoes the request's own RequestID (spec §2.11).
const std::string& answerIdOf(const kubemq::QueuesDownstreamResponse& response) {
    return response.refrequestid();
}
const std::string& answerIdOf(const kubemq::QueuesUpstreamResponse& response) {
    return response.refrequestid();
}
const std::string& answerIdOf(const kubemq::StreamQueueMessagesResponse& response) {
    return response.requestid();
}
}  // namespace

template <typename Request, typename Response>
RequestStream<Request, Response>::RequestStream(ClientCore& core, Open open,
                                                UnmatchedHandler unmatched)
    : unmatched_(std::move(unmatched)), stub_(core.stub()) {
    core.prepare(context_, std::chrono::milliseconds(0), true);
    stream_ = ((*stub_).*open)(&context_);
    reader_ = std::thread([this] { readLoop(); });
}

template <typename Request, typename Response>
RequestStream<Request, Response>::~RequestStream() {
    end(StreamEndReason::Cancelled);
    join();
}

template <typename Request, typename Response>
bool RequestStream<Request, Response>::sendRequest(const Request& request) {
    {
        std::lock_guard lock(mutex_);
        pending_[request.requestid()];
    }
    return write(request);
}

template <typename Request, typename Response>
typename RequestStream<Request, Response>::Reply RequestStream<Request, Response>::awaitAnswer(
    const std::string& requestId, Clock::time_point deadline, const std::function<bool()>& stop) {
    std::unique_lock lock(mutex_);
    cv_.wait_until(lock, deadline, [&] {
        auto it = pending_.find(requestId);
        return dead_ || (it != pending_.end() && it->second.has_value()) || (stop && stop());
    });
    Reply reply;
    if (auto it = pending_.find(requestId); it != pending_.end()) {
        reply.response = std::move(it->second);
        pending_.erase(it);
    }
    if (!reply.response) {
        reply.state = stateLocked();
    }
    return reply;
}

template <typename Request, typename Response>
bool RequestStream<Request, Response>::write(const Request& request) {
    std::lock_guard lock(writeMutex_);
    if (writesClosed_) {
        return false;
    }
    return stream_->Write(request);
}

template <typename Request, typename Response>
void RequestStream<Request, Response>::closeGracefully(std::chrono::milliseconds grace) {
    if (reader_.get_id() == std::this_thread::get_id()) {
        return;
    }
    {
        std::lock_guard lock(mutex_);
        if (dead_ || reason_ != StreamEndReason::None) {
            return;
        }
        for (const auto& [id, answer] : pending_) {
            if (!answer) {
                return;  // an answer is awaited: the server may hold the stream for it
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

template <typename Request, typename Response>
void RequestStream<Request, Response>::end(StreamEndReason reason) {
    {
        std::lock_guard lock(mutex_);
        endRequested_ = true;
        if (dead_) {
            return;
        }
        if (reason_ == StreamEndReason::None) {
            reason_ = reason;
        }
    }
    context_.TryCancel();
}

template <typename Request, typename Response>
bool RequestStream<Request, Response>::isEnded() const {
    std::lock_guard lock(mutex_);
    return dead_ || reason_ != StreamEndReason::None;
}

template <typename Request, typename Response>
void RequestStream<Request, Response>::join() {
    if (!reader_.joinable()) {
        return;
    }
    if (reader_.get_id() == std::this_thread::get_id()) {
        // The last owner let go from inside the unmatched handler: the reader
        // is on its way out (the stream is cancelled) and cannot join itself.
        reader_.detach();
        return;
    }
    reader_.join();
}

template <typename Request, typename Response>
void RequestStream<Request, Response>::readLoop() {
    Response response;
    while (stream_->Read(&response)) {
        dispatch(response);
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
    if (reason_ == StreamEndReason::None) {
        reason_ = StreamEndReason::Server;
    }
    dead_ = true;
    cv_.notify_all();
}

template <typename Request, typename Response>
void RequestStream<Request, Response>::dispatch(Response& response) {
    {
        std::lock_guard lock(mutex_);
        auto pending = pending_.find(answerIdOf(response));
        if (pending != pending_.end() && !pending->second) {
            pending->second.emplace().Swap(&response);
            answered_ = true;
            cv_.notify_all();
            return;
        }
    }
    if (unmatched_) {
        unmatched_(response);
    }
}

template <typename Request, typename Response>
StreamState RequestStream<Request, Response>::stateLocked() const {
    return StreamState{dead_, reason_, endRequested_, answered_, status_};
}

template class RequestStream<kubemq::QueuesDownstreamRequest, kubemq::QueuesDownstreamResponse>;
template class RequestStream<kubemq::QueuesUpstreamRequest, kubemq::QueuesUpstreamResponse>;
template class RequestStream<kubemq::StreamQueueMessagesRequest,
                             kubemq::StreamQueueMessagesResponse>;

}  // namespace qs::client::detail
