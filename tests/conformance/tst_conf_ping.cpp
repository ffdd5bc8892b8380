// Spec §4 cases 1-2: Ping and the service path.
#include <QRegularExpression>
#include <QTest>

#include "conformance_qt.h"
#include "conformance_rpc.h"
#include "test_broker.h"

using namespace qs::test::conf;

class TstConfPing : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void case01_ping();
    void case02_capitalServicePathUnimplemented();

private:
    std::unique_ptr<qs::test::TestBroker> broker_;
    std::unique_ptr<Stub> stub_;
};

void TstConfPing::initTestCase() {
    broker_ = std::make_unique<qs::test::TestBroker>();
    QVERIFY2(broker_->ok(), broker_->error().c_str());
    stub_ = broker_->newStub();
}

void TstConfPing::cleanupTestCase() {
    stub_.reset();
    broker_.reset();
}

void TstConfPing::case01_ping() {
    const auto result = ping(*stub_);
    QVERIFY2(result.ok(), result.status.error_message().c_str());
    const std::int64_t now = nowUnixSeconds();
    const auto& reply = result.reply;
    QVERIFY(!reply.host().empty());
    static const QRegularExpression version(QStringLiteral("^v?\\d+(\\.\\d+)*"));
    QVERIFY2(version.match(QString::fromStdString(reply.version())).hasMatch(),
             reply.version().c_str());
    QVERIFY(reply.serverstarttime() > 0);
    QVERIFY(reply.serverstarttime() <= now);
    const std::int64_t expectedUptime = now - reply.serverstarttime();
    QVERIFY2(std::abs(reply.serveruptimeseconds() - expectedUptime) <= 2,
             qPrintable(QStringLiteral("uptime %1, expected %2")
                            .arg(reply.serveruptimeseconds())
                            .arg(expectedUptime)));
}

void TstConfPing::case02_capitalServicePathUnimplemented() {
    const auto channel = broker_->newChannel();
    // The lower-case path works through the same generic call, so the failure
    // below is about the path and nothing else.
    std::string replyBytes;
    const grpc::Status lower =
        callUnaryByPath(channel, "/kubemq.kubemq/Ping", kubemq::Empty(), &replyBytes);
    QVERIFY2(lower.ok(), lower.error_message().c_str());
    kubemq::PingResult parsed;
    QVERIFY(parsed.ParseFromString(replyBytes));
    QVERIFY(!parsed.version().empty());

    const grpc::Status upper = callUnaryByPath(channel, "/kubemq.Kubemq/Ping", kubemq::Empty());
    QCOMPARE(upper.error_code(), grpc::StatusCode::UNIMPLEMENTED);
}

QTEST_APPLESS_MAIN(TstConfPing)
#include "tst_conf_ping.moc"
