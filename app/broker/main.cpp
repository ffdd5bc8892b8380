// queuescope-broker: the embedded KubeMQ-compatible queue broker as a
// stand-alone process (for SDK conformance runs and manual testing).
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "broker/broker.h"
#include "common/version.h"
#include "metrics/metrics_http_server.h"

namespace {

void printUsage(std::ostream& out) {
    out << "Usage: queuescope-broker [--port N] [--bind ADDR] [--auth-token T]\n"
           "                         [--tls-cert PEM --tls-key PEM [--tls-client-ca PEM]]\n"
           "                         [--data-dir DIR [--sync always|batch|none]]\n"
           "                         [--metrics-port N] [--help] [--version]\n"
           "  --port N         TCP port to listen on (default 50000; 0 = pick a free one)\n"
           "  --bind ADDR      address to bind (default 127.0.0.1)\n"
           "  --auth-token T   require metadata 'authorization: T' on every RPC but Ping\n"
           "  --tls-cert PEM   serve TLS with this certificate chain (needs --tls-key)\n"
           "  --tls-key PEM    private key of --tls-cert\n"
           "  --tls-client-ca PEM  require client certificates signed by this CA (mutual TLS)\n"
           "  --data-dir DIR   keep every queue in DIR across restarts (default: memory only)\n"
           "  --sync MODE      with --data-dir: always = answer a send after fsync (group\n"
           "                   commit); acks written at once, fsynced within 50 ms;\n"
           "                   batch = fsync every 50 ms, nothing lost on a process crash\n"
           "                   (default); none = the OS decides when data reaches disk\n"
           "  --metrics-port N serve Prometheus metrics at http://127.0.0.1:N/metrics\n"
           "                   (0 = pick a free port; default: no metrics endpoint)\n"
           "  --help           show this help\n"
           "  --version        print the version and exit\n"
           "Prints 'queuescope-broker listening on <host>:<port>' once serving, then\n"
           "'queuescope-broker metrics on http://127.0.0.1:<port>/metrics' with --metrics-port.\n";
}

bool parsePort(std::string_view text, int* port) {
    if (text.empty() || text.size() > 5)
        return false;
    int value = 0;
    for (char c : text) {
        if (c < '0' || c > '9')
            return false;
        value = value * 10 + (c - '0');
    }
    if (value > 65535)
        return false;
    *port = value;
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    qs::broker::BrokerOptions options;
    bool syncGiven = false;
    int metricsPort = -1;  // -1 = no metrics endpoint
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        auto value = [&](std::string_view flag) -> const char* {
            if (i + 1 >= argc) {
                std::cerr << "queuescope-broker: " << flag << " needs a value\n";
                std::exit(2);
            }
            return argv[++i];
        };
        if (arg == "--help" || arg == "-h") {
            printUsage(std::cout);
            return 0;
        } else if (arg == "--version") {
            std::cout << "queuescope-broker " << qs::kVersion << '\n';
            return 0;
        } else if (arg == "--port") {
            const char* text = value(arg);
            if (!parsePort(text, &options.port)) {
                std::cerr << "queuescope-broker: invalid port '" << text
                          << "' (expected 0-65535)\n";
                return 2;
            }
        } else if (arg == "--metrics-port") {
            const char* text = value(arg);
            if (!parsePort(text, &metricsPort)) {
                std::cerr << "queuescope-broker: invalid metrics port '" << text
                          << "' (expected 0-65535)\n";
                return 2;
            }
        } else if (arg == "--bind") {
            options.bindAddress = value(arg);
            if (options.bindAddress.empty()) {
                std::cerr << "queuescope-broker: --bind needs a non-empty address\n";
                return 2;
            }
        } else if (arg == "--auth-token") {
            options.authToken = value(arg);
        } else if (arg == "--tls-cert") {
            options.tls.certFile = value(arg);
        } else if (arg == "--tls-key") {
            options.tls.keyFile = value(arg);
        } else if (arg == "--tls-client-ca") {
            options.tls.clientCaFile = value(arg);
        } else if (arg == "--data-dir") {
            options.dataDirectory = value(arg);
            if (options.dataDirectory.empty()) {
                std::cerr << "queuescope-broker: --data-dir needs a non-empty path\n";
                return 2;
            }
        } else if (arg == "--sync") {
            const char* text = value(arg);
            const auto mode = qs::broker::parseSyncMode(text);
            if (!mode) {
                std::cerr << "queuescope-broker: invalid --sync '" << text
                          << "' (expected always, batch or none)\n";
                return 2;
            }
            options.sync = *mode;
            syncGiven = true;
        } else {
            std::cerr << "queuescope-broker: unknown argument '" << arg << "'\n";
            printUsage(std::cerr);
            return 2;
        }
    }

    if (syncGiven && options.dataDirectory.empty()) {
        std::cerr << "queuescope-broker: --sync needs --data-dir\n";
        return 2;
    }

    static std::mutex logMutex;
    options.log = [](std::string_view line) {
        std::lock_guard lock(logMutex);
        std::cerr << "queuescope-broker: " << line << '\n';
    };

    // Block the stop signals before any thread starts so only sigwait sees them.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);

    qs::broker::Broker broker(options);
    // The metrics port is bound before the broker starts, so a taken port
    // stops the process before it serves anything.
    std::unique_ptr<qs::metrics::MetricsHttpServer> metrics;
    if (metricsPort >= 0) {
        std::string error;
        metrics = qs::metrics::MetricsHttpServer::start(
            metricsPort, [&broker] { return broker.metricsText(); }, &error);
        if (!metrics) {
            std::cerr << "queuescope-broker: " << error << '\n';
            return 1;
        }
    }
    if (!broker.start()) {
        return 1;  // the reason was already printed through options.log
    }
    std::cout << "queuescope-broker listening on " << broker.address() << std::endl;
    if (metrics) {
        std::cout << "queuescope-broker metrics on http://127.0.0.1:" << metrics->port()
                  << "/metrics" << std::endl;
    }

    int received = 0;
    sigwait(&signals, &received);
    std::cerr << "queuescope-broker: stopping (signal " << received << ")\n";
    metrics.reset();  // no scrape reads the broker while it stops
    broker.stop();
    return 0;
}
