#pragma once

#include <chrono>
#include <string>

namespace qs::client {

// TLS settings. Files are read when the client is created; a missing or
// unreadable file is an InvalidArgument error naming the file.
struct TlsOptions {
    bool enabled = false;
    std::string caFile;              // PEM roots; empty = system roots
    std::string certFile;            // client certificate (mutual TLS); needs keyFile
    std::string keyFile;             // client private key; needs certFile
    std::string serverNameOverride;  // SNI / target name override; empty = from address
};

struct ClientOptions {
    std::string address;  // "host:port"
    std::string clientId;
    std::string authToken;  // sent as gRPC metadata "authorization: <token>" (not on Ping)
    TlsOptions tls;

    // Check arguments locally the way the official SDKs do (channel names,
    // max messages, wait timeouts, message policy ranges). false = send as is
    // and let the server answer (useful to exercise the server's validation).
    bool validateArguments = true;

    // Deadline for short unary calls (ping, send, batch, QueuesInfo).
    std::chrono::milliseconds callTimeout{10000};
    // Extra time allowed on top of a long poll's wait before it counts as Timeout.
    std::chrono::milliseconds pollGrace{5000};
    // How long a downstream stream may take to connect before Unavailable.
    std::chrono::milliseconds connectTimeout{5000};
    // Downstream re-open backoff after a stream failure: starts here, doubles, capped.
    std::chrono::milliseconds reconnectBackoffInitial{100};
    std::chrono::milliseconds reconnectBackoffMax{5000};
    // Channel management (SendRequest) Timeout sent to the server. The first call
    // on a client uses the shorter probe timeout: a server without channel
    // management (community v2.4.0) only answers "Error 301" after it.
    std::chrono::milliseconds channelManagementTimeout{10000};
    std::chrono::milliseconds channelManagementProbeTimeout{3000};
};

}  // namespace qs::client
