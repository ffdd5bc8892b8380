#include "broker/upstream_session.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>

#include "broker/kubemq_errors.h"

namespace qs::broker {

namespace {

using UpstreamStream =
    grpc::ServerReaderWriter<kubemq::QueuesUpstreamResponse, kubemq::QueuesUpstreamRequest>;

// Stores one request's messages and fills in its answer; returns what must be
// durable before the answer goes out.
CommitTicket storeRequest(ServiceContext& context, const kubemq::QueuesUpstreamRequest& request,
                          const std::string& clientId, kubemq::QueuesUpstreamResponse& response) {
    response.Clear();
    response.set_refrequestid(request.requestid());
    if (request.messages().empty()) {
        response.set_iserror(true);
        response.set_error("no messages to send");
        context.logError("QueuesUpstream", clientId, response.error());
        return {};
    }
    response.mutable_results()->Reserve(request.messages_size());
    const EventSink::Group group(context.events);        // one hand-over per request
    QueueEngine::DeferredCommit commit(context.engine);  // one write / fsync too
    for (const auto& message : request.messages()) {
        auto* result = response.add_results();
        *result = context.sender.send(message);
        if (result->iserror())
            context.logError("QueuesUpstream", message.clientid(), result->error());
    }
    return commit.take();
}

// The store failed to write or fsync: no message of this answer is promised.
void markUnstored(ServiceContext& context, kubemq::QueuesUpstreamResponse& response) {
    for (auto& result : *response.mutable_results()) {
        if (!result.iserror()) {
            result.set_iserror(true);
            result.set_error(errors::kSendFailed);
        }
    }
    context.logError("QueuesUpstream", {}, "the data store failed: answered as not sent");
}

// Makes the answer durable, then writes it; false when the stream is broken.
bool commitAndWrite(ServiceContext& context, UpstreamStream& stream,
                    kubemq::QueuesUpstreamResponse& response, const CommitTicket& ticket) {
    if (!context.engine.commit(ticket))
        markUnstored(context, response);
    return stream.Write(response);
}

// Answers a stream's requests on a thread of its own, in order, each once its
// records are durable: the stream's thread reads and stores request n + 1
// while request n waits for its fsync, and one fsync covers both.
class PipelinedAnswers {
public:
    PipelinedAnswers(ServiceContext& context, UpstreamStream& stream)
        : context_(context), stream_(stream), writer_([this] { run(); }) {}
    ~PipelinedAnswers() { finish(); }
    PipelinedAnswers(const PipelinedAnswers&) = delete;
    PipelinedAnswers& operator=(const PipelinedAnswers&) = delete;

    // Queues an answer; waits while kMaxWaiting are queued. False once a write
    // failed (the client is gone).
    bool push(kubemq::QueuesUpstreamResponse response, const CommitTicket& ticket) {
        std::unique_lock lock(mutex_);
        room_.wait(lock, [this] { return waiting_.size() < kMaxWaiting || broken_; });
        if (broken_)
            return false;
        waiting_.push_back(Waiting{std::move(response), ticket});
        queued_.notify_one();
        return true;
    }

    // Writes what is queued, then stops the writer. Idempotent.
    void finish() {
        {
            std::lock_guard lock(mutex_);
            finishing_ = true;
        }
        queued_.notify_one();
        if (writer_.joinable())
            writer_.join();
    }

private:
    // Bounds the answers a client that never reads can make the broker hold.
    static constexpr std::size_t kMaxWaiting = 64;

    struct Waiting {
        kubemq::QueuesUpstreamResponse response;
        CommitTicket ticket;
    };

    void run() {
        std::unique_lock lock(mutex_);
        while (true) {
            queued_.wait(lock, [this] { return !waiting_.empty() || finishing_; });
            if (waiting_.empty())
                return;
            Waiting next = std::move(waiting_.front());
            waiting_.pop_front();
            lock.unlock();
            room_.notify_one();
            const bool written = !broken_ && commitAndWrite(context_, stream_, next.response,
                                                            next.ticket);
            lock.lock();
            if (!written) {
                broken_ = true;
                room_.notify_all();
            }
        }
    }

    ServiceContext& context_;
    UpstreamStream& stream_;
    std::mutex mutex_;  // waiting_, finishing_, broken_
    std::condition_variable queued_;
    std::condition_variable room_;
    std::deque<Waiting> waiting_;
    bool finishing_ = false;
    bool broken_ = false;
    std::thread writer_;  // last: starts once the members above exist
};

}  // namespace

grpc::Status runUpstream(ServiceContext& context, grpc::ServerContext& server,
                         UpstreamStream& stream) {
    bool announced = false;
    std::string clientId;
    kubemq::QueuesUpstreamRequest request;
    kubemq::QueuesUpstreamResponse response;
    // Only a commit that waits for the disk gains from a second thread.
    std::optional<PipelinedAnswers> pipeline;
    if (context.engine.commitsWaitForDisk())
        pipeline.emplace(context, stream);
    while (stream.Read(&request)) {
        if (!announced) {
            if (request.messages_size() > 0)
                clientId = request.messages(0).clientid();
            context.clientEvent(true, clientId, server.peer(), "QueuesUpstream");
            announced = true;
        }
        const CommitTicket ticket = storeRequest(context, request, clientId, response);
        const bool open = pipeline ? pipeline->push(std::move(response), ticket)
                                   : commitAndWrite(context, stream, response, ticket);
        if (!open)
            break;
    }
    if (pipeline)
        pipeline->finish();  // every request read is answered before the RPC ends
    if (!announced)
        context.clientEvent(true, {}, server.peer(), "QueuesUpstream");
    context.clientEvent(false, clientId, server.peer(), "QueuesUpstream");
    return grpc::Status::OK;
}

}  // namespace qs::broker
