// The Channels tab's "Redrive…" against a real broker: the embedded one on a
// free loopback port, and the real KubeMQ v2.4.0 when it is here (skipped
// with a message otherwise). Messages are dead-lettered for real (rejected
// past MaxReceiveCount 1), moved back through the dialog, and counted in both
// channels afterwards with a client of the test's own. A cancel part-way and
// a server that goes away mid-redrive leave every message accounted for.
#include <QApplication>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <chrono>
#include <memory>
#include <string>

#include "broker/broker.h"
#include "client/queues_client.h"
#include "controllers/connection_controller.h"
#include "controllers/connection_settings.h"
#include "dialogs/redrive_dialog.h"
#include "panels/channel_browser.h"
#include "real_server.h"

using namespace qs;
using namespace qs::ui;
using namespace std::chrono_literals;

namespace {

const std::string kSource = "orders";
const QString kDeadLetter = QStringLiteral("orders.dead-letter");

std::unique_ptr<client::QueuesClient> makeClient(const std::string& address) {
    client::ClientOptions options;
    options.address = address;
    options.clientId = "redrive-ui-test";
    auto made = client::QueuesClient::create(options);
    return made.ok() ? std::move(made).value() : nullptr;
}

// `count` messages to kSource that dead-letter on their first reject, then
// rejected: all of them end in kDeadLetter.
bool deadLetter(client::QueuesClient& c, int count, QString* why) {
    std::vector<client::QueueMessage> messages;
    for (int i = 1; i <= count; ++i) {
        client::QueueMessage m;
        m.channel = kSource;
        m.id = "order-" + std::to_string(i);
        m.body = "order #" + std::to_string(i);
        m.policy.maxReceiveCount = 1;
        m.policy.deadLetterQueue = kDeadLetter.toStdString();
        messages.push_back(std::move(m));
    }
    if (auto sent = c.sendBatch(std::move(messages)); !sent.ok()) {
        *why = QString::fromStdString(sent.error().describe());
        return false;
    }
    int rejected = 0;
    for (int round = 0; round < 40 && rejected < count; ++round) {
        auto got = c.receive(kSource, count - rejected, 1s);
        if (!got.ok()) {
            *why = QString::fromStdString(got.error().describe());
            return false;
        }
        rejected += static_cast<int>(got.value().size());
        if (!got.value().empty() && !got.value().rejectAll().ok()) {
            *why = QStringLiteral("reject failed");
            return false;
        }
    }
    *why = QStringLiteral("rejected %1 of %2").arg(rejected).arg(count);
    return rejected == count;
}

// Receives and acks every message of `channel`: how many there were.
int takeAll(client::QueuesClient& c, const std::string& channel) {
    int taken = 0;
    for (int round = 0; round < 200; ++round) {
        auto got = c.receive(channel, 1024, 1s);
        if (!got.ok() || got.value().empty()) {
            break;
        }
        taken += static_cast<int>(got.value().size());
        static_cast<void>(got.value().ackAll());
    }
    return taken;
}

// A figure of the result line ("moved 5", "left 7"); -1 when absent.
int figure(const QString& text, const QString& name) {
    const auto match = QRegularExpression(name + QStringLiteral(" (\\d+)")).match(text);
    return match.hasMatch() ? match.captured(1).toInt() : -1;
}

// Runs `action` (which opens the modal RedriveDialog) and answers the dialog:
// `target` ("" = back where each came from), then Redrive.
void answerRedriveDialog(const QString& target, const std::function<void()>& action) {
    QTimer::singleShot(0, [target] {
        auto* dialog = qobject_cast<RedriveDialog*>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        dialog->setTarget(target);
        dialog->redriveButton()->click();
    });
    action();
}

bool selectWhenListed(ChannelBrowser& browser, const QString& name) {
    return QTest::qWaitFor(
        [&] {
            browser.refresh();
            browser.selectChannel(name);
            return browser.selectedChannel() == name;
        },
        30000);
}

}  // namespace

class TestChannelRedrive : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void movesDeadLettersBackThroughTheDialog();
    void dialogRefusesBadTargets();
    void cancelPartWayAccountsForEveryMessage();
    void aServerThatGoesAwayLosesNothing();
    void aServerThatIsGoneIsSaid();
    void againstRealKubemq();

private:
    // Dead-letters `count` on the browser's server, redrives kDeadLetter back
    // through the dialog, and checks both channels and the result line.
    void checkRoundTrip(ConnectionController& connection, const std::string& address, int count);
};

