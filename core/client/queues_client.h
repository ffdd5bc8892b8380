#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "client/client_options.h"
#include "client/error.h"
#include "client/queue_channel_info.h"
#include "client/queue_message.h"
#include "client/queue_upstream.h"
#include "client/received_batch.h"
#include "client/result.h"
#include "client/server_info.h"
#include "client/stream_message.h"

namespace qs::client {

namespace detail {
struct ClientCore;
}

// A KubeMQ queues client over gRPC. Each client has its own connection (its own
// TCP connection: gRPC never shares it with another QueuesClient), so one
// client per worker behaves like one process per worker.
//
// Threading
// - Every method is safe to call from any thread. Blocking calls block only
//   the calling thread.
// - Downstream receives share ONE QueuesDownstream stream per client, and the
//   server runs a stream's requests one at a time, so concurrent receive()
//   calls on one client are served one after another. Use one client per
//   consumer for parallel consumption.
// - Each v1 receive (receiveStreamMessage) is a stream of its own: they run
//   in parallel, and apart from the downstream receives.
// - cancel(), shutdown() and abandon() may be called from any thread while
//   another thread is blocked in a call; that call then returns promptly
//   (Cancelled) instead of waiting out its poll.
// - The settlement error handler runs on the client's internal stream reader
//   thread: keep it short, do not call blocking methods of this client from
//   it, and do not drop the last handle of a batch inside it.
// - The destructor calls shutdown() and joins the internal threads; do not
//   destroy a client from inside its own settlement error handler.
//
// Errors are returned as Result<T>; nothing here throws for expected failures.
class QueuesClient {
public:
    // Validates the options (address, client id, TLS files readable) and builds
    // the connection. Does not touch the network: use ping() to check the server.
    static Result<std::unique_ptr<QueuesClient>> create(ClientOptions options);

    ~QueuesClient();
    QueuesClient(const QueuesClient&) = delete;
    QueuesClient& operator=(const QueuesClient&) = delete;

    const ClientOptions& options() const;

    // Ping (sent without the auth token, like the official SDKs).
    Result<ServerInfo> ping();

    // --- sending -----------------------------------------------------------
    // An empty message.clientId is filled with the client's id. Per-message
    // server rejections are in-band (SendResult::isError), not an Error.
    Result<SendResult> send(QueueMessage message);
    Result<BatchSendResult> sendBatch(std::vector<QueueMessage> messages, std::string batchId = {});
    // A streaming sender on this client's connection (see QueueUpstream).
    std::unique_ptr<QueueUpstream> openUpstream();

    // --- downstream (transactional) receive ----------------------------------
    // Get over QueuesDownstream: waits until maxMessages are collected or
    // waitTimeout passes (the server never returns a partial batch early; it
    // waits at least 1 s). waitTimeout goes on the wire in milliseconds.
    // Checks: channel valid, maxMessages 1..1024, waitTimeout 0..3600 s.
    // Errors: StreamLost if the stream broke while waiting (every message this
    // client held unsettled on that stream will be redelivered); Cancelled on
    // cancel()/abandon()/shutdown(); Unavailable if the server cannot be reached.
    // After a stream failure the next receive() re-opens the stream, with
    // backoff (options().reconnectBackoff*) when failures repeat.
    Result<ReceivedBatch> receive(const std::string& channel, int maxMessages,
                                  std::chrono::milliseconds waitTimeout, bool autoAck = false);

    // --- v1 stream receive (StreamQueueMessage, spec §2.11) --------------------
    // Opens a StreamQueueMessage stream of its own and waits for ONE message;
    // the server then hides it from others for `visibility` unless it is
    // settled or extended first (see StreamMessage). waitTimeout travels in
    // whole seconds, rounded up (0 = the server's 1 s); visibility 1..43200 s.
    // Checks: channel valid, waitTimeout 0..3600 s, visibility in range.
    // Errors: Timeout when no message came within the wait (grpcCode 0 and the
    // server's text, "Error 138: no new message in queue, wait time expired";
    // a Timeout with DEADLINE_EXCEEDED means no answer at all); ServerError for
    // another in-band error; Cancelled on cancel()/abandon()/shutdown();
    // Unavailable if the server cannot be reached. Any number of these may be
    // open at once on one client (each is its own stream), from any threads.
    Result<StreamMessage> receiveStreamMessage(const std::string& channel,
                                               std::chrono::milliseconds waitTimeout,
                                               std::chrono::seconds visibility);

