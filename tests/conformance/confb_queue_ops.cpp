#include "confb_queue_ops.h"

namespace qs::test::confb {

namespace {

void setDeadline(grpc::ClientContext& context, std::chrono::seconds fromNow) {
    context.set_deadline(std::chrono::system_clock::now() + fromNow);
}

std::string rpcError(const grpc::Status& status) {
    return "rpc " + describe(status);
}

}  // namespace

std::string statusCodeName(grpc::StatusCode code) {
    switch (code) {
        case grpc::OK:
            return "OK";
        case grpc::CANCELLED:
            return "CANCELLED";
        case grpc::UNKNOWN:
            return "UNKNOWN";
        case grpc::INVALID_ARGUMENT:
            return "INVALID_ARGUMENT";
        case grpc::DEADLINE_EXCEEDED:
            return "DEADLINE_EXCEEDED";
        case grpc::NOT_FOUND:
            return "NOT_FOUND";
        case grpc::ALREADY_EXISTS:
            return "ALREADY_EXISTS";
        case grpc::PERMISSION_DENIED:
            return "PERMISSION_DENIED";
        case grpc::UNAUTHENTICATED:
            return "UNAUTHENTICATED";
        case grpc::RESOURCE_EXHAUSTED:
            return "RESOURCE_EXHAUSTED";
        case grpc::FAILED_PRECONDITION:
            return "FAILED_PRECONDITION";
        case grpc::ABORTED:
            return "ABORTED";
        case grpc::OUT_OF_RANGE:
            return "OUT_OF_RANGE";
        case grpc::UNIMPLEMENTED:
            return "UNIMPLEMENTED";
        case grpc::INTERNAL:
            return "INTERNAL";
        case grpc::UNAVAILABLE:
            return "UNAVAILABLE";
        case grpc::DATA_LOSS:
            return "DATA_LOSS";
        default:
            return "CODE_" + std::to_string(static_cast<int>(code));
    }
}

std::string describe(const grpc::Status& status) {
    return statusCodeName(status.error_code()) + ": " + status.error_message();
}

kubemq::QueueMessage makeMessage(const std::string& channel, const std::string& body,
                                 const std::string& messageId) {
    kubemq::QueueMessage message;
    message.set_messageid(messageId);
    message.set_clientid(kProducerId);
    message.set_channel(channel);
    message.set_body(body);
    return message;
}

kubemq::SendQueueMessageResult send(Stub& stub, const kubemq::QueueMessage& message) {
    grpc::ClientContext context;
    setDeadline(context, std::chrono::seconds(30));
    kubemq::SendQueueMessageResult result;
    const grpc::Status status = stub.SendQueueMessage(&context, message, &result);
    if (!status.ok()) {
        result.Clear();
        result.set_iserror(true);
        result.set_error(rpcError(status));
    }
    return result;
}

std::vector<kubemq::SendQueueMessageResult> sendMany(Stub& stub, const std::string& channel,
                                                     int count, const std::string& prefix) {
    std::vector<kubemq::SendQueueMessageResult> results;
    for (int i = 1; i <= count; ++i) {
        const std::string name = prefix + "-" + std::to_string(i);
        results.push_back(send(stub, makeMessage(channel, name, name)));
    }
    return results;
}

kubemq::QueueMessagesBatchResponse sendBatch(Stub& stub,
                                             const kubemq::QueueMessagesBatchRequest& batch,
                                             grpc::Status* status) {
    grpc::ClientContext context;
    setDeadline(context, std::chrono::seconds(30));
    kubemq::QueueMessagesBatchResponse response;
    const grpc::Status s = stub.SendQueueMessagesBatch(&context, batch, &response);
    if (status)
        *status = s;
    return response;
}

kubemq::ReceiveQueueMessagesResponse receive(Stub& stub,
                                             const kubemq::ReceiveQueueMessagesRequest& request,
                                             grpc::Status* status) {
    grpc::ClientContext context;
    const int wait = request.waittimeseconds() > 0 && request.waittimeseconds() < 600
                         ? request.waittimeseconds()
                         : 0;
    setDeadline(context, std::chrono::seconds(30 + wait));
    kubemq::ReceiveQueueMessagesResponse response;
    const grpc::Status s = stub.ReceiveQueueMessages(&context, request, &response);
    if (status)
        *status = s;
    if (!s.ok()) {
        response.Clear();
        response.set_iserror(true);
        response.set_error(rpcError(s));
    }
    return response;
}

namespace {
kubemq::ReceiveQueueMessagesResponse receiveSimple(Stub& stub, const std::string& channel, int max,
                                                   int waitSeconds, bool peek) {
    kubemq::ReceiveQueueMessagesRequest request;
    request.set_requestid(peek ? "confb-peek" : "confb-pull");
    request.set_clientid(kConsumerId);
    request.set_channel(channel);
    request.set_maxnumberofmessages(max);
    request.set_waittimeseconds(waitSeconds);
    request.set_ispeak(peek);
    return receive(stub, request);
}
}  // namespace

kubemq::ReceiveQueueMessagesResponse pull(Stub& stub, const std::string& channel, int max,
                                          int waitSeconds) {
    return receiveSimple(stub, channel, max, waitSeconds, false);
}

kubemq::ReceiveQueueMessagesResponse peek(Stub& stub, const std::string& channel, int max,
                                          int waitSeconds) {
    return receiveSimple(stub, channel, max, waitSeconds, true);
}

kubemq::AckAllQueueMessagesResponse ackAll(Stub& stub,
                                           const kubemq::AckAllQueueMessagesRequest& request,
                                           grpc::Status* status) {
    grpc::ClientContext context;
    const int wait = request.waittimeseconds() > 0 && request.waittimeseconds() < 600
                         ? request.waittimeseconds()
                         : 0;
    setDeadline(context, std::chrono::seconds(30 + wait));
    kubemq::AckAllQueueMessagesResponse response;
    const grpc::Status s = stub.AckAllQueueMessages(&context, request, &response);
    if (status)
        *status = s;
    if (!s.ok()) {
        response.Clear();
        response.set_iserror(true);
        response.set_error(rpcError(s));
    }
    return response;
}

std::optional<kubemq::QueuesInfo> queuesInfo(Stub& stub, const std::string& names) {
    grpc::ClientContext context;
    setDeadline(context, std::chrono::seconds(30));
    kubemq::QueuesInfoRequest request;
    request.set_requestid("confb-info");
    request.set_queuename(names);
    kubemq::QueuesInfoResponse response;
    if (!stub.QueuesInfo(&context, request, &response).ok())
        return std::nullopt;
    return response.info();
}

kubemq::Request managementRequest(const std::string& operation,
                                  const std::vector<std::pair<std::string, std::string>>& tags) {
    kubemq::Request request;
    request.set_requestid("confb-mgmt-" + operation);
    request.set_requesttypedata(kubemq::Request::Query);
    request.set_clientid("confb-admin");
    request.set_channel("kubemq.cluster.internal.requests");
    request.set_metadata(operation);
    request.set_timeout(10000);
    for (const auto& [key, value] : tags)
        (*request.mutable_tags())[key] = value;
    return request;
}

kubemq::Response sendRequest(Stub& stub, const kubemq::Request& request, grpc::Status* status) {
    grpc::ClientContext context;
    setDeadline(context, std::chrono::seconds(30));
    kubemq::Response response;
    const grpc::Status s = stub.SendRequest(&context, request, &response);
    if (status)
        *status = s;
    if (!s.ok()) {
        response.Clear();
        response.set_error(rpcError(s));
    }
    return response;
}

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
    request.set_clientid(kConsumerId);
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
    request.set_clientid(kConsumerId);
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

std::vector<std::uint64_t> sequencesOf(
    const google::protobuf::RepeatedPtrField<kubemq::QueueMessage>& messages) {
    std::vector<std::uint64_t> out;
    for (const auto& message : messages)
        out.push_back(message.attributes().sequence());
    return out;
}

std::vector<std::string> idsOf(
    const google::protobuf::RepeatedPtrField<kubemq::QueueMessage>& messages) {
    std::vector<std::string> out;
    for (const auto& message : messages)
        out.push_back(message.messageid());
    return out;
}

std::set<std::int64_t> offsetSet(const kubemq::QueuesDownstreamResponse& response) {
    return {response.activeoffsets().begin(), response.activeoffsets().end()};
}

double secondsBetween(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
}

}  // namespace qs::test::confb