void TestChannelRedrive::checkRoundTrip(ConnectionController& connection,
                                        const std::string& address, int count) {
    auto c = makeClient(address);
    QVERIFY(c);
    QString why;
    QVERIFY2(deadLetter(*c, count, &why), qPrintable(why));
    ChannelBrowser browser(&connection);
    browser.setAutoRefresh(false);
    browser.show();
    QVERIFY2(selectWhenListed(browser, kDeadLetter), "the dead-letter channel is not listed");

    QSignalSpy done(&browser, &ChannelBrowser::actionFinished);
    answerRedriveDialog(QString(), [&] { browser.redriveSelected(); });
    QVERIFY2(QTest::qWaitFor([&] { return browser.redriveRunning() || !done.isEmpty(); }, 5000),
             qPrintable(browser.outcomeText()));
    QVERIFY2(QTest::qWaitFor([&] { return !done.isEmpty(); }, 120000), "no result in 120 s");
    const QString said = browser.outcomeText();
    QVERIFY2(said.contains(QStringLiteral("✓ Redrive of orders.dead-letter: moved %1 (orders: %1), "
                                          "failed 0, no target 0, duplicated 0, left ")
                               .arg(count)),
             qPrintable(said));
    QCOMPARE(browser.redriveProgressText(), QString());
    QCOMPARE(takeAll(*c, kSource), count);
    QCOMPARE(takeAll(*c, kDeadLetter.toStdString()), 0);
}

void TestChannelRedrive::movesDeadLettersBackThroughTheDialog() {
    ConnectionController connection;
    QString error;
    QVERIFY2(connection.startEmbedded(0, &error), qPrintable(error));
    checkRoundTrip(connection, connection.settings().address.toStdString(), 12);
}

// An empty, invalid or same-as-source target is said under the field and the
// dialog stays open: nothing is sent.
void TestChannelRedrive::dialogRefusesBadTargets() {
    RedriveDialog dialog(kDeadLetter, QStringLiteral("orders"));
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QRadioButton* named = nullptr;
    for (auto* radio : dialog.findChildren<QRadioButton*>()) {
        if (radio->text().contains(QStringLiteral("channel:"))) {
            named = radio;
        }
    }
    QVERIFY(named);
    named->click();
    dialog.redriveButton()->click();
    QVERIFY(dialog.isVisible());
    QVERIFY2(dialog.problem().contains(QStringLiteral("Name the channel")),
             qPrintable(dialog.problem()));
    dialog.setTarget(QStringLiteral("orders *"));
    dialog.redriveButton()->click();
    QVERIFY(dialog.isVisible());
    QVERIFY2(dialog.problem().contains(QStringLiteral("whitespace")), qPrintable(dialog.problem()));
    dialog.setTarget(kDeadLetter);
    dialog.redriveButton()->click();
    QVERIFY(dialog.isVisible());
    QVERIFY2(dialog.problem().contains(QStringLiteral("name another")),
             qPrintable(dialog.problem()));
    dialog.setTarget(QStringLiteral("orders.retry"));
    dialog.redriveButton()->click();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(dialog.target(), QStringLiteral("orders.retry"));
}

// One message per receive, Cancel at the first progress: what moved is in
// the named target, the rest still in the dead-letter channel.
void TestChannelRedrive::cancelPartWayAccountsForEveryMessage() {
    ConnectionController connection;
    QString error;
    QVERIFY2(connection.startEmbedded(0, &error), qPrintable(error));
    auto c = makeClient(connection.settings().address.toStdString());
    QVERIFY(c);
    const int count = 60;
    QVERIFY2(deadLetter(*c, count, &error), qPrintable(error));
    ChannelBrowser browser(&connection);
    browser.setAutoRefresh(false);
    browser.setRedriveBatch(1);
    browser.show();
    QVERIFY2(selectWhenListed(browser, kDeadLetter), "the dead-letter channel is not listed");

    QSignalSpy done(&browser, &ChannelBrowser::actionFinished);
    answerRedriveDialog(QStringLiteral("orders.retry"), [&] { browser.redriveSelected(); });
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                     return browser.redriveProgressText().contains(QStringLiteral("moved ")) ||
                            !done.isEmpty();
                 },
                 60000),
             "no progress in 60 s");
    const QString progress = browser.redriveProgressText();
    browser.cancelRedrive();
    QVERIFY2(QTest::qWaitFor([&] { return !done.isEmpty(); }, 60000), "no result in 60 s");
    const QString said = browser.outcomeText();
    const int moved = figure(said, QStringLiteral("moved"));
    const int left = figure(said, QStringLiteral("left"));
    qInfo("%s", qPrintable(said));  // how far it got before the cancel landed
    QVERIFY2(moved >= 0 && left >= 0 && moved + left == count,
             qPrintable(progress + QStringLiteral(" | ") + said));
    if (moved < count) {
        QVERIFY2(said.contains(QStringLiteral("(cancelled)")), qPrintable(said));
    }
    QCOMPARE(takeAll(*c, "orders.retry"), moved);
    QCOMPARE(takeAll(*c, kDeadLetter.toStdString()), left);
}

