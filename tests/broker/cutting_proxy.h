#pragma once

// A TCP proxy on 127.0.0.1 (ephemeral port) in front of a gRPC server, for
// transport fault tests. It forwards bytes both ways and reads the client's
// HTTP/2 frames as they pass, so a test can:
// - armCut(): forward the next DATA frame from a client only up to the middle
//   of its payload, then close that connection both ways: the server is left
//   with a half-written frame;
// - armCutToClient(): the same for the next DATA frame from the server: the
//   client is left with half an answer;
// - dropAll(): close every connection at once, as a client whose process or
//   network went away.
//
// Threading: every method is safe from any thread. Each connection runs two
// pump threads; the destructor (or stop()) closes everything and joins them.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace qs::test {

class CuttingProxy {
public:
    // Forwards to target "host:port" (IPv4 loopback). ok() is false, with
    // error(), when the listening socket could not be opened.
    explicit CuttingProxy(const std::string& target);
    ~CuttingProxy();
    CuttingProxy(const CuttingProxy&) = delete;
    CuttingProxy& operator=(const CuttingProxy&) = delete;

    bool ok() const { return listenFd_ >= 0; }
    const std::string& error() const { return error_; }
    std::string address() const;  // "127.0.0.1:port" clients dial

    enum class Direction { ToServer, ToClient };
    void armCut(Direction direction = Direction::ToServer);
    void armCutToClient() { armCut(Direction::ToClient); }
    // Connections closed by a cut so far; a cut closes exactly one.
    int cuts() const { return cuts_.load(); }
    // Bytes of the frame cut last: its whole size, and how many got through.
    std::uint32_t cutFrameBytes() const { return cutFrameBytes_.load(); }
    std::uint32_t cutForwardedBytes() const { return cutForwardedBytes_.load(); }

    void dropAll();
    int connectionsAccepted() const { return accepted_.load(); }
    void stop();  // closes the listener and every connection, joins every thread

private:
    struct Connection;
    void acceptLoop();
    // Forwards one direction of `c` until it ends or a cut armed for it closes it.
    void pump(const std::shared_ptr<Connection>& c, Direction direction);
    bool takeCut(Direction direction);

    std::string targetHost_;
    int targetPort_ = 0;
    int listenFd_ = -1;
    int port_ = 0;
    std::string error_;
    std::atomic<bool> stopping_{false};
    std::atomic<bool> cutToServerArmed_{false};
    std::atomic<bool> cutToClientArmed_{false};
    std::atomic<int> cuts_{0};
    std::atomic<int> accepted_{0};
    std::atomic<std::uint32_t> cutFrameBytes_{0};
    std::atomic<std::uint32_t> cutForwardedBytes_{0};
    std::mutex mutex_;
    std::vector<std::shared_ptr<Connection>> connections_;
    std::vector<std::thread> threads_;
    std::thread acceptThread_;
};

}  // namespace qs::test
