#pragma once

#include <memory>
#include <string>

// The gRPC floor: a kubemq.kubemq server that does no queue work, so that what a
// client measures against it is what gRPC C++ itself costs on this machine. It is
// built like qs::broker::Broker's server (the synchronous API, one handler thread per
// call or stream, the same thread quota and message-size limits) and answers each
// request with the smallest reply a client accepts:
// - QueuesUpstream / SendQueueMessage: one success result per message, the MessageID
//   echoed, nothing stored;
// - QueuesDownstream Get(N), N from 1 to 100,000: N copies of a message built once
//   with a body of the configured size, fresh sequences, a transaction id;
//   settlements close the transaction and, like the real server's, are answered
//   only on error;
//   ActiveOffsets lists an open transaction's sequences;
// - Ping; every other RPC is UNIMPLEMENTED.
// Owned by the benchmark that measures it; start() and stop() from one thread.
namespace qs::bench {

class FloorServer {
public:
    explicit FloorServer(int bodyBytes);
    ~FloorServer();  // stops
    FloorServer(const FloorServer&) = delete;
    FloorServer& operator=(const FloorServer&) = delete;

    // Listens on 127.0.0.1 on an ephemeral port; false with *error when it cannot.
    bool start(std::string* error);
    void stop();
    std::string address() const;  // "127.0.0.1:PORT" once started

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace qs::bench
