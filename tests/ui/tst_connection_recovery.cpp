#include <QElapsedTimer>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>
#include <QTimer>
#include <algorithm>
#include <memory>

#include "broker/broker.h"
#include "client/queues_client.h"
#include "controllers/connection_controller.h"
#include "controllers/console_run.h"
#include "controllers/run_controller.h"
#include "main_window.h"
#include "models/message_table_model.h"
#include "panels/producer_panel.h"
#include "run/run.h"
#include "workers/work_profile.h"

using namespace qs;
using namespace qs::ui;

// A lost server is shown and retried, not a frozen window: the console's
// connection controller against a real broker that goes away and comes back
// on the same port.
class TestConnectionRecovery : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void lostServerIsShownRetriedAndReconnected();
    void mainWindowShowsLostState();
    void connectionIsShownOnce();
    void noServerStartsTheEmbeddedBrokerOnTheGivenPort();

private:
    static std::unique_ptr<broker::Broker> startBroker(int port, std::string* error);
};

std::unique_ptr<broker::Broker> TestConnectionRecovery::startBroker(int port, std::string* error) {
    broker::BrokerOptions options;
    options.bindAddress = "127.0.0.1";
    options.port = port;
    auto b = std::make_unique<broker::Broker>(options);
    // The old listener's port can take a moment to become bindable again.
    for (int attempt = 0; attempt < 50; ++attempt) {
        if (b->start(error)) {
            return b;
        }
        b = std::make_unique<broker::Broker>(options);
        QTest::qWait(100);
    }
    return nullptr;
}

// A port nothing listens on now: one a broker had, stopped again.
static int freePort() {
    broker::BrokerOptions options;
    options.bindAddress = "127.0.0.1";
    options.port = 0;
    broker::Broker b(options);
    std::string error;
    if (!b.start(&error)) {
        return -1;
    }
    const int port = b.port();
    b.stop();
    return port;
}

// Watches the event loop while `until` is false: the longest gap between two
// ticks of a 20 ms timer. A blocked UI thread shows up as a long gap.
static qint64 longestStallMs(const std::function<bool()>& until, int timeoutMs) {
    QTimer tick;
    tick.setInterval(20);
    QElapsedTimer sinceTick;
    sinceTick.start();
    qint64 longest = 0;
    QObject::connect(&tick, &QTimer::timeout, [&] {
        longest = std::max(longest, sinceTick.elapsed());
        sinceTick.restart();
    });
    tick.start();
    QElapsedTimer total;
    total.start();
    while (!until() && total.elapsed() < timeoutMs) {
        QTest::qWait(10);
    }
    longest = std::max(longest, sinceTick.elapsed());
    return longest;
}

void TestConnectionRecovery::lostServerIsShownRetriedAndReconnected() {
    std::string why;
    auto server = startBroker(0, &why);
    QVERIFY2(server, why.c_str());
    const int port = server->port();

    ConnectionController controller;
    controller.setPingIntervalMs(300);
    QSignalSpy states(&controller, &ConnectionController::stateChanged);
    ConnectionSettings s;
    s.address = QStringLiteral("127.0.0.1:%1").arg(port);
    s.clientId = QStringLiteral("recovery-test");
    controller.connectTo(s);
    QTRY_COMPARE_WITH_TIMEOUT(controller.state(), ConnectionController::State::Connected, 15000);
    QVERIFY(controller.describeState().startsWith(QStringLiteral("Connected")));

    // The server goes away: the state says so and names the address, and the
    // event loop keeps running while the controller retries.
    server->stop();
    server.reset();
    const qint64 stallLost = longestStallMs(
        [&] { return controller.state() == ConnectionController::State::Lost; }, 20000);
    QCOMPARE(controller.state(), ConnectionController::State::Lost);
    QVERIFY2(stallLost < 1000, qPrintable(QStringLiteral("UI stalled %1 ms").arg(stallLost)));
    QVERIFY(controller.describeState().contains(QStringLiteral("retrying")));
    QVERIFY(controller.describeState().contains(s.address));
    QVERIFY(!controller.lastError().isEmpty());

    // Still retrying a while later (the ping keeps failing, state stays Lost),
    // and the loop stays responsive all along.
    QSignalSpy infos(&controller, &ConnectionController::serverInfoChanged);
    const qint64 stallRetry = longestStallMs([&] { return infos.count() >= 3; }, 30000);
    QVERIFY2(infos.count() >= 3, "the controller stopped retrying");
    QCOMPARE(controller.state(), ConnectionController::State::Lost);
    QVERIFY2(stallRetry < 1000, qPrintable(QStringLiteral("UI stalled %1 ms").arg(stallRetry)));

    // The server comes back on the same port: the controller reconnects by itself.
    server = startBroker(port, &why);
    QVERIFY2(server, why.c_str());
    const qint64 stallBack = longestStallMs(
        [&] { return controller.state() == ConnectionController::State::Connected; }, 30000);
    QCOMPARE(controller.state(), ConnectionController::State::Connected);
    QVERIFY2(stallBack < 1000, qPrintable(QStringLiteral("UI stalled %1 ms").arg(stallBack)));
    QVERIFY(controller.lastError().isEmpty());
    QVERIFY(controller.client());
    QVERIFY(controller.client()->ping().ok());

    // The sequence seen: connecting, connected, lost, connected.
    QList<ConnectionController::State> seen;
    for (const auto& args : states) {
        seen << args.at(0).value<ConnectionController::State>();
    }
    QVERIFY(seen.contains(ConnectionController::State::Lost));
    QCOMPARE(seen.last(), ConnectionController::State::Connected);
}

