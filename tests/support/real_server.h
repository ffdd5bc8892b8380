#pragma once

#include <QString>
#include <string>

// The real KubeMQ v2.4.0 built in ../shared/kubemq-server, started for one
// test on three free loopback ports (gRPC, REST, API) with its start.sh and
// stopped by its PID when the object goes. Tests that need it skip with a
// clear message when present() is false.
namespace qs::test {

class RealServer {
public:
    static QString directory();  // QUEUESCOPE_KUBEMQ_SERVER_DIR
    static bool present();       // its kubemq binary is there
    // Message for QSKIP when it is absent.
    static QString absentMessage();

    RealServer() = default;
    RealServer(const RealServer&) = delete;
    RealServer& operator=(const RealServer&) = delete;
    ~RealServer();

    bool start(QString* error);
    std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

private:
    int port_ = 0;
    qint64 pid_ = 0;
    QString workdir_;
};

}  // namespace qs::test
