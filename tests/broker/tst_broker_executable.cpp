#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QProcess>
#include <QRegularExpression>
#include <QtTest>

// Every wait below ends as soon as the process is up or gone; the deadline only
// bounds a failure, generously: CI runs the sanitizer suites on a starved machine.
constexpr int kDeadlineMs = 60000;

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

    void helpPrintsUsage() {
        QProcess process;
        process.start(QStringLiteral(QUEUESCOPE_BROKER_EXE), {QStringLiteral("--help")});
        QVERIFY(process.waitForFinished(kDeadlineMs));
        QCOMPARE(process.exitCode(), 0);
        const QByteArray usage = process.readAllStandardOutput();
        QVERIFY(usage.contains("--port"));
        QVERIFY(usage.contains("--tls-cert"));
    }
};

QTEST_GUILESS_MAIN(TestBrokerExecutable)
#include "tst_broker_executable.moc"
