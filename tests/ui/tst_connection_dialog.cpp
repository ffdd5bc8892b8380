#include <QComboBox>
#include <QPushButton>
#include <QTest>

#include "controllers/connection_controller.h"
#include "controllers/connection_settings.h"
#include "dialogs/connection_dialog.h"

using namespace qs;
using namespace qs::ui;

// Connect checks the address, tries the new server off the UI thread while the
// current connection stays, and never calls a server that never answered "lost".
class TestConnectionDialog : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void malformedAddressesAreRefused_data();
    void malformedAddressesAreRefused();
    void usableAddressesPass_data();
    void usableAddressesPass();
    void dialogRefusesAMalformedAddressByTheField();
    void unreachableAddressKeepsTheCurrentConnection();
    void switchAnywayAcceptsAnUnreachableAddress();
    void answeringServerIsAccepted();
    void neverConnectedIsCannotReachNotLost();

private:
    static void setAddress(ConnectionDialog& dialog, const QString& address) {
        auto* combo = dialog.findChild<QComboBox*>(QStringLiteral("address"));
        QVERIFY(combo);
        combo->setEditText(address);
    }
};

void TestConnectionDialog::malformedAddressesAreRefused_data() {
    QTest::addColumn<QString>("address");
    QTest::addColumn<QString>("says");
    QTest::newRow("empty") << QString() << QStringLiteral("host:port");
    QTest::newRow("spaces") << QStringLiteral("hello world") << QStringLiteral("no spaces");
    QTest::newRow("port 99999") << QStringLiteral("localhost:99999")
                                << QStringLiteral("port 1..65535 (got 99999)");
    QTest::newRow("port 0") << QStringLiteral("localhost:0") << QStringLiteral("(got 0)");
    QTest::newRow("no port") << QStringLiteral("localhost") << QStringLiteral("port is missing");
    QTest::newRow("no host") << QStringLiteral(":50000") << QStringLiteral("host:port");
    QTest::newRow("port text") << QStringLiteral("localhost:http") << QStringLiteral("(got http)");
}

void TestConnectionDialog::malformedAddressesAreRefused() {
    QFETCH(QString, address);
    QFETCH(QString, says);
    const QString problem = addressProblem(address);
    QVERIFY2(problem.contains(says), qPrintable(problem));
}

void TestConnectionDialog::usableAddressesPass_data() {
    QTest::addColumn<QString>("address");
    QTest::newRow("name") << QStringLiteral("localhost:50000");
    QTest::newRow("ipv4 port 1") << QStringLiteral("127.0.0.1:1");
    QTest::newRow("ipv6") << QStringLiteral("[::1]:65535");
    QTest::newRow("trimmed") << QStringLiteral("  kubemq.example:50000 ");
}

void TestConnectionDialog::usableAddressesPass() {
    QFETCH(QString, address);
    QCOMPARE(addressProblem(address), QString());
}

void TestConnectionDialog::dialogRefusesAMalformedAddressByTheField() {
    ConnectionDialog dialog(ConnectionSettings{}, {});
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    setAddress(dialog, QStringLiteral("hello world"));
    QVERIFY2(dialog.addressMessage().contains(QStringLiteral("no spaces")),
             qPrintable(dialog.addressMessage()));
    setAddress(dialog, QString());
    dialog.connectButton()->click();
    QVERIFY(dialog.isVisible());
    QCOMPARE(dialog.result(), int(QDialog::Rejected));  // not accepted
    QVERIFY2(dialog.addressMessage().contains(QStringLiteral("host:port")),
             qPrintable(dialog.addressMessage()));
    setAddress(dialog, QStringLiteral("localhost:99999"));
    dialog.connectButton()->click();
    QVERIFY(dialog.isVisible());
    QVERIFY2(dialog.addressMessage().contains(QStringLiteral("65535")),
             qPrintable(dialog.addressMessage()));
}

void TestConnectionDialog::unreachableAddressKeepsTheCurrentConnection() {
    ConnectionController current;
    QString error;
    QVERIFY2(current.startEmbedded(0, &error), qPrintable(error));
    QTRY_COMPARE_WITH_TIMEOUT(current.state(), ConnectionController::State::Connected, 20000);
    const ConnectionSettings before = current.settings();

    ConnectionDialog dialog(current.settings(), {});
    dialog.setProbe(&current);
    dialog.show();
    setAddress(dialog, QStringLiteral("127.0.0.1:1"));  // nothing listens on port 1
    dialog.connectButton()->click();
    // The UI thread is not blocked: the dialog says it is trying.
    QVERIFY2(dialog.addressMessage().startsWith(QStringLiteral("Trying 127.0.0.1:1")),
             qPrintable(dialog.addressMessage()));
    QTRY_VERIFY_WITH_TIMEOUT(dialog.switchAnywayButton()->isVisible(), 30000);
    QVERIFY2(dialog.addressMessage().startsWith(QStringLiteral("Cannot reach 127.0.0.1:1")),
             qPrintable(dialog.addressMessage()));
    QVERIFY(dialog.keepCurrentButton()->isVisible());
    QVERIFY(dialog.isVisible());
    // The working connection was never touched.
    QCOMPARE(current.state(), ConnectionController::State::Connected);
    QCOMPARE(current.settings(), before);
    dialog.keepCurrentButton()->click();
    QCOMPARE(dialog.result(), int(QDialog::Rejected));
}

void TestConnectionDialog::switchAnywayAcceptsAnUnreachableAddress() {
    ConnectionController current;
    QString error;
    QVERIFY2(current.startEmbedded(0, &error), qPrintable(error));
    ConnectionDialog dialog(current.settings(), {});
    dialog.setProbe(&current);
    dialog.show();
    setAddress(dialog, QStringLiteral("127.0.0.1:1"));
    dialog.connectButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(dialog.switchAnywayButton()->isVisible(), 30000);
    dialog.switchAnywayButton()->click();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(dialog.settings().address, QStringLiteral("127.0.0.1:1"));
}

void TestConnectionDialog::answeringServerIsAccepted() {
    ConnectionController current;
    ConnectionController other;  // a second real broker to switch to
    QString error;
    QVERIFY2(current.startEmbedded(0, &error), qPrintable(error));
    QVERIFY2(other.startEmbedded(0, &error), qPrintable(error));
    ConnectionDialog dialog(current.settings(), {});
    dialog.setProbe(&current);
    dialog.show();
    setAddress(dialog, other.settings().address);
    dialog.connectButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(dialog.result(), int(QDialog::Accepted), 30000);
    QVERIFY(!dialog.switchAnywayButton()->isVisible());
    QCOMPARE(dialog.settings().address, other.settings().address);
}

void TestConnectionDialog::neverConnectedIsCannotReachNotLost() {
    ConnectionController controller;
    controller.setPingIntervalMs(200);
    ConnectionSettings s;
    s.address = QStringLiteral("127.0.0.1:1");
    controller.connectTo(s);
    QTRY_COMPARE_WITH_TIMEOUT(controller.state(), ConnectionController::State::Lost, 30000);
    const QString text = controller.describeState();
    QVERIFY2(text.startsWith(QStringLiteral("Cannot reach 127.0.0.1:1")), qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("Lost")), qPrintable(text));
}

QTEST_MAIN(TestConnectionDialog)
#include "tst_connection_dialog.moc"
