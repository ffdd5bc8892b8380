#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "broker/sync_mode.h"

namespace qs {
class BrokerObserver;
}

namespace qs::broker {

// Server-side TLS. PEM files are read by start(); a missing or empty file makes
// start() fail with an error naming it. With clientCaFile set, clients must
// present a certificate signed by that CA (mutual TLS).
struct BrokerTlsOptions {
    std::string certFile;      // server certificate chain; empty = plaintext
    std::string keyFile;       // server private key; required with certFile
    std::string clientCaFile;  // empty = no client certificate asked for
};

struct BrokerOptions {
    std::string bindAddress = "127.0.0.1";
    int port = 50000;       // 0 = ephemeral; the bound port is reported by port()
    std::string authToken;  // empty = no auth; otherwise required on every RPC but Ping
    std::string version = "v2.4.0";
    std::string hostName;                     // empty = derived from the OS hostname (spec §2.14)
    std::size_t maxMessageBytes = 104857600;  // gRPC send/receive limit (spec §1.4)
    BrokerTlsOptions tls;
    // Durable store (docs/broker.md, Durable store): every queue's messages
    // survive a restart on the same directory. Empty = memory only.
    std::string dataDirectory;
    SyncMode sync = SyncMode::Batch;
    int syncIntervalMs = 50;  // SyncMode::Batch: the longest a written change waits for disk
    // Compaction starts once the store's files exceed twice the live data and this.
    std::size_t compactionFloorBytes = 16u * 1024u * 1024u;
    // The store's fsync of its log (default fdatasync); tests inject a failing
    // one. Called from the broker's threads.
    std::function<int(int fd)> syncFile;
    // KubeMQ v2.4.0 can lose the answer that ends a v1 stream (a settlement's
    // success, Error 138, Error 129): it cancels the stream before the answer
    // is written (docs/broker.md). Tests reproduce that: when this returns
    // true, the stream ends with status OK, unanswered, after doing what the
    // answer would have said. Called from the session's thread. Null = answer.
    std::function<bool()> loseEndingV1Answer;
    // One line per client connect / disconnect and per error. Called from gRPC
    // threads; must be thread-safe. Null = silent.
    std::function<void(std::string_view line)> log;
};

// The embedded KubeMQ-compatible broker: a gRPC server on bindAddress:port
// serving the queues API of a KubeMQ v2.4.0 server (see docs/broker.md for the
// deliberate differences). Messages live in memory and, with
// BrokerOptions::dataDirectory, also in a durable store opened by the first
// start() and closed by the destructor.
//
// Threading: construct, start(), stop() and destroy from one owning thread that
// is not a gRPC handler thread. port(), address(), isRunning(),
// setObserver() and metricsText() are safe from any thread.
class Broker {
public:
    explicit Broker(BrokerOptions options);
    ~Broker();  // stops and joins everything
    Broker(const Broker&) = delete;
    Broker& operator=(const Broker&) = delete;

    // Binds and starts serving. False, with *error describing why (for example
    // the port is taken, or the data directory is unusable or in use).
    bool start(std::string* error = nullptr);

    // Cancels open streams and long polls and stops serving. Idempotent.
    void stop();

    bool isRunning() const;
    int port() const;             // the bound port (valid after start())
    std::string address() const;  // "host:port" clients can dial

    // At most one observer; null removes it. See BrokerObserver for threading.
    void setObserver(BrokerObserver* observer);

    // The broker's figures (every channel, every RPC method) as Prometheus text
    // exposition format 0.0.4 (docs/broker.md, Metrics). Safe from any thread,
    // also while stopped; counters keep growing across stop() and start().
    std::string metricsText() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace qs::broker
