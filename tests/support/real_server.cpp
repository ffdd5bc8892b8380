#include "real_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QStringList>
#include <QThread>
#include <csignal>
#include <cstdint>
#include <random>

namespace qs::test {

namespace {

bool bindable(int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return false;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    ::close(fd);
    return ok;
}

// gRPC on the port, REST on +1, the API on +2.
int freePortTriple() {
    std::mt19937 draw(std::random_device{}());
    std::uniform_int_distribution<int> pick(40000, 59000);
    for (int attempt = 0; attempt < 100; ++attempt) {
        const int port = pick(draw);
        if (bindable(port) && bindable(port + 1) && bindable(port + 2))
            return port;
    }
    return 0;
}

}  // namespace

QString RealServer::directory() {
    return QStringLiteral(QUEUESCOPE_KUBEMQ_SERVER_DIR);
}

bool RealServer::present() {
    return QFileInfo(directory() + QStringLiteral("/kubemq")).isExecutable();
}

QString RealServer::absentMessage() {
    return QStringLiteral(
               "the real KubeMQ server is not here (%1/kubemq): skipping the check "
               "against v2.4.0")
        .arg(directory());
}

bool RealServer::start(QString* error) {
    port_ = freePortTriple();
    if (port_ == 0) {
        *error = QStringLiteral("no three free loopback ports");
        return false;
    }
    QProcess script;
    script.start(directory() + QStringLiteral("/start.sh"), {QString::number(port_)});
    if (!script.waitForFinished(60000) || script.exitCode() != 0) {
        *error = QString::fromUtf8(script.readAllStandardError());
        return false;
    }
    const QStringList out =
        QString::fromUtf8(script.readAllStandardOutput()).trimmed().split(QLatin1Char(' '));
    pid_ = out.value(0).toInt();
    workdir_ = out.value(1);
    return pid_ > 0;
}

RealServer::~RealServer() {
    if (pid_ <= 0)
        return;
    ::kill(static_cast<pid_t>(pid_), SIGTERM);
    // It exits within about 5 s; its folder goes once it has.
    for (int i = 0; i < 200 && ::kill(static_cast<pid_t>(pid_), 0) == 0; ++i)
        QThread::msleep(50);
    if (!workdir_.isEmpty() && workdir_.startsWith(QDir::tempPath()))
        QDir(workdir_).removeRecursively();
}

}  // namespace qs::test
