// The one address check shared by the console's Connect field and the
// headless runner's --address.
#include <QtTest/QtTest>
#include <string>

#include "client/address_check.h"

using qs::client::addressProblem;

class TestAddressCheck : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void malformedAddressesAreRefused_data();
    void malformedAddressesAreRefused();
    void usableAddressesPass_data();
    void usableAddressesPass();
};

void TestAddressCheck::malformedAddressesAreRefused_data() {
    QTest::addColumn<QString>("address");
    QTest::addColumn<QString>("says");
    QTest::newRow("empty") << QString() << QStringLiteral("host:port");
    QTest::newRow("space") << QStringLiteral("hello world") << QStringLiteral("no spaces");
    QTest::newRow("tab") << QStringLiteral("localhost:5\t0") << QStringLiteral("no spaces");
    QTest::newRow("no colon") << QStringLiteral("localhost") << QStringLiteral("port is missing");
    QTest::newRow("colon at the end")
        << QStringLiteral("localhost:") << QStringLiteral("port is missing");
    QTest::newRow("no host") << QStringLiteral(":50000") << QStringLiteral("host is missing");
    QTest::newRow("port 0") << QStringLiteral("localhost:0") << QStringLiteral("(got 0)");
    QTest::newRow("port 65536") << QStringLiteral("localhost:65536")
                                << QStringLiteral("port 1..65535 (got 65536)");
    QTest::newRow("port 99999") << QStringLiteral("localhost:99999")
                                << QStringLiteral("(got 99999)");
    QTest::newRow("port of twenty digits") << QStringLiteral("localhost:99999999999999999999")
                                           << QStringLiteral("(got 99999999999999999999)");
    QTest::newRow("negative port") << QStringLiteral("localhost:-5") << QStringLiteral("(got -5)");
    QTest::newRow("plus sign") << QStringLiteral("localhost:+5") << QStringLiteral("(got +5)");
    QTest::newRow("port text") << QStringLiteral("localhost:http") << QStringLiteral("(got http)");
}

void TestAddressCheck::malformedAddressesAreRefused() {
    QFETCH(QString, address);
    QFETCH(QString, says);
    const std::string problem = addressProblem(address.toStdString());
    QVERIFY2(QString::fromStdString(problem).contains(says), problem.c_str());
}

void TestAddressCheck::usableAddressesPass_data() {
    QTest::addColumn<QString>("address");
    QTest::newRow("name") << QStringLiteral("localhost:50000");
    QTest::newRow("ipv4 port 1") << QStringLiteral("127.0.0.1:1");
    QTest::newRow("ipv6 port 65535") << QStringLiteral("[::1]:65535");
    QTest::newRow("leading zero") << QStringLiteral("kubemq.example:05000");
}

void TestAddressCheck::usableAddressesPass() {
    QFETCH(QString, address);
    QCOMPARE(QString::fromStdString(addressProblem(address.toStdString())), QString());
}

QTEST_APPLESS_MAIN(TestAddressCheck)
#include "tst_address_check.moc"
