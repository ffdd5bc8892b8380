#include "client/error.h"

#include <utility>

namespace qs::client {

std::string_view toString(ErrorCategory category) {
    switch (category) {
        case ErrorCategory::InvalidArgument:
            return "invalid_argument";
        case ErrorCategory::Unavailable:
            return "unavailable";
        case ErrorCategory::Timeout:
            return "timeout";
        case ErrorCategory::Auth:
            return "auth";
        case ErrorCategory::ServerError:
            return "server_error";
        case ErrorCategory::Cancelled:
            return "cancelled";
        case ErrorCategory::StreamLost:
            return "stream_lost";
        case ErrorCategory::Unsupported:
            return "unsupported";
        case ErrorCategory::VisibilityExpired:
            return "visibility_expired";
    }
    return "unknown";
}

std::string Error::describe() const {
    std::string text(toString(category));
    text += ": ";
    text += message;
    return text;
}

Error invalidArgument(std::string message) {
    return Error{ErrorCategory::InvalidArgument, std::move(message), 0};
}

}  // namespace qs::client
