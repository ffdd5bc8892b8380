#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "confb_bidi_session.h"
#include "kubemq.grpc.pb.h"

// Small synchronous building blocks for the part-B conformance suites: they
// wrap one RPC each with a deadline so a misbehaving broker fails a test
// instead of hanging it. An RPC-level failure is folded into the result as
// IsError with "rpc <code>: <message>" so callers assert on one value.
namespace qs::test::confb {

using Stub = kubemq::kubemq::Stub;

inline constexpr const char* kProducerId = "confb-producer";
inline constexpr const char* kConsumerId = "confb-consumer";

inline constexpr const char* kError101 = "Error 101: invalid clientID value, cannot be empty";
inline constexpr const char* kError110 = "Error 110: invalid message, cannot be empty";
inline constexpr const char* kError120 =
    "Error 120: invalid queue name value, cannot be empty, contains wildcards ,white spaces and "
    "end with dot";
inline constexpr const char* kError122 =
    "Error 122: max messages should be between 1 and max message setting in kubemq config  ";
inline constexpr const char* kError125 = "Error 125: ack sequence cannot be 0 or negative";
inline constexpr const char* kError127 =
    "Error 127: invalid visibility time, cannot be negative or exceed setting in kubemq config";
inline constexpr const char* kError132 = "Error 132: invalid stream queue messages request type";
inline constexpr const char* kError133 =
    "Error 133: invalid expiration seconds, exceed max expiration seconds setting in kubemq config";
inline constexpr const char* kError134 =
    "Error 134: invalid max received count, cannot be negative or exceed max receive count "
    "setting in kubemq config";
inline constexpr const char* kError135 =
    "Error 135: invalid delay seconds, exceed max delay seconds setting in kubemq config";
inline constexpr const char* kError136 =
    "Error 136: invalid wait timeout, value cannot be negative or exceed max wait timeout seconds "
    "setting in kubemq config";
inline constexpr const char* kNotFound = "transaction is completed or transaction id not found";

std::string statusCodeName(grpc::StatusCode code);
// "<CODE>: <message>", e.g. "UNKNOWN: empty messages batch".
std::string describe(const grpc::Status& status);

kubemq::QueueMessage makeMessage(const std::string& channel, const std::string& body,
                                 const std::string& messageId = {});

kubemq::SendQueueMessageResult send(Stub& stub, const kubemq::QueueMessage& message);
// Sends count messages "<prefix>-<i>" (i from 1) one after another; returns their results.
std::vector<kubemq::SendQueueMessageResult> sendMany(Stub& stub, const std::string& channel,
                                                     int count, const std::string& prefix);
kubemq::QueueMessagesBatchResponse sendBatch(Stub& stub,
                                             const kubemq::QueueMessagesBatchRequest& batch,
                                             grpc::Status* status = nullptr);

kubemq::ReceiveQueueMessagesResponse receive(Stub& stub,
                                             const kubemq::ReceiveQueueMessagesRequest& request,
                                             grpc::Status* status = nullptr);
kubemq::ReceiveQueueMessagesResponse pull(Stub& stub, const std::string& channel, int max,
                                          int waitSeconds);
kubemq::ReceiveQueueMessagesResponse peek(Stub& stub, const std::string& channel, int max,
                                          int waitSeconds);

kubemq::AckAllQueueMessagesResponse ackAll(Stub& stub,
                                           const kubemq::AckAllQueueMessagesRequest& request,
                                           grpc::Status* status = nullptr);

// QueuesInfo for ';'-separated names ("" = all); nullopt when the RPC fails.
std::optional<kubemq::QueuesInfo> queuesInfo(Stub& stub, const std::string& names = {});

// Channel management on kubemq.cluster.internal.requests (spec §2.12).
kubemq::Request managementRequest(const std::string& operation,
                                  const std::vector<std::pair<std::string, std::string>>& tags);
kubemq::Response sendRequest(Stub& stub, const kubemq::Request& request,
                             grpc::Status* status = nullptr);

// --- QueuesDownstream -------------------------------------------------------

using DownstreamFrame = Frame<kubemq::QueuesDownstreamResponse>;

class DownstreamSession
    : public BidiSession<kubemq::QueuesDownstreamRequest, kubemq::QueuesDownstreamResponse> {
public:
    explicit DownstreamSession(std::shared_ptr<grpc::Channel> channel,
                               const Metadata& metadata = {});

    static kubemq::QueuesDownstreamRequest getRequest(const std::string& requestId,
                                                      const std::string& channel, int maxItems,
                                                      int waitMs, bool autoAck = false);
    static kubemq::QueuesDownstreamRequest settleRequest(
        const std::string& requestId, kubemq::QueuesDownstreamRequestType type,
        const std::string& transactionId, const std::vector<std::int64_t>& sequences = {},
        const std::string& requeueChannel = {});

    bool sendGet(const std::string& requestId, const std::string& channel, int maxItems, int waitMs,
                 bool autoAck = false);
    bool sendSettle(const std::string& requestId, kubemq::QueuesDownstreamRequestType type,
                    const std::string& transactionId,
                    const std::vector<std::int64_t>& sequences = {},
                    const std::string& requeueChannel = {});

    // Sends a Get and waits up to waitMs + slack for the next frame.
    std::optional<DownstreamFrame> get(const std::string& requestId, const std::string& channel,
                                       int maxItems, int waitMs, bool autoAck = false,
                                       std::chrono::milliseconds slack = std::chrono::seconds(10));
    // Sends ActiveOffsets and waits for the next frame.
    std::optional<DownstreamFrame> activeOffsets(const std::string& requestId,
                                                 const std::string& transactionId);
};

// --- QueuesUpstream and v1 StreamQueueMessage ---------------------------------

class UpstreamSession
    : public BidiSession<kubemq::QueuesUpstreamRequest, kubemq::QueuesUpstreamResponse> {
public:
    explicit UpstreamSession(std::shared_ptr<grpc::Channel> channel, const Metadata& metadata = {});
};

class V1StreamSession
    : public BidiSession<kubemq::StreamQueueMessagesRequest, kubemq::StreamQueueMessagesResponse> {
public:
    explicit V1StreamSession(std::shared_ptr<grpc::Channel> channel, const Metadata& metadata = {});
};

// --- inspection helpers -----------------------------------------------------

std::vector<std::uint64_t> sequencesOf(
    const google::protobuf::RepeatedPtrField<kubemq::QueueMessage>& messages);
std::vector<std::string> idsOf(
    const google::protobuf::RepeatedPtrField<kubemq::QueueMessage>& messages);
std::set<std::int64_t> offsetSet(const kubemq::QueuesDownstreamResponse& response);

double secondsBetween(Clock::time_point from, Clock::time_point to);

}  // namespace qs::test::confb
