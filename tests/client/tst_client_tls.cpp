// TLS between the queues client and the embedded broker: server-only TLS,
// mutual TLS, and every way a handshake should fail. The certificates are made
// fresh by the openssl command-line tool for each run (a throw-away CA, a
// server certificate for 127.0.0.1 / localhost, a client certificate, and a
// second CA nobody trusts), so nothing secret or expiring lives in the tree.
#include <QtTest/QtTest>
#include <chrono>
#include <memory>
#include <string>

#include "broker/broker.h"
#include "client_test_support.h"

using namespace qs;
using namespace qs::client;
using namespace std::chrono_literals;

namespace {

// Runs openssl with the given arguments in dir; empty string on success,
// otherwise what went wrong.
QString runOpenssl(const QString& dir, const QStringList& arguments) {
    QProcess process;
    process.setWorkingDirectory(dir);
    process.start(QStringLiteral("openssl"), arguments);
    if (!process.waitForStarted(10000))
        return QStringLiteral("cannot start openssl (is the openssl package installed?)");
    if (!process.waitForFinished(60000) || process.exitStatus() != QProcess::NormalExit ||
        process.exitCode() != 0) {
        return QStringLiteral("openssl %1 failed: %2")
            .arg(arguments.join(u' '), QString::fromLocal8Bit(process.readAllStandardError()));
    }
    return {};
}

bool writeText(const QString& path, const QByteArray& text) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
}

}  // namespace

class TestClientTls : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();

    void serverTlsRoundTrip();
    void plaintextClientIsRefusedByTlsBroker();
    void tlsClientIsRefusedByPlaintextBroker();
    void untrustedServerCertificateIsRefused();
    void mutualTlsNeedsClientCertificate();
    void brokerRejectsIncompleteTlsFiles();

private:
    // A TLS broker on 127.0.0.1 with an ephemeral port; clientCa empty = no mTLS.
    std::unique_ptr<broker::Broker> startTlsBroker(const std::string& clientCa = {});
    std::unique_ptr<QueuesClient> tlsClient(const std::string& address, const std::string& caFile,
                                            bool withClientCertificate = false);
    std::string file(const char* name) const {
        return dir_.filePath(QString::fromLatin1(name)).toStdString();
    }

    QTemporaryDir dir_;
};

