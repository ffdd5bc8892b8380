#include "broker/rpc_counting_interceptor.h"

#include <string>

namespace qs::broker {

namespace {

// One per RPC, created by gRPC when the call starts and deleted when it ends.
class RpcCountingInterceptor final : public grpc::experimental::Interceptor {
public:
    RpcCountingInterceptor(RpcCounters& counters, std::string_view method)
        : counters_(counters), method_(method) {}

    void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
        if (methods->QueryInterceptionHookPoint(
                grpc::experimental::InterceptionHookPoints::PRE_SEND_STATUS)) {
            const grpc::Status status = methods->GetSendStatus();
            if (!status.ok())
                counters_.countError(method_, static_cast<int>(status.error_code()));
        }
        methods->Proceed();
    }

private:
    RpcCounters& counters_;
    const std::string method_;
};

class RpcCountingInterceptorFactory final
    : public grpc::experimental::ServerInterceptorFactoryInterface {
public:
    explicit RpcCountingInterceptorFactory(RpcCounters& counters) : counters_(counters) {}

    grpc::experimental::Interceptor* CreateServerInterceptor(
        grpc::experimental::ServerRpcInfo* info) override {
        const std::string_view method =
            shortMethodName(info->method() != nullptr ? info->method() : "");
        counters_.countRequest(method);
        return new RpcCountingInterceptor(counters_, method);
    }

private:
    RpcCounters& counters_;
};

}  // namespace

std::string_view shortMethodName(std::string_view fullMethod) {
    const auto slash = fullMethod.rfind('/');
    return slash == std::string_view::npos ? fullMethod : fullMethod.substr(slash + 1);
}

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
makeRpcCountingInterceptorFactory(RpcCounters& counters) {
    return std::make_unique<RpcCountingInterceptorFactory>(counters);
}

}  // namespace qs::broker
