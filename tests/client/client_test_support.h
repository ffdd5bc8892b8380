#pragma once

// Small helpers shared by the client suites.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QtTest/QtTest>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "client/queues_client.h"
#include "wait_until.h"

namespace qs::test {

inline std::unique_ptr<client::QueuesClient> makeClient(const std::string& address,
                                                        const std::string& clientId = "tester",
                                                        const std::string& token = {},
                                                        bool validate = true) {
    client::ClientOptions options;
    options.address = address;
    options.clientId = clientId;
    options.authToken = token;
    options.validateArguments = validate;
    auto created = client::QueuesClient::create(options);
    if (!created.ok()) {
        qFatal("cannot create client: %s", created.error().describe().c_str());
    }
    return std::move(created).value();
}

inline client::QueueMessage textMessage(const std::string& channel, const std::string& body) {
    client::QueueMessage message;
    message.channel = channel;
    message.body = body;
    return message;
}

// A loopback port nothing listens on: bound once, then released.
inline int closedPort() {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    ::close(fd);
    return ntohs(addr.sin_port);
}

inline double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace qs::test

#define QS_VERIFY_OK(result) \
    QVERIFY2((result).ok(), (result).ok() ? "" : (result).error().describe().c_str())

// Enums of the client have their own toString (string_view), which hides
// QTest's, so QCOMPARE cannot print them: compare and print the numbers.
#define QS_COMPARE_ENUM(actual, expected) \
    QCOMPARE(static_cast<int>(actual), static_cast<int>(expected))