void TestClientTls::initTestCase() {
    QVERIFY(dir_.isValid());
    const QString d = dir_.path();
    const QStringList ecKey = {
        QStringLiteral("-newkey"), QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
        QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes")};
    auto makeCa = [&](const QString& name) {
        return runOpenssl(
            d, QStringList{QStringLiteral("req"), QStringLiteral("-x509")} + ecKey +
                   QStringList{
                       QStringLiteral("-keyout"), name + QStringLiteral(".key"),
                       QStringLiteral("-out"), name + QStringLiteral(".pem"),
                       QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"),
                       QStringLiteral("/CN=Queuescope test ") + name, QStringLiteral("-addext"),
                       QStringLiteral("basicConstraints=critical,CA:TRUE"),
                       QStringLiteral("-addext"), QStringLiteral("keyUsage=critical,keyCertSign")});
    };
    auto makeLeaf = [&](const QString& name, const QByteArray& extensions) {
        if (!writeText(d + QStringLiteral("/") + name + QStringLiteral(".ext"), extensions))
            return QStringLiteral("cannot write %1.ext").arg(name);
        QString error =
            runOpenssl(d, QStringList{QStringLiteral("req")} + ecKey +
                              QStringList{QStringLiteral("-keyout"), name + QStringLiteral(".key"),
                                          QStringLiteral("-out"), name + QStringLiteral(".csr"),
                                          QStringLiteral("-subj"), QStringLiteral("/CN=") + name});
        if (!error.isEmpty())
            return error;
        return runOpenssl(
            d,
            {QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"),
             name + QStringLiteral(".csr"), QStringLiteral("-CA"), QStringLiteral("ca.pem"),
             QStringLiteral("-CAkey"), QStringLiteral("ca.key"), QStringLiteral("-CAcreateserial"),
             QStringLiteral("-out"), name + QStringLiteral(".pem"), QStringLiteral("-days"),
             QStringLiteral("2"), QStringLiteral("-extfile"), name + QStringLiteral(".ext")});
    };
    QString error = makeCa(QStringLiteral("ca"));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    error = makeCa(QStringLiteral("other-ca"));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    error = makeLeaf(QStringLiteral("server"),
                     "subjectAltName=DNS:localhost,IP:127.0.0.1\n"
                     "basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n");
    QVERIFY2(error.isEmpty(), qPrintable(error));
    error = makeLeaf(QStringLiteral("worker-1"),
                     "basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n");
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

std::unique_ptr<broker::Broker> TestClientTls::startTlsBroker(const std::string& clientCa) {
    broker::BrokerOptions options;
    options.port = 0;
    options.tls.certFile = file("server.pem");
    options.tls.keyFile = file("server.key");
    options.tls.clientCaFile = clientCa;
    auto server = std::make_unique<broker::Broker>(options);
    std::string error;
    if (!server->start(&error))
        qWarning("TLS broker did not start: %s", error.c_str());
    return server;
}

std::unique_ptr<QueuesClient> TestClientTls::tlsClient(const std::string& address,
                                                       const std::string& caFile,
                                                       bool withClientCertificate) {
    ClientOptions options;
    options.address = address;
    options.clientId = "tls-tester";
    options.tls.enabled = true;
    options.tls.caFile = caFile;
    if (withClientCertificate) {
        options.tls.certFile = file("worker-1.pem");
        options.tls.keyFile = file("worker-1.key");
    }
    options.callTimeout = 5s;
    options.connectTimeout = 5s;
    auto created = QueuesClient::create(options);
    if (!created.ok())
        qFatal("cannot create TLS client: %s", created.error().describe().c_str());
    return std::move(created).value();
}

void TestClientTls::serverTlsRoundTrip() {
    auto server = startTlsBroker();
    QVERIFY(server->isRunning());
    auto client = tlsClient(server->address(), file("ca.pem"));

    auto info = client->ping();
    QS_VERIFY_OK(info);
    QCOMPARE(QString::fromStdString(info.value().version), QStringLiteral("v2.4.0"));

    auto sent = client->send(qs::test::textMessage("tls.jobs", "over TLS"));
    QS_VERIFY_OK(sent);
    QVERIFY(!sent.value().isError);

    auto batch = client->receive("tls.jobs", 1, 2s);
    QS_VERIFY_OK(batch);
    QCOMPARE(batch.value().messages().size(), std::size_t{1});
    QCOMPARE(QByteArray::fromStdString(batch.value().messages()[0].message().body),
             QByteArray("over TLS"));
    QS_VERIFY_OK(batch.value().messages()[0].ack());
}

void TestClientTls::plaintextClientIsRefusedByTlsBroker() {
    auto server = startTlsBroker();
    QVERIFY(server->isRunning());
    auto client = qs::test::makeClient(server->address(), "plain-tester");
    auto info = client->ping();
    QVERIFY(!info.ok());
    QS_COMPARE_ENUM(info.error().category, ErrorCategory::Unavailable);
}

void TestClientTls::tlsClientIsRefusedByPlaintextBroker() {
    broker::BrokerOptions options;
    options.port = 0;
    broker::Broker plain(options);
    QVERIFY(plain.start());
    auto client = tlsClient(plain.address(), file("ca.pem"));
    auto info = client->ping();
    QVERIFY(!info.ok());
    QS_COMPARE_ENUM(info.error().category, ErrorCategory::Unavailable);
}

void TestClientTls::untrustedServerCertificateIsRefused() {
    auto server = startTlsBroker();
    QVERIFY(server->isRunning());
    auto client = tlsClient(server->address(), file("other-ca.pem"));
    auto info = client->ping();
    QVERIFY(!info.ok());
    QS_COMPARE_ENUM(info.error().category, ErrorCategory::Unavailable);
    // Nothing may have been delivered through a connection that failed its handshake.
    auto sent = client->send(qs::test::textMessage("tls.untrusted", "must not arrive"));
    QVERIFY(!sent.ok());
    auto trusted = tlsClient(server->address(), file("ca.pem"));
    auto peeked = trusted->peek("tls.untrusted", 10, 1s);
    QS_VERIFY_OK(peeked);
    QCOMPARE(peeked.value().messages.size(), std::size_t{0});
}

void TestClientTls::mutualTlsNeedsClientCertificate() {
    auto server = startTlsBroker(file("ca.pem"));
    QVERIFY(server->isRunning());

    auto anonymous = tlsClient(server->address(), file("ca.pem"));
    auto refused = anonymous->ping();
    QVERIFY(!refused.ok());
    QS_COMPARE_ENUM(refused.error().category, ErrorCategory::Unavailable);

    auto identified = tlsClient(server->address(), file("ca.pem"), true);
    QS_VERIFY_OK(identified->ping());
    auto sent = identified->send(qs::test::textMessage("tls.mutual", "with a certificate"));
    QS_VERIFY_OK(sent);
    QVERIFY(!sent.value().isError);
}

void TestClientTls::brokerRejectsIncompleteTlsFiles() {
    auto startWith = [](broker::BrokerTlsOptions tls, std::string* error) {
        broker::BrokerOptions options;
        options.port = 0;
        options.tls = std::move(tls);
        broker::Broker server(options);
        const bool started = server.start(error);
        return started;
    };
    std::string error;
    QVERIFY(!startWith({file("server.pem"), {}, {}}, &error));
    QVERIFY2(error.find("key") != std::string::npos, error.c_str());

    error.clear();
    QVERIFY(!startWith({file("server.pem"), "/nonexistent/queuescope/server.key", {}}, &error));
    QVERIFY2(error.find("/nonexistent/queuescope/server.key") != std::string::npos, error.c_str());

    error.clear();
    QVERIFY(!startWith({{}, {}, file("ca.pem")}, &error));
    QVERIFY2(error.find("client CA") != std::string::npos, error.c_str());

    // The same files, complete, do start.
    error.clear();
    QVERIFY2(startWith({file("server.pem"), file("server.key"), {}}, &error), error.c_str());
}

QTEST_APPLESS_MAIN(TestClientTls)
#include "tst_client_tls.moc"
