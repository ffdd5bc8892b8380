#pragma once

#include <grpcpp/grpcpp.h>

#include "broker/service_context.h"
#include "kubemq.grpc.pb.h"

namespace qs::broker {

// One QueuesUpstream stream (spec §2.9): every request is answered with one
// result per message; the RPC ends with OK once the client half-closes and
// everything read was answered (spec §5.3).
grpc::Status runUpstream(ServiceContext& context, grpc::ServerContext& server,
                         grpc::ServerReaderWriter<kubemq::QueuesUpstreamResponse,
                                                  kubemq::QueuesUpstreamRequest>& stream);

}  // namespace qs::broker
