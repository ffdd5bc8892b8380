#include "client/client_core.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "client/downstream_session.h"
#include "client/message_stream_session.h"
#include "client/proto_convert.h"
#include "client/upstream_session.h"

namespace qs::client::detail {

namespace {

// Reads a whole PEM file; a missing file is a clear error naming it.
std::optional<Error> readFile(const std::string& path, std::string_view what, std::string* out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return invalidArgument("cannot read TLS " + std::string(what) + " '" + path +
                               "': file missing or not readable");
    }
    std::ostringstream text;
    text << in.rdbuf();
    *out = text.str();
    if (out->empty()) {
        return invalidArgument("TLS " + std::string(what) + " '" + path + "' is empty");
    }
    return std::nullopt;
}

}  // namespace

void SettlementErrorSink::setHandler(std::function<void(const SettlementError&)> handler) {
    std::lock_guard lock(mutex_);
    handler_ = std::move(handler);
}

void SettlementErrorSink::deliver(const SettlementError& error) {
    std::unique_lock lock(mutex_);
    if (handler_) {
        auto handler = handler_;
        lock.unlock();
        handler(error);
        return;
    }
    queued_.push_back(error);
}

std::vector<SettlementError> SettlementErrorSink::take() {
    std::lock_guard lock(mutex_);
    std::vector<SettlementError> out(std::make_move_iterator(queued_.begin()),
                                     std::make_move_iterator(queued_.end()));
    queued_.clear();
    return out;
}

Error fromStatusForCore(const grpc::Status& status, bool cancelledByUs, std::string_view what) {
    return fromStatus(status, cancelledByUs, what);
}

Result<std::shared_ptr<ClientCore>> makeClientCore(ClientOptions options) {
    if (options.address.empty()) {
        return invalidArgument("server address is required (host:port)");
    }
    if (options.clientId.empty()) {
        return invalidArgument("client id is required");
    }
    std::shared_ptr<grpc::ChannelCredentials> credentials;
    if (options.tls.enabled) {
        grpc::SslCredentialsOptions ssl;
        if (!options.tls.caFile.empty()) {
            if (auto error = readFile(options.tls.caFile, "CA file", &ssl.pem_root_certs)) {
                return *error;
            }
        }
        if (options.tls.certFile.empty() != options.tls.keyFile.empty()) {
            return invalidArgument("TLS client certificate and key must be given together");
        }
        if (!options.tls.certFile.empty()) {
            if (auto error =
                    readFile(options.tls.certFile, "client certificate", &ssl.pem_cert_chain)) {
                return *error;
            }
            if (auto error = readFile(options.tls.keyFile, "client key", &ssl.pem_private_key)) {
                return *error;
            }
        }
        credentials = grpc::SslCredentials(ssl);
    } else {
        credentials = grpc::InsecureChannelCredentials();
    }
    auto core = std::make_shared<ClientCore>();
    core->options = std::move(options);
    core->credentials = std::move(credentials);
    core->replaceChannel();
    return core;
}

void ClientCore::replaceChannel() {
    grpc::ChannelArguments args;
    // A distinct argument value keeps gRPC from sharing the subchannel (and so
    // the TCP connection) with any other client in this process.
    static std::atomic<int> unique{0};
    args.SetInt("queuescope.client.connection", ++unique);
    args.SetMaxReceiveMessageSize(-1);
    args.SetMaxSendMessageSize(-1);
    const int initial = static_cast<int>(options.reconnectBackoffInitial.count());
    args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, std::max(initial, 1));
    // Not GRPC_ARG_MIN_RECONNECT_BACKOFF_MS: gRPC also uses it as the connect
    // timeout, and 100 ms aborts handshakes on a loaded machine or under TSan.
    args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS,
                std::max(static_cast<int>(options.reconnectBackoffMax.count()), 1));
    if (!options.tls.serverNameOverride.empty()) {
        args.SetSslTargetNameOverride(options.tls.serverNameOverride);
    }
    auto channel = grpc::CreateCustomChannel(options.address, credentials, args);
    auto stub = std::shared_ptr<kubemq::kubemq::Stub>(kubemq::kubemq::NewStub(channel));
    std::lock_guard lock(channelMutex_);
    channel_ = std::move(channel);
    stub_ = std::move(stub);
}

std::shared_ptr<kubemq::kubemq::Stub> ClientCore::stub() {
    std::lock_guard lock(channelMutex_);
    return stub_;
}

std::shared_ptr<grpc::Channel> ClientCore::channel() {
    std::lock_guard lock(channelMutex_);
    return channel_;
}

void ClientCore::prepare(grpc::ClientContext& context, std::chrono::milliseconds timeout,
                         bool withAuth) const {
    if (timeout.count() > 0) {
        context.set_deadline(std::chrono::system_clock::now() + timeout);
    }
    if (withAuth && !options.authToken.empty()) {
        context.AddMetadata("authorization", options.authToken);
    }
}

