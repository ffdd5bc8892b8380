#pragma once

// Shared helpers for the broker conformance suites (spec §4): exact error
// strings, names and clocks, message and request builders, and unary wrappers
// that bound and time each call. Plain C++ (no Qt); the Qt Test conversions
// live in conformance_qt.h, the bidi streams in conformance_streams.h.
//
// Threading: everything here is called from the test thread.

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kubemq.grpc.pb.h"

namespace qs::test::conf {

using Stub = kubemq::kubemq::Stub;
using Clock = std::chrono::steady_clock;

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
inline constexpr std::string_view kTransactionNotFound =
    "transaction is completed or transaction id not found";
}  // namespace err

// ---- names and clocks ------------------------------------------------------

// A channel name no other case uses: "conf-<tag>-<12 random hex digits>".
std::string uniqueChannel(std::string_view tag);

std::int64_t nowUnixNs();
std::int64_t nowUnixSeconds();

// Steady-clock stopwatch, started on construction.
class Stopwatch {
public:
    Stopwatch() : start_(Clock::now()) {}
    void restart() { start_ = Clock::now(); }
    double seconds() const;
    // Sleeps until `offsetSeconds` after the start (returns at once if past).
    void sleepUntil(double offsetSeconds) const;

private:
    Clock::time_point start_;
};

void sleepSeconds(double seconds);
double secondsBetween(Clock::time_point from, Clock::time_point to);

// ---- builders ----------------------------------------------------------------

// A valid message from kClientId: Body `body`, MessageID `messageId` (empty: the
// broker assigns one), no policy.
kubemq::QueueMessage makeMessage(const std::string& channel, const std::string& body,
                                 const std::string& messageId = {});

kubemq::ReceiveQueueMessagesRequest receiveRequest(const std::string& channel, int maxMessages,
                                                   int waitSeconds, bool peek,
                                                   const std::string& requestId = {});

kubemq::AckAllQueueMessagesRequest ackAllRequest(const std::string& channel, int waitSeconds);

// Channel management on kubemq.cluster.internal.requests (spec §2.12).
kubemq::Request managementRequest(const std::string& operation,
                                  const std::vector<std::pair<std::string, std::string>>& tags);

// ---- unary wrappers ------------------------------------------------------------

// A finished unary call: its status, its reply and its wall time. When the
// call itself fails, a reply with IsError/Error fields carries IsError and
// "rpc <describe(status)>", so a case asserting only on the reply still fails.
template <typename Reply>
struct Rpc {
    grpc::Status status;
    Reply reply;
    double seconds = 0.0;
    bool ok() const { return status.ok(); }
};

// Every wrapper sets a deadline of kExtraDeadline beyond the call's own wait,
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
Rpc<kubemq::Response> sendRequest(Stub& stub, const kubemq::Request& request);

// QueuesInfo for ';'-separated names ("" = all); nullopt when the RPC fails.
std::optional<kubemq::QueuesInfo> queuesInfo(Stub& stub, const std::string& names = {});

// "OK", "UNKNOWN", ... for a status code.
std::string statusCodeName(grpc::StatusCode code);
// "<CODE>: <message>", e.g. "UNKNOWN: empty messages batch".
std::string describe(const grpc::Status& status);

// Sends `count` valid messages one by one, each with Body and MessageID
// "<prefix>-<i>" (i from 1). Returns "" on success, otherwise what went wrong first.
std::string sendMany(Stub& stub, const std::string& channel, int count,
                     const std::string& prefix = "m");

// Calls an arbitrary unary method path (e.g. "/kubemq.Kubemq/Ping") with a
// generic stub; the reply bytes go to *replyBytes when given.
grpc::Status callUnaryByPath(const std::shared_ptr<grpc::Channel>& channel, const std::string& path,
                             const google::protobuf::Message& request,
                             std::string* replyBytes = nullptr);

// ---- v1 StreamQueueMessage requests ----------------------------------------------

kubemq::StreamQueueMessagesRequest v1Request(kubemq::StreamRequestType type,
                                             const std::string& requestId = {});
kubemq::StreamQueueMessagesRequest v1Receive(const std::string& channel, int visibilitySeconds,
                                             int waitSeconds, const std::string& requestId = {});
kubemq::StreamQueueMessagesRequest v1Ack(std::uint64_t refSequence);
kubemq::StreamQueueMessagesRequest v1Reject(std::uint64_t refSequence);
kubemq::StreamQueueMessagesRequest v1ModifyVisibility(int visibilitySeconds);
kubemq::StreamQueueMessagesRequest v1Resend(const std::string& channel);
kubemq::StreamQueueMessagesRequest v1SendModified(const kubemq::QueueMessage& message);

// ---- inspection --------------------------------------------------------------

std::vector<std::uint64_t> sequencesOf(
    const google::protobuf::RepeatedPtrField<kubemq::QueueMessage>& messages);
std::vector<std::string> idsOf(
    const google::protobuf::RepeatedPtrField<kubemq::QueueMessage>& messages);
std::set<std::int64_t> offsetSet(const kubemq::QueuesDownstreamResponse& response);

}  // namespace qs::test::conf
