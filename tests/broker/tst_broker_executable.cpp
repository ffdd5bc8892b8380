#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QProcess>
#include <QRegularExpression>
#include <QTest>

#include "exposition_parser.h"
#include "http_get.h"

// Every wait below ends as soon as the process is up or gone; the deadline only
// bounds a failure, generously: CI runs the sanitizer suites on a starved machine.
constexpr int kDeadlineMs = 60000;

namespace {

// A listening loopback socket on a free port (its port in *port), or -1.
int holdPort(int* port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
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

// The next line of the process's stdout, waiting for it; empty when none came.
QString nextLine(QProcess& process) {
    if (!process.canReadLine() && !QTest::qWaitFor([&] { return process.canReadLine(); },
                                                   kDeadlineMs))
        return {};
    return QString::fromUtf8(process.readLine()).trimmed();
}

}  // namespace

class TestBrokerExecutable : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void startsOnEphemeralPortAndStopsOnSigterm() {
        QProcess process;
        process.start(QStringLiteral(QUEUESCOPE_BROKER_EXE),
                      {QStringLiteral("--port"), QStringLiteral("0")});
        QVERIFY(process.waitForStarted(kDeadlineMs));
        QTRY_VERIFY_WITH_TIMEOUT(process.canReadLine(), kDeadlineMs);
        const QString line = QString::fromUtf8(process.readLine()).trimmed();
        static const QRegularExpression pattern(
            QStringLiteral("^queuescope-broker listening on 127\\.0\\.0\\.1:(\\d+)$"));
        const auto match = pattern.match(line);
        QVERIFY2(match.hasMatch(), qPrintable(line));
        QVERIFY(match.captured(1).toInt() > 0);
        process.terminate();  // SIGTERM
        QVERIFY(process.waitForFinished(kDeadlineMs));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 0);
    }

    void badFlagsFail() {
        for (const QStringList& args :
             {QStringList{QStringLiteral("--port"), QStringLiteral("x")},
              QStringList{QStringLiteral("--bogus")}, QStringList{QStringLiteral("--port")}}) {
            QProcess process;
            process.start(QStringLiteral(QUEUESCOPE_BROKER_EXE), args);
            QVERIFY(process.waitForFinished(kDeadlineMs));
            QVERIFY(process.exitCode() != 0);
            QVERIFY(!process.readAllStandardError().isEmpty());
        }
    }

    void portInUseFails() {
        // Hold a listening socket on an ephemeral loopback port.
        const int blocker = ::socket(AF_INET, SOCK_STREAM, 0);
        QVERIFY(blocker >= 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QCOMPARE(::bind(blocker, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
        QCOMPARE(::listen(blocker, 1), 0);
        socklen_t length = sizeof(address);
        QCOMPARE(::getsockname(blocker, reinterpret_cast<sockaddr*>(&address), &length), 0);
        const int port = ntohs(address.sin_port);
        QProcess process;
        process.start(QStringLiteral(QUEUESCOPE_BROKER_EXE),
                      {QStringLiteral("--port"), QString::number(port)});
        QVERIFY(process.waitForFinished(kDeadlineMs));
        QVERIFY(process.exitCode() != 0);
        QVERIFY(process.readAllStandardOutput().isEmpty());
        QVERIFY(process.readAllStandardError().contains("cannot listen"));
        ::close(blocker);
    }

    void unreadableTlsFilesFail() {
        QProcess process;
        process.start(
            QStringLiteral(QUEUESCOPE_BROKER_EXE),
            {QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--tls-cert"),
             QStringLiteral("/nonexistent/queuescope/server.pem"), QStringLiteral("--tls-key"),
             QStringLiteral("/nonexistent/queuescope/server.key")});
        QVERIFY(process.waitForFinished(kDeadlineMs));
        QCOMPARE(process.exitCode(), 1);
        QVERIFY(process.readAllStandardOutput().isEmpty());
        const QByteArray error = process.readAllStandardError();
        QVERIFY2(error.contains("/nonexistent/queuescope/server.pem"), error.constData());
        QCOMPARE(error.count("cannot read TLS"), 1);  // said once, not twice
    }

    void metricsPortZeroServesMetricsAndSaysWhere() {
        QProcess process;
        process.start(QStringLiteral(QUEUESCOPE_BROKER_EXE),
                      {QStringLiteral("--port"), QStringLiteral("0"),
                       QStringLiteral("--metrics-port"), QStringLiteral("0")});
        QVERIFY(process.waitForStarted(kDeadlineMs));
        QVERIFY(nextLine(process).startsWith(QStringLiteral("queuescope-broker listening on ")));
        const QString line = nextLine(process);
        static const QRegularExpression pattern(QStringLiteral(
            "^queuescope-broker metrics on http://127\\.0\\.0\\.1:(\\d+)/metrics$"));
        const auto match = pattern.match(line);
        QVERIFY2(match.hasMatch(), qPrintable(line));
        const int port = match.captured(1).toInt();
        QVERIFY(port > 0);

        const auto response = qs::test::httpRequest(port, "GET", "/metrics");
        QCOMPARE(response.status, 200);
        QCOMPARE(response.headers.at("content-type"),
                 std::string("text/plain; version=0.0.4; charset=utf-8"));
        std::string error;
        const auto metrics = qs::test::parseExposition(response.body, &error);
        QVERIFY2(metrics, error.c_str());
        QCOMPARE(metrics->value("queuescope_broker_rpc_requests_total", {{"method", "Ping"}}),
                 std::optional<double>(0));
        QCOMPARE(qs::test::httpRequest(port, "GET", "/").status, 404);
        QCOMPARE(qs::test::httpRequest(port, "POST", "/metrics").status, 405);

        process.terminate();
        QVERIFY(process.waitForFinished(kDeadlineMs));
        QCOMPARE(process.exitCode(), 0);
        QVERIFY(!qs::test::httpRequest(port, "GET", "/metrics").error.empty());  // gone
    }

    void metricsPortInUseStopsBeforeServing() {
        int port = 0;
        const int blocker = holdPort(&port);
        QVERIFY(blocker >= 0);
        QProcess process;
        process.start(QStringLiteral(QUEUESCOPE_BROKER_EXE),
                      {QStringLiteral("--port"), QStringLiteral("0"),
                       QStringLiteral("--metrics-port"), QString::number(port)});
        QVERIFY(process.waitForFinished(kDeadlineMs));
        QCOMPARE(process.exitCode(), 1);
        QVERIFY(process.readAllStandardOutput().isEmpty());  // never said it listens
        const QByteArray error = process.readAllStandardError();
        const QByteArray expected = QByteArray("cannot listen on 127.0.0.1:") +
                                    QByteArray::number(port) +
                                    QByteArray(" for metrics: Address already in use");
        QVERIFY2(error.contains(expected),
                 error.constData());
        ::close(blocker);
    }

    void invalidMetricsPortsAreRefused() {
        for (const char* port : {"70000", "x", "-1", ""}) {
            QProcess process;
            process.start(QStringLiteral(QUEUESCOPE_BROKER_EXE),
                          {QStringLiteral("--port"), QStringLiteral("0"),
                           QStringLiteral("--metrics-port"), QString::fromUtf8(port)});
            QVERIFY(process.waitForFinished(kDeadlineMs));
            QCOMPARE(process.exitCode(), 2);
            QVERIFY(process.readAllStandardOutput().isEmpty());
            QVERIFY2(process.readAllStandardError().contains("invalid metrics port"), port);
        }
    }

    void helpPrintsUsage() {
        QProcess process;
        process.start(QStringLiteral(QUEUESCOPE_BROKER_EXE), {QStringLiteral("--help")});
        QVERIFY(process.waitForFinished(kDeadlineMs));
        QCOMPARE(process.exitCode(), 0);
        const QByteArray usage = process.readAllStandardOutput();
        QVERIFY(usage.contains("--port"));
        QVERIFY(usage.contains("--tls-cert"));
        QVERIFY(usage.contains("--metrics-port"));
    }
};

QTEST_GUILESS_MAIN(TestBrokerExecutable)
#include "tst_broker_executable.moc"
