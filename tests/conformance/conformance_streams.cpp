#include "conformance_streams.h"

namespace qs::test::conf {

DownstreamSession::DownstreamSession(std::shared_ptr<grpc::Channel> channel,
                                     const Metadata& metadata)
    : BidiSession(
          channel,
          [stub = std::shared_ptr<Stub>(kubemq::kubemq::NewStub(channel))](
              grpc::ClientContext* context) { return stub->QueuesDownstream(context); },
          metadata) {}

kubemq::QueuesDownstreamRequest DownstreamSession::getRequest(const std::string& requestId,
                                                              const std::string& channel,
                                                              int maxItems, int waitMs,
                                                              bool autoAck) {
    kubemq::QueuesDownstreamRequest request;
    request.set_requestid(requestId);
    request.set_clientid(std::string(kClientId));
    request.set_requesttypedata(kubemq::Get);
    request.set_channel(channel);
    request.set_maxitems(maxItems);
    request.set_waittimeout(waitMs);
    request.set_autoack(autoAck);
    return request;
}

kubemq::QueuesDownstreamRequest DownstreamSession::settleRequest(
    const std::string& requestId, kubemq::QueuesDownstreamRequestType type,
    const std::string& transactionId, const std::vector<std::int64_t>& sequences,
    const std::string& requeueChannel) {
    kubemq::QueuesDownstreamRequest request;
    request.set_requestid(requestId);
    request.set_clientid(std::string(kClientId));
    request.set_requesttypedata(type);
    request.set_reftransactionid(transactionId);
    request.set_requeuechannel(requeueChannel);
    for (const std::int64_t seq : sequences)
        request.add_sequencerange(seq);
    return request;
}

bool DownstreamSession::sendGet(const std::string& requestId, const std::string& channel,
                                int maxItems, int waitMs, bool autoAck) {
    return send(getRequest(requestId, channel, maxItems, waitMs, autoAck));
}

bool DownstreamSession::sendSettle(const std::string& requestId,
                                   kubemq::QueuesDownstreamRequestType type,
                                   const std::string& transactionId,
                                   const std::vector<std::int64_t>& sequences,
                                   const std::string& requeueChannel) {
    return send(settleRequest(requestId, type, transactionId, sequences, requeueChannel));
}

std::optional<DownstreamFrame> DownstreamSession::get(const std::string& requestId,
                                                      const std::string& channel, int maxItems,
                                                      int waitMs, bool autoAck,
                                                      std::chrono::milliseconds slack) {
    if (!sendGet(requestId, channel, maxItems, waitMs, autoAck))
        return std::nullopt;
    const int effectiveWait = waitMs < 1000 ? 1000 : waitMs;
    return next(std::chrono::milliseconds(effectiveWait) + slack);
}

std::optional<DownstreamFrame> DownstreamSession::activeOffsets(const std::string& requestId,
                                                                const std::string& transactionId) {
    if (!sendSettle(requestId, kubemq::ActiveOffsets, transactionId))
        return std::nullopt;
    return next(std::chrono::seconds(10));
}

UpstreamSession::UpstreamSession(std::shared_ptr<grpc::Channel> channel, const Metadata& metadata)
    : BidiSession(
          channel,
          [stub = std::shared_ptr<Stub>(kubemq::kubemq::NewStub(channel))](
              grpc::ClientContext* context) { return stub->QueuesUpstream(context); },
          metadata) {}

V1StreamSession::V1StreamSession(std::shared_ptr<grpc::Channel> channel, const Metadata& metadata)
    : BidiSession(
          channel,
          [stub = std::shared_ptr<Stub>(kubemq::kubemq::NewStub(channel))](
              grpc::ClientContext* context) { return stub->StreamQueueMessage(context); },
          metadata) {}

V1StreamSession::V1StreamSession(Stub& stub)
    : BidiSession(nullptr, [&stub](grpc::ClientContext* context) {
          return stub.StreamQueueMessage(context);
      }) {}

}  // namespace qs::test::conf
