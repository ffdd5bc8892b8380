#pragma once

#include <grpcpp/grpcpp.h>

#include <string>

#include "broker/service_context.h"
#include "kubemq.grpc.pb.h"

namespace qs::broker {

// The gRPC service `kubemq.kubemq`: converts requests, checks auth, and
// dispatches to the engine and the per-stream sessions. StreamQueueMessage
// uses the callback API (see StreamMessageSession); everything else is
// synchronous, one gRPC handler thread per call or stream.
class KubemqService final
    : public kubemq::kubemq::WithCallbackMethod_StreamQueueMessage<kubemq::kubemq::Service> {
public:
    explicit KubemqService(ServiceContext& context);

    grpc::Status Ping(grpc::ServerContext* server, const kubemq::Empty* request,
                      kubemq::PingResult* reply) override;
    grpc::Status SendQueueMessage(grpc::ServerContext* server, const kubemq::QueueMessage* request,
                                  kubemq::SendQueueMessageResult* reply) override;
    grpc::Status SendQueueMessagesBatch(grpc::ServerContext* server,
                                        const kubemq::QueueMessagesBatchRequest* request,
                                        kubemq::QueueMessagesBatchResponse* reply) override;
    grpc::Status ReceiveQueueMessages(grpc::ServerContext* server,
                                      const kubemq::ReceiveQueueMessagesRequest* request,
                                      kubemq::ReceiveQueueMessagesResponse* reply) override;
    grpc::Status AckAllQueueMessages(grpc::ServerContext* server,
                                     const kubemq::AckAllQueueMessagesRequest* request,
                                     kubemq::AckAllQueueMessagesResponse* reply) override;
    grpc::Status QueuesInfo(grpc::ServerContext* server, const kubemq::QueuesInfoRequest* request,
                            kubemq::QueuesInfoResponse* reply) override;
    grpc::Status SendRequest(grpc::ServerContext* server, const kubemq::Request* request,
                             kubemq::Response* reply) override;
    grpc::Status QueuesDownstream(
        grpc::ServerContext* server,
        grpc::ServerReaderWriter<kubemq::QueuesDownstreamResponse, kubemq::QueuesDownstreamRequest>*
            stream) override;
    grpc::Status QueuesUpstream(
        grpc::ServerContext* server,
        grpc::ServerReaderWriter<kubemq::QueuesUpstreamResponse, kubemq::QueuesUpstreamRequest>*
            stream) override;
    grpc::ServerBidiReactor<kubemq::StreamQueueMessagesRequest,
                            kubemq::StreamQueueMessagesResponse>*
    StreamQueueMessage(grpc::CallbackServerContext* server) override;

    // Events, commands and queries are not served by this queues-only broker.
    grpc::Status SendEvent(grpc::ServerContext* server, const kubemq::Event* request,
                           kubemq::Result* reply) override;
    grpc::Status SendEventsStream(
        grpc::ServerContext* server,
        grpc::ServerReaderWriter<kubemq::Result, kubemq::Event>* stream) override;
    grpc::Status SubscribeToEvents(grpc::ServerContext* server, const kubemq::Subscribe* request,
                                   grpc::ServerWriter<kubemq::EventReceive>* writer) override;
    grpc::Status SubscribeToRequests(grpc::ServerContext* server, const kubemq::Subscribe* request,
                                     grpc::ServerWriter<kubemq::Request>* writer) override;
    grpc::Status SendResponse(grpc::ServerContext* server, const kubemq::Response* request,
                              kubemq::Empty* reply) override;

private:
    ServiceContext& context_;
    std::string host_;
};

// Ping's Host for a raw OS host name (spec §2.14): '.' → '_', "kubemq-" prefix
// when it starts with a digit.
std::string pingHostName(std::string hostName);

}  // namespace qs::broker
