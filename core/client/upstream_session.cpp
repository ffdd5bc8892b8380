#include "client/upstream_session.h"

#include "client/argument_checks.h"
#include "client/proto_convert.h"
#include "common/ids.h"

namespace qs::client::detail {

struct UpstreamSession::Stream {
    grpc::ClientContext context;
    std::shared_ptr<kubemq::kubemq::Stub> stub;
    std::unique_ptr<
        grpc::ClientReaderWriter<kubemq::QueuesUpstreamRequest, kubemq::QueuesUpstreamResponse>>
        rw;
    std::thread reader;

    std::mutex writeMutex;
    bool writesClosed = false;

    std::mutex mutex;
    std::condition_variable cv;
    bool dead = false;
    bool cancelledByUs = false;
    bool answered = false;
    grpc::Status status;
    std::map<std::string, std::optional<kubemq::QueuesUpstreamResponse>> pending;

    void readLoop() {
        kubemq::QueuesUpstreamResponse response;
        while (rw->Read(&response)) {
            std::lock_guard lock(mutex);
            auto it = pending.find(response.refrequestid());
            if (it != pending.end() && !it->second) {
                it->second = response;
                answered = true;
                cv.notify_all();
            }
            response.Clear();
        }
        grpc::Status finished;
        {
            std::lock_guard lock(writeMutex);
            writesClosed = true;
            finished = rw->Finish();
        }
        std::lock_guard lock(mutex);
        status = finished;
        dead = true;
        cv.notify_all();
    }

    void cancel() {
        {
            std::lock_guard lock(mutex);
            cancelledByUs = true;
        }
        context.TryCancel();
    }

    ~Stream() {
        cancel();
        if (reader.joinable()) {
            reader.join();
        }
    }
};

UpstreamSession::UpstreamSession(std::shared_ptr<ClientCore> core) : core_(std::move(core)) {}

UpstreamSession::~UpstreamSession() {
    close();
}

void UpstreamSession::cancel() {
    std::shared_ptr<Stream> stream;
    {
        std::lock_guard lock(mutex_);
        stream = stream_;
    }
    if (stream) {
        stream->cancel();
    }
}

void UpstreamSession::close() {
    std::shared_ptr<Stream> stream;
    {
        std::lock_guard lock(mutex_);
        closed_ = true;
        stream = std::move(stream_);
    }
    if (stream) {
        stream->cancel();
    }
}

std::shared_ptr<UpstreamSession::Stream> UpstreamSession::current(Error* error) {
    std::shared_ptr<Stream> old;
    std::lock_guard lock(mutex_);
    if (closed_ || core_->shutdown.load()) {
        *error = core_->cancelledError("upstream send");
        return nullptr;
    }
    if (stream_) {
        std::lock_guard streamLock(stream_->mutex);
        if (!stream_->dead && !stream_->cancelledByUs) {
            return stream_;
        }
    }
    old = std::move(stream_);  // joined when the last sender lets go of it
    auto stream = std::make_shared<Stream>();
    core_->prepare(stream->context, std::chrono::milliseconds(0), true);
    stream->stub = core_->stub();
    stream->rw = stream->stub->QueuesUpstream(&stream->context);
    Stream* raw = stream.get();
    stream->reader = std::thread([raw] { raw->readLoop(); });
    stream_ = stream;
    return stream;
}

Result<std::vector<SendResult>> UpstreamSession::send(std::vector<QueueMessage> messages,
                                                      std::chrono::milliseconds timeout) {
    const std::uint64_t epoch = core_->cancelEpoch.load();
    kubemq::QueuesUpstreamRequest request;
    request.set_requestid(newUuid());
    for (QueueMessage& message : messages) {
        if (message.clientId.empty()) {
            message.clientId = core_->options.clientId;
        }
        if (core_->options.validateArguments) {
            if (auto error = checkMessage(message)) {
                return *error;
            }
        }
        toProto(message, request.add_messages());
    }
    if (core_->options.validateArguments && messages.empty()) {
        return Error{ErrorCategory::InvalidArgument, "no messages to send", 0};
    }
    Error error;
    std::shared_ptr<Stream> stream = current(&error);
    if (!stream) {
        return error;
    }
    const std::string& id = request.requestid();
    {
        std::lock_guard lock(stream->mutex);
        stream->pending[id];
    }
    {
        std::lock_guard lock(stream->writeMutex);
        if (!stream->writesClosed) {
            stream->rw->Write(request);  // failure shows as the stream's end
        }
    }
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::unique_lock lock(stream->mutex);
    stream->cv.wait_until(lock, deadline, [&] {
        return stream->dead || stream->pending[id].has_value() || core_->isCancelled(epoch);
    });
    std::optional<kubemq::QueuesUpstreamResponse> response = std::move(stream->pending[id]);
    stream->pending.erase(id);
    if (!response) {
        if (core_->isCancelled(epoch) || stream->cancelledByUs) {
            return core_->cancelledError("upstream send");
        }
        if (stream->dead) {
            Error failed = fromStatus(stream->status, false, "upstream stream");
            if (failed.category == ErrorCategory::Unavailable && stream->answered) {
                failed.message +=
                    " (stream lost; whether the server stored the messages is unknown)";
            }
            return failed;
        }
        return Error{ErrorCategory::Timeout,
                     "no upstream response within " + std::to_string(timeout.count()) +
                         " ms; whether the server stored the messages is unknown",
                     static_cast<int>(grpc::StatusCode::DEADLINE_EXCEEDED)};
    }
    if (response->iserror()) {
        return Error{ErrorCategory::ServerError, response->error(), 0};
    }
    std::vector<SendResult> results;
    results.reserve(static_cast<std::size_t>(response->results_size()));
    for (const auto& result : response->results()) {
        results.push_back(fromProto(result));
    }
    return results;
}

}  // namespace qs::client::detail
