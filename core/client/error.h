#pragma once

#include <string>
#include <string_view>

namespace qs::client {

// What went wrong, coarse enough for a caller to decide what to do next.
enum class ErrorCategory {
    InvalidArgument,  // rejected before anything was sent (or the server said the input is bad)
    Unavailable,      // no connection to the server (refused, unreachable, connection dropped)
    Timeout,          // a deadline passed without an answer
    Auth,             // UNAUTHENTICATED / PERMISSION_DENIED (token missing or wrong)
    ServerError,      // the server answered with an error (in-band Error text or a gRPC status)
    Cancelled,        // cancel() / shutdown() / abandon() interrupted the call
    StreamLost,       // the downstream stream broke: its unsettled messages WILL BE REDELIVERED
    Unsupported,      // the server does not implement the operation (e.g. channel management)
    VisibilityExpired,  // v1 stream: the visibility timer ran out before the settlement; the
                        // server took the message back (tail, receive count + 1)
};

// Stable lower-case name ("invalid_argument", "stream_lost", ...) for logs and tests.
std::string_view toString(ErrorCategory category);

struct Error {
    ErrorCategory category = ErrorCategory::ServerError;
    std::string message;  // human readable; server texts are passed through verbatim
    int grpcCode = 0;     // the gRPC status code when the error came from gRPC, else 0

    // True when messages this client had reserved go back to the queue and will be
    // delivered again (to this client after it reconnects, or to another consumer).
    bool willBeRedelivered() const {
        return category == ErrorCategory::StreamLost ||
               category == ErrorCategory::VisibilityExpired;
    }

    // "<category>: <message>"
    std::string describe() const;
};

// An InvalidArgument error: bad input caught before anything reached a server.
Error invalidArgument(std::string message);

}  // namespace qs::client
