#pragma once

// Private: one QueuesDownstream stream with its reader thread.
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>

#include "client/client_core.h"
#include "client/received_batch.h"
#include "client/result.h"
#include "kubemq.grpc.pb.h"

namespace qs::client::detail {

class DownstreamSession {
public:
    enum class EndReason { None, Cancelled, Abandoned, Poisoned, Server };
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
    // discarded by a cancel. Skipped while a Get waits for its answer (a long
    // poll would hold the server) and on the reader thread itself.
    void closeGracefully(std::chrono::milliseconds grace = kCloseGrace);
    // Ends the stream (TryCancel) without settling anything.
    void end(EndReason reason);
    bool isDead() const;
    bool isEnded() const;       // dead, or end() was called and the reader is finishing
    bool hasSucceeded() const;  // at least one Get answered
    void join();

private:
    struct SettleRecord {
        std::string transactionId;
        SettleOp op;
        std::vector<std::uint64_t> sequences;
    };

    bool write(const kubemq::QueuesDownstreamRequest& request);
    void readLoop();
    // May take the response's contents (a Get answer is swapped out, not copied).
    void handle(kubemq::QueuesDownstreamResponse& response);
    Error lostError(bool freshStream) const;

    std::shared_ptr<SettlementErrorSink> errors_;
    grpc::ClientContext context_;
    std::shared_ptr<kubemq::kubemq::Stub> stub_;
    std::unique_ptr<
        grpc::ClientReaderWriter<kubemq::QueuesDownstreamRequest, kubemq::QueuesDownstreamResponse>>
        stream_;
    std::thread reader_;

    std::mutex writeMutex_;
    bool writesClosed_ = false;

    mutable std::mutex mutex_;
    std::condition_variable cv_;
    bool dead_ = false;
    bool succeeded_ = false;
    EndReason reason_ = EndReason::None;
    grpc::Status status_;
    std::map<std::string, std::optional<kubemq::QueuesDownstreamResponse>> pendingGets_;
    // Settlements sent, by RequestId, to name the operation and messages of a
    // later error frame; the oldest are forgotten first (successes are never
    // answered).
    std::unordered_map<std::string, SettleRecord> settles_;
    std::deque<const std::string*> settleOrder_;  // keys of settles_, oldest first
};

}  // namespace qs::client::detail
