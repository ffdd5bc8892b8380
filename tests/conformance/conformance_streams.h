#pragma once

// The three bidi streams of the queues API as BidiSessions, with request
// builders for QueuesDownstream. A session opened from a channel owns its
// stub (its own connection when the channel is); one opened from a Stub&
// borrows it, and the stub must outlive the session.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bidi_session.h"
#include "conformance_rpc.h"
#include "kubemq.grpc.pb.h"

namespace qs::test::conf {

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
    // Shares `stub`'s connection with the caller's unary calls.
    explicit V1StreamSession(Stub& stub);
};

}  // namespace qs::test::conf
