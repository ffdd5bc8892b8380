#include "broker/upstream_session.h"

namespace qs::broker {

grpc::Status runUpstream(ServiceContext& context, grpc::ServerContext& server,
                         grpc::ServerReaderWriter<kubemq::QueuesUpstreamResponse,
                                                  kubemq::QueuesUpstreamRequest>& stream) {
    bool announced = false;
    std::string clientId;
    kubemq::QueuesUpstreamRequest request;
    kubemq::QueuesUpstreamResponse response;
    while (stream.Read(&request)) {
        if (!announced) {
            if (request.messages_size() > 0)
                clientId = request.messages(0).clientid();
            context.clientEvent(true, clientId, server.peer(), "QueuesUpstream");
            announced = true;
        }
        response.Clear();
        response.set_refrequestid(request.requestid());
        if (request.messages().empty()) {
            response.set_iserror(true);
            response.set_error("no messages to send");
            context.logError("QueuesUpstream", clientId, response.error());
        } else {
            response.mutable_results()->Reserve(request.messages_size());
            const EventSink::Group group(context.events);           // one hand-over per request
            const QueueEngine::CommitScope commit(context.engine);  // one write / fsync too
            for (const auto& message : request.messages()) {
                auto* result = response.add_results();
                *result = context.sender.send(message);
                if (result->iserror())
                    context.logError("QueuesUpstream", message.clientid(), result->error());
            }
        }
        if (!stream.Write(response))
            break;
    }
    if (!announced)
        context.clientEvent(true, {}, server.peer(), "QueuesUpstream");
    context.clientEvent(false, clientId, server.peer(), "QueuesUpstream");
    return grpc::Status::OK;
}

}  // namespace qs::broker
