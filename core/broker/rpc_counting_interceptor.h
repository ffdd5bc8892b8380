#pragma once

#include <grpcpp/support/server_interceptor.h>

#include <memory>
#include <string_view>

#include "broker/rpc_counters.h"

namespace qs::broker {

// The one place RPCs are counted: a gRPC server interceptor that counts
// every call of every method when it starts, and its status when it is not
// OK, into `counters` (which must outlive the server). Methods are named
// without their service ("SendQueueMessage").
std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
makeRpcCountingInterceptorFactory(RpcCounters& counters);

// "/kubemq.kubemq/SendQueueMessage" -> "SendQueueMessage".
std::string_view shortMethodName(std::string_view fullMethod);

}  // namespace qs::broker
