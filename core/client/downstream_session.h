#pragma once

// Private: the client's QueuesDownstream stream: Gets, settlements, and the
// frames nobody waits for.
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "client/client_core.h"
#include "client/received_batch.h"
#include "client/request_stream.h"
#include "client/result.h"
#include "kubemq.grpc.pb.h"

namespace qs::client::detail {

class DownstreamSession {
public:
    // How long a closing session waits for the server to take its last writes.
    static constexpr std::chrono::milliseconds kCloseGrace{500};

    DownstreamSession(ClientCore& core, std::shared_ptr<SettlementErrorSink> errors);
    // Closes the stream politely first (see closeGracefully), then cancels and
    // joins the reader.
    ~DownstreamSession();
    DownstreamSession(const DownstreamSession&) = delete;
    DownstreamSession& operator=(const DownstreamSession&) = delete;

    // Sends a Get and waits for the response with its RefRequestId.
    // freshStream: this session was opened for this call (an early transport
    // failure then means Unavailable rather than a lost stream).
    Result<kubemq::QueuesDownstreamResponse> get(const kubemq::QueuesDownstreamRequest& request,
                                                 std::chrono::steady_clock::time_point deadline,
                                                 bool freshStream);

    // Writes a settlement; false when the stream is gone.
    bool settle(const kubemq::QueuesDownstreamRequest& request, SettleOp op,
                std::vector<std::uint64_t> sequences);

    // Half-closes the stream and waits up to `grace` for the server to end
    // it, so settlements already written are read and applied rather than
    // discarded by a cancel (RequestStream::closeGracefully).
    void closeGracefully(std::chrono::milliseconds grace = kCloseGrace);
    // Ends the stream (TryCancel) without settling anything.
    void end(StreamEndReason reason);
    bool isEnded() const;  // dead, or end() was called and the reader is finishing
    void join();

private:
    struct SettleRecord {
        std::string transactionId;
        SettleOp op;
        std::vector<std::uint64_t> sequences;
    };

    void rememberSettle(const kubemq::QueuesDownstreamRequest& request, SettleOp op,
                        std::vector<std::uint64_t> sequences);
    // A frame no Get waits for (reader thread): a stale Get answer or an error
    // frame for a settlement.
    void handleUnmatched(const kubemq::QueuesDownstreamResponse& response);
    void closeStaleGet(const kubemq::QueuesDownstreamResponse& response);
    SettlementError settlementError(const kubemq::QueuesDownstreamResponse& response);

    std::shared_ptr<SettlementErrorSink> errors_;
    std::mutex settlesMutex_;
    // Settlements sent, by RequestId, to name the operation and messages of a
    // later error frame; the oldest are forgotten first (successes are never
    // answered).
    std::unordered_map<std::string, SettleRecord> settles_;
    std::deque<const std::string*> settleOrder_;  // keys of settles_, oldest first
    // Last: its reader calls handleUnmatched, which uses the members above.
    DownstreamStream stream_;
};

}  // namespace qs::client::detail
