#pragma once

#include <functional>
#include <memory>
#include <string>

struct MHD_Daemon;

namespace qs::metrics {

// A scrape endpoint: GET or HEAD of /metrics on 127.0.0.1:port answers with
// what `collect` returns, as the Prometheus text format (Content-Type
// kExpositionContentType). Other paths get 404, other methods 405. Served by
// libmicrohttpd on one thread of its own.
//
// Threading: `collect` runs on the server's thread, concurrently with
// whatever else the process does, so it must be thread-safe; it runs until
// the destructor returns. start() and the destructor belong to one owning
// thread; port() is safe from any thread.
class MetricsHttpServer {
public:
    // Returns the exposition text; may throw, which answers 500.
    using Collect = std::function<std::string()>;

    // Binds 127.0.0.1:port (0 = a free port) and starts serving. Null, with
    // *error saying why (port taken, invalid, or the server failed), when it
    // cannot; nothing is left listening then.
    static std::unique_ptr<MetricsHttpServer> start(int port, Collect collect,
                                                    std::string* error);

    ~MetricsHttpServer();  // stops serving, joins the thread, frees the port
    MetricsHttpServer(const MetricsHttpServer&) = delete;
    MetricsHttpServer& operator=(const MetricsHttpServer&) = delete;

    int port() const { return port_; }  // the bound port

private:
    MetricsHttpServer(int port, Collect collect);

    const int port_;
    const Collect collect_;
    MHD_Daemon* daemon_ = nullptr;

    friend struct MetricsRequestHandler;
};

}  // namespace qs::metrics
