#include "broker/auth_gate.h"

#include "broker/kubemq_errors.h"

namespace qs::broker {

grpc::Status AuthGate::check(const grpc::ServerContextBase& context) const {
    if (token_.empty())
        return grpc::Status::OK;
    const auto& metadata = context.client_metadata();
    auto it = metadata.find("authorization");
    if (it == metadata.end() || it->second.empty())
        return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                            std::string(errors::kAuthFailed) + "missing authorization token");
    if (std::string_view(it->second.data(), it->second.size()) != token_)
        return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                            std::string(errors::kAuthFailed) + "invalid authorization token");
    return grpc::Status::OK;
}

}  // namespace qs::broker
