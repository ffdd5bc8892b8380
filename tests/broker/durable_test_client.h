#pragma once

// Small synchronous kubemq calls shared by the durable-broker suites.
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <string>
#include <vector>

#include "kubemq.grpc.pb.h"

namespace qs::test {

// A channel that reconnects quickly after the broker was killed and restarted:
// retries start after 20 ms and stay under 100 ms apart. The minimum "backoff"
// is, in gRPC, the least time a connection attempt is given: 20 ms would cut
// a handshake on a busy machine, so it stays at 1 s.
inline std::shared_ptr<grpc::Channel> fastReconnectChannel(const std::string& address) {
    grpc::ChannelArguments args;
    args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 20);
    args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 1000);
    args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 100);
    return grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), args);
}

inline void setDeadline(grpc::ClientContext& context, int seconds) {
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(seconds));
}

inline kubemq::QueueMessage queueMessage(const std::string& channel, const std::string& id) {
    kubemq::QueueMessage message;
    message.set_messageid(id);
    message.set_clientid("durable-test");
    message.set_channel(channel);
    message.set_body("body of " + id);
    return message;
}

// Sends `ids` in one batch; true when every one was answered as stored.
inline bool sendBatch(kubemq::kubemq::Stub& stub, const std::string& channel,
                      const std::vector<std::string>& ids, int deadlineSeconds = 10) {
    kubemq::QueueMessagesBatchRequest request;
    request.set_batchid("batch");
    for (const auto& id : ids)
        *request.add_messages() = queueMessage(channel, id);
    kubemq::QueueMessagesBatchResponse response;
    grpc::ClientContext context;
    setDeadline(context, deadlineSeconds);
    if (!stub.SendQueueMessagesBatch(&context, request, &response).ok() || response.haveerrors() ||
        response.results_size() != static_cast<int>(ids.size()))
        return false;
    for (const auto& result : response.results()) {
        if (result.iserror())
            return false;
    }
    return true;
}

// A pull (acked by the broker before it answers); false on an RPC error, whose
// code goes to `status` when given.
inline bool pull(kubemq::kubemq::Stub& stub, const std::string& channel, int max, int waitSeconds,
                 std::vector<kubemq::QueueMessage>* out, int deadlineSeconds = 10,
                 grpc::StatusCode* status = nullptr) {
    kubemq::ReceiveQueueMessagesRequest request;
    request.set_requestid("pull");
    request.set_clientid("durable-test");
    request.set_channel(channel);
    request.set_maxnumberofmessages(max);
    request.set_waittimeseconds(waitSeconds);
    kubemq::ReceiveQueueMessagesResponse response;
    grpc::ClientContext context;
    setDeadline(context, deadlineSeconds);
    const grpc::Status rpc = stub.ReceiveQueueMessages(&context, request, &response);
    if (status)
        *status = rpc.error_code();
    if (!rpc.ok() || response.iserror())
        return false;
    for (auto& message : *response.mutable_messages())
        out->push_back(std::move(message));
    return true;
}

}  // namespace qs::test