Result<void> ClientCore::ensureConnected(std::uint64_t epoch) {
    auto ch = channel();
    const auto deadline = std::chrono::system_clock::now() + options.connectTimeout;
    grpc_connectivity_state state = ch->GetState(true);
    bool attempted = state != GRPC_CHANNEL_IDLE;
    while (state != GRPC_CHANNEL_READY) {
        if (isCancelled(epoch)) {
            return cancelledError("connect");
        }
        if (state == GRPC_CHANNEL_SHUTDOWN) {
            return Error{ErrorCategory::Unavailable,
                         "connection to " + options.address + " is shut down",
                         static_cast<int>(grpc::StatusCode::UNAVAILABLE)};
        }
        if (state == GRPC_CHANNEL_TRANSIENT_FAILURE && attempted) {
            return Error{
                ErrorCategory::Unavailable,
                "cannot connect to " + options.address + " (connection refused or unreachable)",
                static_cast<int>(grpc::StatusCode::UNAVAILABLE)};
        }
        if (std::chrono::system_clock::now() >= deadline) {
            return Error{ErrorCategory::Unavailable,
                         "cannot connect to " + options.address + " within " +
                             std::to_string(options.connectTimeout.count()) + " ms",
                         static_cast<int>(grpc::StatusCode::UNAVAILABLE)};
        }
        // Short slices so cancel() is noticed promptly.
        const auto slice =
            std::min(deadline, std::chrono::system_clock::now() + std::chrono::milliseconds(100));
        if (ch->WaitForStateChange(state, slice)) {
            state = ch->GetState(true);
            attempted = true;
        }
    }
    return {};
}

void ClientCore::registerCall(grpc::ClientContext* context) {
    std::lock_guard lock(callsMutex_);
    calls_.push_back(context);
}

void ClientCore::unregisterCall(grpc::ClientContext* context) {
    std::lock_guard lock(callsMutex_);
    calls_.erase(std::remove(calls_.begin(), calls_.end(), context), calls_.end());
}

void ClientCore::registerMessageStream(const std::shared_ptr<MessageStreamSession>& session) {
    std::lock_guard lock(messageStreamsMutex);
    std::erase_if(messageStreams, [](const auto& weak) { return weak.expired(); });
    messageStreams.push_back(session);
}

namespace {
void endMessageStreams(ClientCore& core, StreamEndReason reason) {
    std::vector<std::shared_ptr<MessageStreamSession>> live;
    {
        std::lock_guard lock(core.messageStreamsMutex);
        for (auto& weak : core.messageStreams) {
            if (auto session = weak.lock()) {
                live.push_back(std::move(session));
            }
        }
    }
    // Ended outside the lock: a session dropped here joins its reader.
    for (auto& session : live) {
        session->end(reason);
    }
}
}  // namespace

void ClientCore::cancelAll() {
    cancelEpoch.fetch_add(1);
    {
        std::lock_guard lock(callsMutex_);
        for (grpc::ClientContext* context : calls_) {
            context->TryCancel();
        }
    }
    {
        std::lock_guard lock(downstreamMutex);
        if (downstream) {
            downstream->end(StreamEndReason::Cancelled);
        }
    }
    {
        std::lock_guard lock(upstreamMutex);
        for (auto& weak : upstreams) {
            if (auto session = weak.lock()) {
                session->cancel();
            }
        }
    }
    endMessageStreams(*this, StreamEndReason::Cancelled);
    std::lock_guard lock(sleepMutex_);
    sleepCv_.notify_all();
}

void ClientCore::closeDownstreamGracefully() {
    std::shared_ptr<DownstreamSession> session;
    {
        std::lock_guard lock(downstreamMutex);
        session = downstream;
    }
    if (session) {
        session->closeGracefully();
    }
}

void ClientCore::abandonStreams() {
    cancelEpoch.fetch_add(1);
    {
        std::lock_guard lock(downstreamMutex);
        if (downstream) {
            downstream->end(StreamEndReason::Abandoned);
        }
        consecutiveFailures = 0;
        nextAttempt = {};
    }
    {
        std::lock_guard lock(upstreamMutex);
        for (auto& weak : upstreams) {
            if (auto session = weak.lock()) {
                session->cancel();
            }
        }
    }
    endMessageStreams(*this, StreamEndReason::Abandoned);
    {
        std::lock_guard lock(callsMutex_);
        for (grpc::ClientContext* context : calls_) {
            context->TryCancel();
        }
    }
    replaceChannel();
    std::lock_guard lock(sleepMutex_);
    sleepCv_.notify_all();
}

bool ClientCore::sleepUntil(std::chrono::steady_clock::time_point until, std::uint64_t epoch) {
    std::unique_lock lock(sleepMutex_);
    sleepCv_.wait_until(lock, until, [&] { return isCancelled(epoch); });
    return !isCancelled(epoch);
}

Error ClientCore::cancelledError(std::string_view what) const {
    std::string text(what);
    text += shutdown.load() ? ": the client is shut down" : ": cancelled";
    return Error{ErrorCategory::Cancelled, std::move(text),
                 static_cast<int>(grpc::StatusCode::CANCELLED)};
}

}  // namespace qs::client::detail
