#pragma once

// Private: one bidirectional KubeMQ stream (QueuesDownstream, QueuesUpstream or
// the v1 StreamQueueMessage) whose requests carry a RequestID and whose answers
// name it (RefRequestID on the v2 streams, RequestID echoed on the v1 stream).
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "client/client_core.h"
#include "kubemq.grpc.pb.h"

namespace qs::client::detail {

// Why a stream ended: the first end() call, or the server / transport.
enum class StreamEndReason { None, Cancelled, Abandoned, Poisoned, Server };

// How a stream stood when a request got no answer.
struct StreamState {
    bool dead = false;  // the reader saw the stream end; `status` is its final status
    StreamEndReason reason = StreamEndReason::None;
    bool endRequested = false;  // end() was called, even after the stream had died
    bool answered = false;      // some request on this stream was answered
    grpc::Status status;
};

// Owns the gRPC call, its reader thread and the requests waiting for answers.
// Writes are serialised; a reader thread matches each response to the waiting
// request whose RequestID it names and hands every other frame to the
// `unmatched` handler (on the reader thread, no lock held). When the stream
// ends, every waiting request wakes with the stream's state.
//
// Threading: every method may be called from any thread. The destructor ends
// the stream and joins the reader; the owner of whatever `unmatched` touches
// must do that itself (end + join) before those things go.
template <typename Request, typename Response>
class RequestStream {
public:
    using Open = std::unique_ptr<grpc::ClientReaderWriter<Request, Response>> (
        kubemq::kubemq::Stub::*)(grpc::ClientContext*);
    using UnmatchedHandler = std::function<void(const Response&)>;
    using Clock = std::chrono::steady_clock;

    struct Reply {
        std::optional<Response> response;  // the answer; otherwise see `state`
        StreamState state;                 // filled only when there is no answer
    };

    // Opens the stream (with the client's auth token, no deadline) and starts
    // the reader.
    RequestStream(ClientCore& core, Open open, UnmatchedHandler unmatched = {});
    ~RequestStream();
    RequestStream(const RequestStream&) = delete;
    RequestStream& operator=(const RequestStream&) = delete;

    // Registers the request's RequestID for its answer, then writes it. False
    // when it was not written (the stream is closed); awaitAnswer then reports
    // the stream's end.
    bool sendRequest(const Request& request);
    // Waits until the answer to `requestId` arrives, the stream ends, `stop`
    // (checked on every wake-up) says so, or `deadline` passes; forgets the
    // request either way.
    Reply awaitAnswer(const std::string& requestId, Clock::time_point deadline,
                      const std::function<bool()>& stop = {});
    // Writes a request that expects no answer. False when the stream is closed.
    bool write(const Request& request);

    // Half-closes the stream and waits up to `grace` for the server to end it,
    // so requests already written are read rather than discarded by a cancel.
    // Skipped while a request waits for its answer (the server may hold the
    // stream for it), once ended, and on the reader thread itself.
    void closeGracefully(std::chrono::milliseconds grace);
    // Cancels the call (TryCancel); the first reason given is kept.
    void end(StreamEndReason reason);
    bool isEnded() const;  // dead, or end() was called and the reader is finishing
    void join();           // on the reader thread itself: detaches instead

private:
    void readLoop();
    void dispatch(Response& response);
    StreamState stateLocked() const;

    UnmatchedHandler unmatched_;
    grpc::ClientContext context_;
    std::shared_ptr<kubemq::kubemq::Stub> stub_;
    std::unique_ptr<grpc::ClientReaderWriter<Request, Response>> stream_;
    std::thread reader_;

    std::mutex writeMutex_;
    bool writesClosed_ = false;

    mutable std::mutex mutex_;
    std::condition_variable cv_;
    bool dead_ = false;
    bool answered_ = false;
    bool endRequested_ = false;
    StreamEndReason reason_ = StreamEndReason::None;
    grpc::Status status_;
    std::map<std::string, std::optional<Response>> pending_;
};

using DownstreamStream =
    RequestStream<kubemq::QueuesDownstreamRequest, kubemq::QueuesDownstreamResponse>;
using UpstreamStream = RequestStream<kubemq::QueuesUpstreamRequest, kubemq::QueuesUpstreamResponse>;
using MessageStream =
    RequestStream<kubemq::StreamQueueMessagesRequest, kubemq::StreamQueueMessagesResponse>;

extern template class RequestStream<kubemq::QueuesDownstreamRequest,
                                    kubemq::QueuesDownstreamResponse>;
extern template class RequestStream<kubemq::QueuesUpstreamRequest, kubemq::QueuesUpstreamResponse>;
extern template class RequestStream<kubemq::StreamQueueMessagesRequest,
                                    kubemq::StreamQueueMessagesResponse>;

}  // namespace qs::client::detail
