#include "metrics/metrics_http_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <string_view>

#include "metrics/exposition.h"

namespace qs::metrics {

namespace {

constexpr std::string_view kMetricsPath = "/metrics";
constexpr unsigned kConnectionLimit = 16;
constexpr unsigned kIdleTimeoutSeconds = 10;

std::string listenError(int port, int errorNumber) {
    return "cannot listen on 127.0.0.1:" + std::to_string(port) +
           " for metrics: " + std::strerror(errorNumber);
}

// A listening TCP socket on 127.0.0.1:port, or -1 with *error set.
int bindLoopback(int port, std::string* error) {
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        *error = listenError(port, errno);
        return -1;
    }
    const int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));  // TIME_WAIT only, never a listener
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0 ||
        listen(fd, SOMAXCONN) != 0) {
        *error = listenError(port, errno);
        close(fd);
        return -1;
    }
    return fd;
}

int boundPort(int fd) {
    sockaddr_in address{};
    socklen_t length = sizeof(address);
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0)
        return 0;
    return ntohs(address.sin_port);
}

MHD_Result respond(MHD_Connection* connection, unsigned status, std::string_view body,
                   std::string_view contentType, const char* allow = nullptr) {
    MHD_Response* response = MHD_create_response_from_buffer(
        body.size(), const_cast<char*>(body.data()), MHD_RESPMEM_MUST_COPY);
    if (response == nullptr)
        return MHD_NO;
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE,
                            std::string(contentType).c_str());
    if (allow != nullptr)
        MHD_add_response_header(response, MHD_HTTP_HEADER_ALLOW, allow);
    const MHD_Result queued = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return queued;
}

}  // namespace

// libmicrohttpd's access handler, on the server's thread; called at least
// twice per request: once its headers are in, then for the body (if any) and
// when it is complete.
struct MetricsRequestHandler {
    static MHD_Result handle(void* self, MHD_Connection* connection, const char* url,
                             const char* method, const char* /*version*/,
                             const char* /*uploadData*/, size_t* uploadDataSize,
                             void** requestState) {
        constexpr std::string_view kText = "text/plain; charset=utf-8";
        const std::string_view verb = method;
        if (verb != MHD_HTTP_METHOD_GET && verb != MHD_HTTP_METHOD_HEAD) {
            // Answered at once: the body is never read and the connection closes.
            return respond(connection, MHD_HTTP_METHOD_NOT_ALLOWED,
                           "only GET and HEAD are served\n", kText, "GET, HEAD");
        }
        // Answering before the request is complete would close the connection;
        // scrapers keep theirs open, so wait for the end of the request.
        if (*requestState == nullptr) {
            *requestState = self;
            return MHD_YES;
        }
        if (*uploadDataSize != 0) {
            *uploadDataSize = 0;  // a GET with a body: the body is ignored
            return MHD_YES;
        }
        if (std::string_view(url) != kMetricsPath)
            return respond(connection, MHD_HTTP_NOT_FOUND, "not found: metrics are at /metrics\n",
                           kText);
        std::string text;
        try {
            text = static_cast<MetricsHttpServer*>(self)->collect_();
        } catch (const std::exception& failure) {
            return respond(connection, MHD_HTTP_INTERNAL_SERVER_ERROR,
                           std::string("metrics failed: ") + failure.what() + '\n', kText);
        }
        return respond(connection, MHD_HTTP_OK, text, kExpositionContentType);
    }
};

MetricsHttpServer::MetricsHttpServer(int port, Collect collect)
    : port_(port), collect_(std::move(collect)) {}

std::unique_ptr<MetricsHttpServer> MetricsHttpServer::start(int port, Collect collect,
                                                            std::string* error) {
    std::string reason;
    if (port < 0 || port > 65535) {
        reason = "invalid metrics port " + std::to_string(port) + " (expected 0-65535)";
    } else if (const int fd = bindLoopback(port, &reason); fd >= 0) {
        std::unique_ptr<MetricsHttpServer> server(
            new MetricsHttpServer(boundPort(fd), std::move(collect)));
        // The daemon owns the socket from here on: it closes it when stopped.
        server->daemon_ = MHD_start_daemon(
            MHD_USE_AUTO_INTERNAL_THREAD, 0, nullptr, nullptr, &MetricsRequestHandler::handle,
            server.get(), MHD_OPTION_LISTEN_SOCKET, fd, MHD_OPTION_CONNECTION_LIMIT,
            kConnectionLimit, MHD_OPTION_CONNECTION_TIMEOUT, kIdleTimeoutSeconds, MHD_OPTION_END);
        if (server->daemon_ != nullptr && server->port_ != 0)
            return server;
        if (server->daemon_ == nullptr)
            close(fd);
        reason = "cannot start the metrics server on 127.0.0.1:" + std::to_string(port);
    }
    if (error != nullptr)
        *error = reason;
    return nullptr;
}

MetricsHttpServer::~MetricsHttpServer() {
    if (daemon_ != nullptr)
        MHD_stop_daemon(daemon_);
}

}  // namespace qs::metrics