    // --- unary receive (ReceiveQueueMessages) ---------------------------------
    // waitTimeout travels in whole seconds (rounded up; 0 = server default 1 s).
    // peek leaves the messages in the queue; pull removes them.
    Result<PullResult> peek(const std::string& channel, int maxMessages,
                            std::chrono::milliseconds waitTimeout);
    Result<PullResult> pull(const std::string& channel, int maxMessages,
                            std::chrono::milliseconds waitTimeout);
    // AckAllQueueMessages: consumes everything waiting for the whole wait time;
    // returns the number of messages removed. requestId goes on the wire as the
    // RequestID ("" = a fresh one): a caller that reports the purge names it.
    Result<std::uint64_t> ackAllQueueMessages(const std::string& channel,
                                              std::chrono::milliseconds waitTimeout,
                                              const std::string& requestId = {});

    // --- channel management (spec §2.12) --------------------------------------
    // list: list-channels on kubemq.cluster.internal.requests; on a server
    // without channel management (community v2.4.0 answers "Error 301: timeout
    // for request message") it falls back to the QueuesInfo RPC.
    // create / delete: Unsupported on such a server. The first such answer is
    // remembered for the life of this client, later calls answer at once.
    Result<std::vector<QueueChannelInfo>> listQueues(const std::string& search = {});
    Result<void> createQueue(const std::string& name);
    Result<void> deleteQueue(const std::string& name);
    // Purge = AckAllQueueMessages for waitTimeout (official SDKs have no purge).
    // Purges are reported to a run by runner::purgeChannel (channel_actions.h).
    Result<std::uint64_t> purgeQueue(
        const std::string& name, std::chrono::milliseconds waitTimeout = std::chrono::seconds(1),
        const std::string& requestId = {});
    // The QueuesInfo RPC directly. names: ';'-separated exact names, "" = all.
    Result<QueuesInfoSnapshot> queuesInfo(const std::string& names = {});

    enum class ChannelManagement { Unknown, Supported, Unsupported };
    ChannelManagement channelManagementSupport() const;

    // --- settlement errors -----------------------------------------------------
    // With a handler set, every SettlementError goes to it (on the reader
    // thread). Without one, they are queued until takeSettlementErrors().
    void setSettlementErrorHandler(std::function<void(const SettlementError&)> handler);
    std::vector<SettlementError> takeSettlementErrors();

    // --- cancellation and crash simulation ---------------------------------
    // Interrupts every call in flight right now (they return Cancelled; a
    // pending receive's stream is cancelled, so messages held unsettled on it
    // go back to the queue; a StreamMessage still held is rejected by the
    // server, receive count + 1). Later calls work normally.
    void cancel();
    // cancel() and refuse every later call (Cancelled). Idempotent. When no
    // receive is waiting, the downstream stream is first half-closed and the
    // server given up to 0.5 s to end it, so settlements already written are
    // applied rather than discarded by the cancel (the messages would come
    // back); a waiting receive is cancelled at once, as before.
    void shutdown();
    bool isShutdown() const;
    // What a dying process does: cancel the downstream (and upstream) streams
    // without settling or closing anything and drop the TCP connection. The
    // server returns the unsettled messages to the queue. The client stays
    // usable: the next call connects again.
    void abandon();

private:
    explicit QueuesClient(std::shared_ptr<detail::ClientCore> core);
    std::shared_ptr<detail::ClientCore> core_;
};

}  // namespace qs::client
