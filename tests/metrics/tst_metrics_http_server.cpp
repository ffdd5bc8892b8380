#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <QTest>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "http_get.h"
#include "metrics/exposition.h"
#include "metrics/metrics_http_server.h"

using qs::metrics::MetricsHttpServer;
using qs::test::httpRequest;

namespace {

const std::string kBody = "# HELP up_total h\n# TYPE up_total counter\nup_total 1\n";

std::unique_ptr<MetricsHttpServer> startOn(int port, std::string* error = nullptr) {
    return MetricsHttpServer::start(port, [] { return kBody; }, error);
}

// A listening loopback socket on a free port; its port in *port.
int holdPort(int* port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
        ::listen(fd, 1) != 0)
        return -1;
    socklen_t length = sizeof(address);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    *port = ntohs(address.sin_port);
    return fd;
}

}  // namespace

class TestMetricsHttpServer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void servesTheExpositionAtSlashMetrics() {
        const auto server = startOn(0);
        QVERIFY(server);
        QVERIFY(server->port() > 0);
        const auto response = httpRequest(server->port(), "GET", "/metrics");
        QCOMPARE(response.status, 200);
        QCOMPARE(response.body, kBody);
        QCOMPARE(response.headers.at("content-type"),
                 std::string(qs::metrics::kExpositionContentType));
        QCOMPARE(response.headers.at("content-length"), std::to_string(kBody.size()));
    }

    // Prometheus keeps its connection open between scrapes: two requests sent
    // at once on one connection get two answers.
    void aKeptAliveConnectionServesSeveralScrapes() {
        const auto server = startOn(0);
        QVERIFY(server);
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        QVERIFY(fd >= 0);
        timeval timeout{60, 0};  // only bounds a failure
        ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(static_cast<std::uint16_t>(server->port()));
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QCOMPARE(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
        const std::string requests =
            "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
        QCOMPARE(::send(fd, requests.data(), requests.size(), MSG_NOSIGNAL),
                 static_cast<ssize_t>(requests.size()));
        std::string answers;
        char buffer[4096];
        ssize_t got = 0;
        while ((got = ::recv(fd, buffer, sizeof(buffer), 0)) > 0)
            answers.append(buffer, static_cast<std::size_t>(got));
        ::close(fd);
        std::size_t oks = 0;
        for (auto at = answers.find("HTTP/1.1 200 OK"); at != std::string::npos;
             at = answers.find("HTTP/1.1 200 OK", at + 1))
            ++oks;
        QVERIFY2(oks == 2, answers.c_str());
        QVERIFY(answers.ends_with(kBody));
    }

    void headAnswersHeadersWithoutABody() {
        const auto server = startOn(0);
        QVERIFY(server);
        const auto response = httpRequest(server->port(), "HEAD", "/metrics");
        QCOMPARE(response.status, 200);
        QVERIFY(response.body.empty());
        QCOMPARE(response.headers.at("content-type"),
                 std::string(qs::metrics::kExpositionContentType));
    }

    void unknownPathsAre404() {
        const auto server = startOn(0);
        QVERIFY(server);
        for (const char* path : {"/", "/metric", "/metrics/", "/metricsx", "/other"}) {
            const auto response = httpRequest(server->port(), "GET", path);
            QVERIFY2(response.status == 404, path);
            QVERIFY(response.body.find("/metrics") != std::string::npos);
        }
    }

    void otherMethodsAre405() {
        const auto server = startOn(0);
        QVERIFY(server);
        for (const char* method : {"POST", "PUT", "DELETE", "OPTIONS"}) {
            const auto response = httpRequest(server->port(), method, "/metrics");
            QVERIFY2(response.status == 405, method);
            QCOMPARE(response.headers.at("allow"), std::string("GET, HEAD"));
        }
    }

    void aTakenPortIsAClearError() {
        int port = 0;
        const int blocker = holdPort(&port);
        QVERIFY(blocker >= 0);
        std::string error;
        QVERIFY(!startOn(port, &error));
        QVERIFY2(error.find("cannot listen on 127.0.0.1:" + std::to_string(port)) == 0,
                 error.c_str());
        QVERIFY2(error.find("Address already in use") != std::string::npos, error.c_str());
        ::close(blocker);
    }

    void anInvalidPortIsAClearError() {
        for (int port : {-1, 65536, 100000}) {
            std::string error;
            QVERIFY(!startOn(port, &error));
            QCOMPARE(error, "invalid metrics port " + std::to_string(port) + " (expected 0-65535)");
        }
    }

    void stoppingFreesThePort() {
        int port = 0;
        {
            const auto server = startOn(0);
            QVERIFY(server);
            port = server->port();
            QCOMPARE(httpRequest(port, "GET", "/metrics").status, 200);
        }
        QVERIFY(!httpRequest(port, "GET", "/metrics").error.empty());  // nobody listens
        const auto again = startOn(port);
        QVERIFY(again);  // the socket was closed, so the port binds again
        QCOMPARE(again->port(), port);
    }

    void aFailingCollectAnswers500() {
        const auto server = MetricsHttpServer::start(
            0, []() -> std::string { throw std::runtime_error("figures unavailable"); }, nullptr);
        QVERIFY(server);
        const auto response = httpRequest(server->port(), "GET", "/metrics");
        QCOMPARE(response.status, 500);
        QVERIFY(response.body.find("figures unavailable") != std::string::npos);
    }

    // Scrapes from several threads while the collected state changes: each
    // answer is whole, and (under TSan) the collect runs race-free.
    void concurrentScrapesEachGetAWholeAnswer() {
        std::atomic<int> generation{0};
        const auto server = MetricsHttpServer::start(
            0,
            [&generation] {
                const std::string value = std::to_string(generation.load());
                return "# HELP g h\n# TYPE g gauge\ng " + value + "\n";
            },
            nullptr);
        QVERIFY(server);
        std::atomic<int> whole{0};
        std::vector<std::thread> scrapers;
        for (int t = 0; t < 4; ++t) {
            scrapers.emplace_back([&] {
                for (int i = 0; i < 25; ++i) {
                    const auto response = httpRequest(server->port(), "GET", "/metrics");
                    if (response.status == 200 && response.body.starts_with("# HELP g h\n") &&
                        response.body.ends_with("\n"))
                        ++whole;
                }
            });
        }
        for (int i = 0; i < 1000; ++i)
            ++generation;
        for (auto& scraper : scrapers)
            scraper.join();
        QCOMPARE(whole.load(), 100);
    }
};

QTEST_APPLESS_MAIN(TestMetricsHttpServer)
#include "tst_metrics_http_server.moc"
