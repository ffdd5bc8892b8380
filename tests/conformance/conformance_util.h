#pragma once

// Shared helpers for the broker conformance suites (spec §4): message and
// request builders, unary wrappers that time the call, a blocking wrapper
// around the v1 StreamQueueMessage bidi stream, and clock helpers.
// Plain C++ (no Qt) so every conformance executable can use it.
//
// Threading: everything here is used from the test thread; V1Stream owns one
// internal reader thread (joined in its destructor).

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "kubemq.grpc.pb.h"

namespace qs::test::conf {

using Stub = kubemq::kubemq::Stub;

inline constexpr std::string_view kClientId = "conf-client";

// Exact server error strings (spec §2.17); note the trailing spaces of 122.
namespace err {
inline constexpr std::string_view k101 = "Error 101: invalid clientID value, cannot be empty";
inline constexpr std::string_view k110 = "Error 110: invalid message, cannot be empty";
inline constexpr std::string_view k120 =
    "Error 120: invalid queue name value, cannot be empty, contains wildcards ,white spaces and "
    "end "
    "with dot";
inline constexpr std::string_view k121 = "Error 121: cannot subscribe to a queue";
inline constexpr std::string_view k122 =
    "Error 122: max messages should be between 1 and max message setting in kubemq config  ";
inline constexpr std::string_view k124 = "Error 124: no active message to ack";
inline constexpr std::string_view k125 = "Error 125: ack sequence cannot be 0 or negative";
inline constexpr std::string_view k126 = "Error 126: no active message to send";
inline constexpr std::string_view k127 =
    "Error 127: invalid visibility time, cannot be negative or exceed setting in kubemq config";
inline constexpr std::string_view k128 = "Error 128: subscription to queue is already active";
inline constexpr std::string_view k129 = "Error 129: current visibility timer expired";
inline constexpr std::string_view k130 = "Error 130: error during send message to queue";
inline constexpr std::string_view k131 = "Error 131: invalid queue message";
inline constexpr std::string_view k132 = "Error 132: invalid stream queue messages request type";
inline constexpr std::string_view k133 =
    "Error 133: invalid expiration seconds, exceed max expiration seconds setting in kubemq config";
inline constexpr std::string_view k134 =
    "Error 134: invalid max received count, cannot be negative or exceed max receive count setting "
    "in kubemq config";
inline constexpr std::string_view k135 =
    "Error 135: invalid delay seconds, exceed max delay seconds setting in kubemq config";
inline constexpr std::string_view k136 =
    "Error 136: invalid wait timeout, value cannot be negative or exceed max wait timeout seconds "
    "setting in kubemq config";
inline constexpr std::string_view k137 = "Error 137: no active message to reject";
inline constexpr std::string_view k138 = "Error 138: no new message in queue, wait time expired";
inline constexpr std::string_view kStanInvalidPublish = "stan: invalid publish request";
inline constexpr std::string_view kEmptyBatch = "empty messages batch";
inline constexpr std::string_view kNoMessagesToSend = "no messages to send";
}  // namespace err

// ---- names and clocks ------------------------------------------------------

// A channel name no other case uses: "conf-<tag>-<12 random hex digits>".
std::string uniqueChannel(std::string_view tag);

std::int64_t nowUnixNs();
std::int64_t nowUnixSeconds();

// Steady-clock stopwatch, started on construction.
class Stopwatch {
public:
    Stopwatch() : start_(std::chrono::steady_clock::now()) {}
    void restart() { start_ = std::chrono::steady_clock::now(); }
    double seconds() const;
    // Sleeps until `offsetSeconds` after the start (returns at once if past).
    void sleepUntil(double offsetSeconds) const;

private:
    std::chrono::steady_clock::time_point start_;
};

void sleepSeconds(double seconds);

// ---- builders ----------------------------------------------------------------

// A valid message: ClientID kClientId (unless given), Body `body`, no policy.
kubemq::QueueMessage makeMessage(const std::string& channel, const std::string& body,
                                 std::string_view clientId = kClientId);

kubemq::ReceiveQueueMessagesRequest receiveRequest(const std::string& channel, int maxMessages,
                                                   int waitSeconds, bool peek,
                                                   const std::string& requestId = {},
                                                   std::string_view clientId = kClientId);

kubemq::AckAllQueueMessagesRequest ackAllRequest(const std::string& channel, int waitSeconds,
                                                 std::string_view clientId = kClientId);

// ---- unary wrappers ------------------------------------------------------------

// A finished unary call: its status, its reply (default if the status is not
// OK) and its wall time.
template <typename Reply>
struct Rpc {
    grpc::Status status;
    Reply reply;
    double seconds = 0.0;
    bool ok() const { return status.ok(); }
};

// Every wrapper sets a deadline of `extraDeadline` beyond the call's own wait,
// so a hanging broker fails the case instead of the whole executable.
inline constexpr std::chrono::seconds kExtraDeadline{20};

Rpc<kubemq::PingResult> ping(Stub& stub);
Rpc<kubemq::SendQueueMessageResult> send(Stub& stub, const kubemq::QueueMessage& message);
Rpc<kubemq::QueueMessagesBatchResponse> sendBatch(Stub& stub,
                                                  const kubemq::QueueMessagesBatchRequest& request);
Rpc<kubemq::ReceiveQueueMessagesResponse> receive(
    Stub& stub, const kubemq::ReceiveQueueMessagesRequest& request);
Rpc<kubemq::ReceiveQueueMessagesResponse> pull(Stub& stub, const std::string& channel,
                                               int maxMessages, int waitSeconds);
Rpc<kubemq::ReceiveQueueMessagesResponse> peek(Stub& stub, const std::string& channel,
                                               int maxMessages, int waitSeconds);
Rpc<kubemq::AckAllQueueMessagesResponse> ackAll(Stub& stub,
                                                const kubemq::AckAllQueueMessagesRequest& request);

// "gRPC <code>: <message>" for failure messages.
std::string describe(const grpc::Status& status);

// Sends `count` valid messages with bodies "<bodyPrefix><i>" (i from 1) one by
// one. Returns "" on success, otherwise what went wrong first.
std::string sendMany(Stub& stub, const std::string& channel, int count,
                     const std::string& bodyPrefix = "m");

// Calls an arbitrary unary method path (e.g. "/kubemq.Kubemq/Ping") with a
// generic stub; the reply bytes go to *replyBytes when given.
grpc::Status callUnaryByPath(const std::shared_ptr<grpc::Channel>& channel, const std::string& path,
                             const google::protobuf::Message& request,
                             std::string* replyBytes = nullptr);

// ---- v1 StreamQueueMessage -------------------------------------------------------

kubemq::StreamQueueMessagesRequest v1Request(kubemq::StreamRequestType type,
                                             const std::string& requestId = {},
                                             std::string_view clientId = kClientId);
kubemq::StreamQueueMessagesRequest v1Receive(const std::string& channel, int visibilitySeconds,
                                             int waitSeconds, const std::string& requestId = {});
kubemq::StreamQueueMessagesRequest v1Ack(std::uint64_t refSequence);
kubemq::StreamQueueMessagesRequest v1Reject(std::uint64_t refSequence);
kubemq::StreamQueueMessagesRequest v1ModifyVisibility(int visibilitySeconds);
kubemq::StreamQueueMessagesRequest v1Resend(const std::string& channel);
kubemq::StreamQueueMessagesRequest v1SendModified(const kubemq::QueueMessage& message);

// Blocking view of one StreamQueueMessage call. A reader thread collects the
// responses so read() can wait with a timeout. Use from one (test) thread.
class V1Stream {
public:
    explicit V1Stream(Stub& stub, std::chrono::seconds deadline = std::chrono::seconds(120));
    ~V1Stream();  // cancels the call if still open and joins the reader
    V1Stream(const V1Stream&) = delete;
    V1Stream& operator=(const V1Stream&) = delete;

    // False when the stream is already broken or ended.
    bool write(const kubemq::StreamQueueMessagesRequest& request);
    void writesDone();

    // Next response in arrival order; nullopt when none arrived within
    // `timeout` or the stream ended with nothing left to read.
    std::optional<kubemq::StreamQueueMessagesResponse> read(std::chrono::milliseconds timeout);

    // Waits until the server ends the call; true if it did within `timeout`.
    // Unread responses stay readable.
    bool waitForEnd(std::chrono::milliseconds timeout);
    bool ended() const;
    // The final status; only after waitForEnd() returned true (or cancel()).
    grpc::Status finish();

    // Drops the call the way a disconnecting client does (TryCancel).
    void cancel();

private:
    void readLoop();

    grpc::ClientContext context_;
    std::unique_ptr<grpc::ClientReaderWriter<kubemq::StreamQueueMessagesRequest,
                                             kubemq::StreamQueueMessagesResponse>>
        call_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<kubemq::StreamQueueMessagesResponse> pending_;
    bool ended_ = false;
    bool writesDone_ = false;
    std::optional<grpc::Status> status_;
    std::thread reader_;
};

}  // namespace qs::test::conf
