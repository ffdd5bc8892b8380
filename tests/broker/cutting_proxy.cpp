#include "cutting_proxy.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace qs::test {

namespace {

constexpr std::uint64_t kHttp2PrefaceBytes = 24;  // "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
constexpr std::size_t kFrameHeaderBytes = 9;
constexpr std::uint8_t kDataFrame = 0;

bool writeAllTo(int fd, const char* data, std::size_t size) {
    while (size > 0) {
        const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

ssize_t readSome(int fd, char* buffer, std::size_t size) {
    for (;;) {
        const ssize_t n = ::recv(fd, buffer, size, 0);
        if (n < 0 && errno == EINTR)
            continue;
        return n;
    }
}

int connectLoopback(const std::string& host, int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    if (::inet_pton(AF_INET, host.c_str(), &addr.sin_addr) != 1 ||
        ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// Follows the HTTP/2 frames of one direction as its bytes pass. Only the
// client's direction starts with the connection preface.
class FrameTracker {
public:
    explicit FrameTracker(std::uint64_t prefaceBytes) : prefaceBytes_(prefaceBytes) {}
    // Feeds `size` bytes; `onHeader(type, length, payloadStart)` is told of each
    // complete frame header, payloadStart counted from the connection's first byte.
    template <typename OnHeader>
    void feed(const char* data, std::size_t size, OnHeader&& onHeader) {
        for (std::size_t i = 0; i < size;) {
            if (seen_ < prefaceBytes_) {
                const auto take = std::min<std::uint64_t>(prefaceBytes_ - seen_, size - i);
                seen_ += take;
                i += take;
            } else if (payloadLeft_ > 0) {
                const auto take = std::min<std::uint64_t>(payloadLeft_, size - i);
                payloadLeft_ -= take;
                seen_ += take;
                i += take;
            } else {
                header_[headerBytes_++] = static_cast<unsigned char>(data[i++]);
                ++seen_;
                if (headerBytes_ == kFrameHeaderBytes) {
                    headerBytes_ = 0;
                    payloadLeft_ = (std::uint32_t{header_[0]} << 16) |
                                   (std::uint32_t{header_[1]} << 8) | header_[2];
                    onHeader(header_[3], static_cast<std::uint32_t>(payloadLeft_), seen_);
                }
            }
        }
    }
    std::uint64_t seen() const { return seen_; }

private:
    const std::uint64_t prefaceBytes_;
    std::uint64_t seen_ = 0;
    std::uint64_t payloadLeft_ = 0;
    unsigned char header_[kFrameHeaderBytes] = {};
    std::size_t headerBytes_ = 0;
};

}  // namespace

struct CuttingProxy::Connection {
    int clientFd = -1;
    int serverFd = -1;
    // Wakes both pumps; the descriptors close with the last reference, after
    // both pumps are done with them.
    void close() {
        ::shutdown(clientFd, SHUT_RDWR);
        if (serverFd >= 0)
            ::shutdown(serverFd, SHUT_RDWR);
    }
    ~Connection() {
        ::close(clientFd);
        if (serverFd >= 0)
            ::close(serverFd);
    }
};

CuttingProxy::CuttingProxy(const std::string& target) {
    const auto colon = target.rfind(':');
    targetHost_ = target.substr(0, colon);
    targetPort_ = std::atoi(target.c_str() + colon + 1);
    if (targetHost_ == "localhost")
        targetHost_ = "127.0.0.1";
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof addr;
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(fd, 16) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &length) != 0) {
        error_ = std::string("proxy listen: ") + std::strerror(errno);
        if (fd >= 0)
            ::close(fd);
        return;
    }
    listenFd_ = fd;
    port_ = ntohs(addr.sin_port);
    acceptThread_ = std::thread([this] { acceptLoop(); });
}

CuttingProxy::~CuttingProxy() {
    stop();
}

std::string CuttingProxy::address() const {
    return "127.0.0.1:" + std::to_string(port_);
}

void CuttingProxy::armCut(Direction direction) {
    (direction == Direction::ToServer ? cutToServerArmed_ : cutToClientArmed_) = true;
}

bool CuttingProxy::takeCut(Direction direction) {
    return (direction == Direction::ToServer ? cutToServerArmed_ : cutToClientArmed_)
        .exchange(false);
}

void CuttingProxy::dropAll() {
    std::lock_guard lock(mutex_);
    for (const auto& c : connections_)
        c->close();
}

void CuttingProxy::stop() {
    if (listenFd_ < 0 || stopping_.exchange(true))
        return;
    ::shutdown(listenFd_, SHUT_RDWR);  // wakes accept()
    if (acceptThread_.joinable())
        acceptThread_.join();
    ::close(listenFd_);
    dropAll();
    std::vector<std::thread> threads;
    {
        std::lock_guard lock(mutex_);
        threads.swap(threads_);
    }
    for (std::thread& t : threads)
        t.join();
    std::lock_guard lock(mutex_);
    connections_.clear();
}

void CuttingProxy::acceptLoop() {
    while (!stopping_.load()) {
        const int clientFd = ::accept4(listenFd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (clientFd < 0) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            return;  // the listener was shut down
        }
        auto c = std::make_shared<Connection>();
        c->clientFd = clientFd;
        c->serverFd = connectLoopback(targetHost_, targetPort_);
        ++accepted_;
        std::lock_guard lock(mutex_);
        if (c->serverFd < 0 || stopping_.load()) {
            c->close();
            continue;
        }
        connections_.push_back(c);
        threads_.emplace_back([this, c] { pump(c, Direction::ToServer); });
        threads_.emplace_back([this, c] { pump(c, Direction::ToClient); });
    }
}

void CuttingProxy::pump(const std::shared_ptr<Connection>& c, Direction direction) {
    const bool toServer = direction == Direction::ToServer;
    const int from = toServer ? c->clientFd : c->serverFd;
    const int to = toServer ? c->serverFd : c->clientFd;
    FrameTracker frames(toServer ? kHttp2PrefaceBytes : 0);
    std::optional<std::uint64_t> cutAt;  // connection byte offset to stop forwarding at
    std::vector<char> buffer(64 * 1024);
    for (;;) {
        const ssize_t n = readSome(from, buffer.data(), buffer.size());
        if (n <= 0)
            break;
        const std::uint64_t before = frames.seen();
        frames.feed(buffer.data(), static_cast<std::size_t>(n),
                    [&](std::uint8_t type, std::uint32_t length, std::uint64_t payloadStart) {
                        if (!cutAt && type == kDataFrame && length >= 2 && takeCut(direction)) {
                            cutAt = payloadStart + length / 2;
                            cutFrameBytes_ = static_cast<std::uint32_t>(kFrameHeaderBytes + length);
                            cutForwardedBytes_ =
                                static_cast<std::uint32_t>(kFrameHeaderBytes + length / 2);
                        }
                    });
        if (cutAt && *cutAt <= frames.seen()) {
            writeAllTo(to, buffer.data(), static_cast<std::size_t>(*cutAt - before));
            ++cuts_;
            break;
        }
        if (!writeAllTo(to, buffer.data(), static_cast<std::size_t>(n)))
            break;
    }
    c->close();
}

}  // namespace qs::test
