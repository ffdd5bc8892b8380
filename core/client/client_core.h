#pragma once

// Private: the state one QueuesClient shares with its batches and upstreams.
#include <grpcpp/grpcpp.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "client/client_options.h"
#include "client/received_batch.h"
#include "client/result.h"
#include "kubemq.grpc.pb.h"

namespace qs::client::detail {

class DownstreamSession;
class MessageStreamSession;
class UpstreamSession;

// Where asynchronous settlement errors go. Shared with the stream readers.
class SettlementErrorSink {
public:
    void setHandler(std::function<void(const SettlementError&)> handler);
    void deliver(const SettlementError& error);
    std::vector<SettlementError> take();

private:
    std::mutex mutex_;
    std::function<void(const SettlementError&)> handler_;
    std::deque<SettlementError> queued_;
};

// Registers one unary call so cancel() can reach it. Construct before the call.
class CallGuard;

struct ClientCore : std::enable_shared_from_this<ClientCore> {
    ClientOptions options;
    std::shared_ptr<grpc::ChannelCredentials> credentials;
    std::shared_ptr<SettlementErrorSink> errors = std::make_shared<SettlementErrorSink>();

    std::atomic<bool> shutdown{false};
    std::atomic<std::uint64_t> cancelEpoch{0};
    std::atomic<int> channelManagement{0};  // QueuesClient::ChannelManagement

    // The connection; replaced by abandon().
    std::shared_ptr<kubemq::kubemq::Stub> stub();
    std::shared_ptr<grpc::Channel> channel();
    void replaceChannel();

    // Prepares a context: deadline (zero = none) and the auth token.
    void prepare(grpc::ClientContext& context, std::chrono::milliseconds timeout,
                 bool withAuth) const;

    // Waits until the connection is READY. Unavailable when it fails or does not
    // come up within options.connectTimeout; Cancelled on cancel()/shutdown.
    Result<void> ensureConnected(std::uint64_t epoch);

    // Unary calls in flight.
    void registerCall(grpc::ClientContext* context);
    void unregisterCall(grpc::ClientContext* context);

    // Cancels everything in flight; wakes sleepers.
    void cancelAll();
    // Lets the server take the downstream stream's last writes before it is
    // cancelled (DownstreamSession::closeGracefully).
    void closeDownstreamGracefully();
    // Abandons the downstream/upstream/v1 streams without settling anything.
    void abandonStreams();

    // Sleeps until `until`, or less if cancelled. False when cancelled.
    bool sleepUntil(std::chrono::steady_clock::time_point until, std::uint64_t epoch);

    Error cancelledError(std::string_view what) const;
    bool isCancelled(std::uint64_t epoch) const {
        return shutdown.load() || cancelEpoch.load() != epoch;
    }

    // Downstream: one stream at a time; receive() calls are serialized.
    std::mutex receiveMutex;
    std::mutex downstreamMutex;  // guards downstream and the backoff state
    std::shared_ptr<DownstreamSession> downstream;
    int consecutiveFailures = 0;
    std::chrono::steady_clock::time_point nextAttempt{};

    std::mutex upstreamMutex;
    std::vector<std::weak_ptr<UpstreamSession>> upstreams;

    // v1 streams (one per received message), so cancel / abandon reach them.
    void registerMessageStream(const std::shared_ptr<MessageStreamSession>& session);

    std::mutex messageStreamsMutex;
    std::vector<std::weak_ptr<MessageStreamSession>> messageStreams;

private:
    std::mutex channelMutex_;
    std::shared_ptr<grpc::Channel> channel_;
    std::shared_ptr<kubemq::kubemq::Stub> stub_;

    std::mutex callsMutex_;
    std::vector<grpc::ClientContext*> calls_;

    std::mutex sleepMutex_;
    std::condition_variable sleepCv_;
};

class CallGuard {
public:
    CallGuard(ClientCore& core, grpc::ClientContext& context) : core_(core), context_(context) {
        core_.registerCall(&context_);
    }
    ~CallGuard() { core_.unregisterCall(&context_); }
    CallGuard(const CallGuard&) = delete;
    CallGuard& operator=(const CallGuard&) = delete;

private:
    ClientCore& core_;
    grpc::ClientContext& context_;
};

Result<std::shared_ptr<ClientCore>> makeClientCore(ClientOptions options);

Error fromStatusForCore(const grpc::Status& status, bool cancelledByUs, std::string_view what);

// One unary call with deadline, optional auth and cancel() support.
// call(stub, context, response) -> grpc::Status.
template <typename Response, typename Call>
Result<Response> unaryCall(ClientCore& core, std::string_view what,
                           std::chrono::milliseconds timeout, bool withAuth, Call&& call) {
    const std::uint64_t epoch = core.cancelEpoch.load();
    if (core.shutdown.load()) {
        return core.cancelledError(what);
    }
    grpc::ClientContext context;
    core.prepare(context, timeout, withAuth);
    CallGuard guard(core, context);
    if (core.isCancelled(epoch)) {
        return core.cancelledError(what);
    }
    Response response;
    auto stub = core.stub();
    const grpc::Status status = call(*stub, &context, &response);
    if (!status.ok()) {
        if (core.isCancelled(epoch) && status.error_code() == grpc::StatusCode::CANCELLED) {
            return core.cancelledError(what);
        }
        return fromStatusForCore(status, false, what);
    }
    return response;
}

}  // namespace qs::client::detail