void TestConnectionRecovery::mainWindowShowsLostState() {
    std::string why;
    auto server = startBroker(0, &why);
    QVERIFY2(server, why.c_str());
    const int port = server->port();

    MainWindowOptions options;
    options.autoConnect = false;
    options.useSettings = false;
    MainWindow window(options);
    window.show();
    window.connection()->setPingIntervalMs(300);
    ConnectionSettings s;
    s.address = QStringLiteral("127.0.0.1:%1").arg(port);
    window.connection()->connectTo(s);
    QTRY_VERIFY_WITH_TIMEOUT(window.connectionStatusText().contains(QStringLiteral("Connected")),
                             15000);
    QVERIFY2(!window.statusBar()->currentMessage().contains(s.address),
             qPrintable(window.statusBar()->currentMessage()));
    // Workers are polling when the server goes away.
    RunController* run = window.run();
    workers::WorkerConfig c = run->config();
    c.waitMs = 1000;
    c.work = workers::WorkProfile::fixed(5.0);
    QVERIFY(run->setConfig(c));
    QString error;
    QVERIFY2(run->setWorkerCount(2, &error), qPrintable(error));

    server->stop();
    server.reset();
    // The status bar shows the lost server and that it is being retried.
    const qint64 stall = longestStallMs(
        [&] { return window.connectionStatusText().contains(QStringLiteral("retrying")); }, 20000);
    QVERIFY2(window.connectionStatusText().contains(QStringLiteral("Lost")),
             qPrintable(window.connectionStatusText()));
    QVERIFY(window.connectionStatusText().contains(s.address));
    // Said once, by the connection label; not repeated as a status message.
    QVERIFY2(!window.statusBar()->currentMessage().contains(s.address),
             qPrintable(window.statusBar()->currentMessage()));
    QVERIFY2(stall < 1000, qPrintable(QStringLiteral("UI stalled %1 ms").arg(stall)));

    server = startBroker(port, &why);
    QVERIFY2(server, why.c_str());
    QTRY_VERIFY_WITH_TIMEOUT(window.connectionStatusText().contains(QStringLiteral("Connected")),
                             30000);

    // The same workers carry on against the new server: tasks sent now are acked.
    window.producerPanel()->setCount(5);
    window.producerPanel()->send();
    QTRY_VERIFY_WITH_TIMEOUT(
        window.consoleRun()->run().summaryNow().count(qs::MessageState::Acked) == 5, 60000);
}

// Right after start the status bar names the connection once (the permanent
// label), not a second time as a 10-second message beside it.
void TestConnectionRecovery::connectionIsShownOnce() {
    MainWindowOptions options;
    options.autoConnect = false;
    options.embeddedOnly = true;
    options.embeddedPort = 0;
    options.useSettings = false;
    MainWindow window(options);
    window.show();
    QTRY_VERIFY_WITH_TIMEOUT(window.connectionStatusText().contains(QStringLiteral("Connected")),
                             15000);
    const QString address = window.connection()->settings().address;
    QVERIFY(!address.isEmpty());
    QVERIFY(window.connectionStatusText().contains(address));
    QElapsedTimer watch;
    watch.start();
    while (watch.elapsed() < 2500) {
        const QString message = window.statusBar()->currentMessage();
        QVERIFY2(!message.contains(address) && !message.contains(QStringLiteral("Connected")),
                 qPrintable(message));
        QTest::qWait(50);
    }
}

// `queuescope --port N`: when no server answers the probe, the embedded broker
// takes port N (it used to take 50000 whatever --port said).
void TestConnectionRecovery::noServerStartsTheEmbeddedBrokerOnTheGivenPort() {
    const int probePort = freePort();
    const int embeddedPort = freePort();
    QVERIFY(probePort > 0 && embeddedPort > 0 && probePort != embeddedPort);
    ConnectionController controller;
    controller.autoStart(QStringLiteral("127.0.0.1:%1").arg(probePort), embeddedPort);
    QTRY_COMPARE_WITH_TIMEOUT(controller.state(), ConnectionController::State::Connected, 30000);
    QVERIFY(controller.isEmbedded());
    QCOMPARE(controller.embeddedBroker()->port(), embeddedPort);
}

QTEST_MAIN(TestConnectionRecovery)
#include "tst_connection_recovery.moc"