// The broker stops after the first progress: the result says what stopped
// it, and after a restart every message is in one of the channels (a copy
// whose ack failed is in both and counted as duplicated). The broker keeps
// its messages in a data directory, so they outlive the stop.
void TestChannelRedrive::aServerThatGoesAwayLosesNothing() {
    QTemporaryDir data;
    QVERIFY(data.isValid());
    broker::BrokerOptions options;
    options.bindAddress = "127.0.0.1";
    options.port = 0;
    options.dataDirectory = data.path().toStdString();
    auto broker = std::make_unique<broker::Broker>(options);
    std::string startError;
    QVERIFY2(broker->start(&startError), startError.c_str());
    const int count = 300;
    QString error;
    {
        auto c = makeClient(broker->address());
        QVERIFY(c);
        QVERIFY2(deadLetter(*c, count, &error), qPrintable(error));
    }
    ConnectionController connection;
    ConnectionSettings settings;
    settings.address = QString::fromStdString(broker->address());
    connection.connectTo(settings);
    ChannelBrowser browser(&connection);
    browser.setAutoRefresh(false);
    browser.setRedriveBatch(1);
    browser.show();
    QVERIFY2(selectWhenListed(browser, kDeadLetter), "the dead-letter channel is not listed");

    QSignalSpy done(&browser, &ChannelBrowser::actionFinished);
    answerRedriveDialog(QString(), [&] { browser.redriveSelected(); });
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                     return browser.redriveProgressText().contains(QStringLiteral("moved ")) ||
                            !done.isEmpty();
                 },
                 60000),
             "no progress in 60 s");
    broker.reset();
    QVERIFY2(QTest::qWaitFor([&] { return !done.isEmpty(); }, 120000), "no result in 120 s");
    const QString said = browser.outcomeText();
    const int moved = figure(said, QStringLiteral("moved"));
    const int duplicated = figure(said, QStringLiteral("duplicated"));
    qInfo("%s", qPrintable(said));  // how far it got before the stop
    QVERIFY2(moved >= 0 && duplicated >= 0, qPrintable(said));
    if (moved + duplicated < count) {
        QVERIFY2(said.contains(QStringLiteral("⚠ Redrive of orders.dead-letter")) &&
                     said.contains(QStringLiteral("stopped: ")),
                 qPrintable(said));
    }
    broker = std::make_unique<broker::Broker>(options);  // the same data directory
    QVERIFY2(broker->start(&startError), startError.c_str());
    auto c = makeClient(broker->address());
    QVERIFY(c);
    const int inSource = takeAll(*c, kSource);
    const int inDeadLetter = takeAll(*c, kDeadLetter.toStdString());
    const QString counts = QStringLiteral("%1 in orders, %2 in the dead-letter channel after: %3")
                               .arg(inSource)
                               .arg(inDeadLetter)
                               .arg(said);
    QVERIFY2(inSource >= moved, qPrintable(counts));
    QVERIFY2(inSource + inDeadLetter == count + duplicated, qPrintable(counts));
}

// Nothing answers at the address: the result says why, and nothing moved.
void TestChannelRedrive::aServerThatIsGoneIsSaid() {
    ConnectionController connection;
    QString error;
    QVERIFY2(connection.startEmbedded(0, &error), qPrintable(error));
    ChannelBrowser browser(&connection);
    browser.setAutoRefresh(false);
    connection.embeddedBroker()->stop();
    QSignalSpy done(&browser, &ChannelBrowser::actionFinished);
    browser.redriveChannel(kDeadLetter, QString());
    QVERIFY2(QTest::qWaitFor([&] { return !done.isEmpty(); }, 120000), "no result in 120 s");
    const QString said = browser.outcomeText();
    QVERIFY2(said.contains(QStringLiteral("⚠ Redrive of orders.dead-letter: moved 0, failed 0")) &&
                 said.contains(QStringLiteral("left unknown (the server did not answer)")) &&
                 said.contains(QStringLiteral("stopped: receiving from orders.dead-letter: ")),
             qPrintable(said));
}

void TestChannelRedrive::againstRealKubemq() {
    if (!test::RealServer::present()) {
        QSKIP(qPrintable(test::RealServer::absentMessage()));
    }
    test::RealServer server;
    QString why;
    QVERIFY2(server.start(&why), qPrintable(QStringLiteral("cannot start kubemq: ") + why));
    ConnectionController connection;
    ConnectionSettings settings;
    settings.address = QString::fromStdString(server.address());
    connection.connectTo(settings);
    QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ConnectionController::State::Connected, 30000);
    checkRoundTrip(connection, server.address(), 8);
}

QTEST_MAIN(TestChannelRedrive)
#include "tst_channel_redrive.moc"
