#pragma once

#include <grpcpp/grpcpp.h>

#include <string>

namespace qs::broker {

// Optional token check (spec §2.16): metadata `authorization: <token>`, the
// raw token. With an empty token everything passes. Thread-safe (immutable).
class AuthGate {
public:
    explicit AuthGate(std::string token) : token_(std::move(token)) {}

    // OK, or UNAUTHENTICATED "Error 421: authentication verification failed, <reason>".
    grpc::Status check(const grpc::ServerContextBase& context) const;

private:
    std::string token_;
};

}  // namespace qs::broker
