// The Channels tab's "Redrive…" against a real broker: the embedded one on a
// free loopback port, and the real KubeMQ v2.4.0 when it is here (skipped
// with a message otherwise). Messages are dead-lettered for real (rejected
// past MaxReceiveCount 1), moved back through the dialog, and counted in both
// channels afterwards with a client of the test's own. A cancel part-way and
// a server that goes away mid-redrive leave every message accounted for.
#include <QApplication>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "broker/broker.h"
#include "client/queues_client.h"
#include "controllers/connection_controller.h"
#include "controllers/connection_settings.h"
#include "dialogs/redrive_dialog.h"
#include "events/event_stream.h"
#include "models/channel_list_model.h"
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

// Runs `action` (which opens the modal RedriveDialog) and answers it with
// `answer`, which also checks what the dialog offered.
void answerDialog(const std::function<void(RedriveDialog*)>& answer,
                  const std::function<void()>& action) {
    QTimer::singleShot(0, [answer] {
        auto* dialog = qobject_cast<RedriveDialog*>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        answer(dialog);
        if (dialog->isVisible()) {
            dialog->reject();  // a failed check must not leave the modal loop running
        }
    });
    action();
}

// The waiting messages of `channel` (a peek: nothing consumed).
std::vector<client::QueueMessage> peekAll(client::QueuesClient& c, const std::string& channel) {
    auto peeked = c.peek(channel, 1024, 1s);
    return peeked.ok() ? peeked.value().messages : std::vector<client::QueueMessage>{};
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
    void dialogRefusesBadPolicy();
    void movesOnlySelectedWithTheRestoredPolicy();
    void cancelPartWayAccountsForEveryMessage();
    void aServerThatGoesAwayLosesNothing();
    void aServerThatIsGoneIsSaid();
    void againstRealKubemq();

private:
    // Dead-letters `count` on the browser's server, redrives kDeadLetter back
    // through the dialog, and checks both channels and the result line.
    void checkRoundTrip(ConnectionController& connection, const std::string& address, int count);
    // Dead-letters six, peeks, selects two rows and redrives them through
    // the dialog with the max receive count the console knows (2): they move,
    // the other four stay as they were, and two rejects dead-letter a moved
    // one again.
    void checkSelected(ConnectionController& connection, const std::string& address);
};

void TestChannelRedrive::checkRoundTrip(ConnectionController& connection,
                                        const std::string& address, int count) {
    auto c = makeClient(address);
    QVERIFY(c);
    QString why;
    QVERIFY2(deadLetter(*c, count, &why), qPrintable(why));
    ChannelBrowser browser(&connection);
    EventStream run;  // the console's run: each move is reported into it
    browser.setRunStream(&run);
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
    std::vector<Event> reported;
    QTRY_VERIFY_WITH_TIMEOUT((run.drain(reported), reported.size() >= std::size_t(count)), 10000);
    std::set<std::string> movedIds;
    for (const Event& e : reported) {
        QVERIFY(e.kind == EventKind::MessageRedriven);
        QCOMPARE(std::string(e.channel.view()), kSource);
        QCOMPARE(e.detail, kDeadLetter.toStdString());
        movedIds.insert(std::string(e.messageId.view()));
    }
    QCOMPARE(movedIds.size(), std::size_t(count));
    browser.setRunStream(nullptr);
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

void TestChannelRedrive::dialogRefusesBadPolicy() {
    RedriveDialog dialog(kDeadLetter, QStringLiteral("orders"));
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    dialog.setDeadLetterQueue(QStringLiteral("dead letters"));
    dialog.redriveButton()->click();
    QVERIFY(dialog.isVisible());
    QVERIFY2(dialog.problem().contains(QStringLiteral("must not contain whitespace")),
             qPrintable(dialog.problem()));
    dialog.setTarget(QStringLiteral("orders.retry"));
    dialog.setDeadLetterQueue(QStringLiteral("orders.retry"));
    dialog.redriveButton()->click();
    QVERIFY(dialog.isVisible());
    QVERIFY2(dialog.problem().contains(QStringLiteral("The dead-letter queue is the target channel")),
             qPrintable(dialog.problem()));
    dialog.setDeadLetterQueue(QString());

    // A typed 2000 is said under the field and refused, not clamped.
    dialog.setMaxReceiveCount(3);
    auto* box = dialog.findChild<QSpinBox*>(QStringLiteral("redriveMaxReceiveCount"));
    QVERIFY(box);
    auto* edit = box->findChild<QLineEdit*>();
    QVERIFY(edit);
    edit->selectAll();
    QTest::keyClicks(edit, QStringLiteral("2000"));
    dialog.redriveButton()->click();
    QVERIFY(dialog.isVisible());
    QVERIFY2(dialog.problem() ==
                 QStringLiteral("Max receive count must be between 0 and 1024 (got 2000)"),
             qPrintable(dialog.problem()));

    // Nothing selected in a peek: "only the selected" cannot be chosen.
    dialog.chooseSelected();
    dialog.setMaxReceiveCount(2);
    dialog.chooseUpTo(5);
    dialog.redriveButton()->click();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    const runner::RedriveOptions o = dialog.options({});
    QCOMPARE(o.from, kDeadLetter.toStdString());
    QCOMPARE(o.to, std::string("orders.retry"));
    QCOMPARE(o.max, std::uint64_t(5));
    QVERIFY(o.sequences.empty());
    QCOMPARE(o.maxReceiveCount, std::optional<int>(2));
    QCOMPARE(o.deadLetterQueue, std::optional<std::string>());
}

void TestChannelRedrive::movesOnlySelectedWithTheRestoredPolicy() {
    ConnectionController connection;
    QString error;
    QVERIFY2(connection.startEmbedded(0, &error), qPrintable(error));
    checkSelected(connection, connection.settings().address.toStdString());
}

void TestChannelRedrive::checkSelected(ConnectionController& connection,
                                       const std::string& address) {
    auto c = makeClient(address);
    QVERIFY(c);
    QString why;
    QVERIFY2(deadLetter(*c, 6, &why), qPrintable(why));
    std::map<std::string, client::QueueMessage> before;
    QVERIFY(QTest::qWaitFor(
        [&] {
            before.clear();
            for (auto& m : peekAll(*c, kDeadLetter.toStdString()))
                before[m.id] = m;
            return before.size() == 6;
        },
        30000));
    ChannelBrowser browser(&connection);
    browser.setAutoRefresh(false);
    browser.show();
    QVERIFY2(selectWhenListed(browser, kDeadLetter), "the dead-letter channel is not listed");
    browser.model()->noteDeadLetter(kDeadLetter, QStringLiteral("orders"), 2);  // as sent
    QSignalSpy peeked(&browser, &ChannelBrowser::peeked);
    browser.peekSelected();
    QVERIFY(QTest::qWaitFor([&] { return !peeked.isEmpty(); }, 30000));
    QCOMPARE(peeked.takeFirst().at(1).toInt(), 6);
    auto* table = browser.findChild<QTableWidget*>();
    QVERIFY(table);
    browser.selectPeekRows({1, 3});
    const std::set<std::string> chosen = {table->item(1, 1)->text().toStdString(),
                                          table->item(3, 1)->text().toStdString()};

    QSignalSpy done(&browser, &ChannelBrowser::actionFinished);
    answerDialog(
        [](RedriveDialog* dialog) {
            const runner::RedriveOptions o = dialog->options({});
            QCOMPARE(o.sequences.size(), std::size_t(2));  // chosen: two rows selected
            QCOMPARE(o.maxReceiveCount, std::optional<int>(2));  // what the console sent
            dialog->redriveButton()->click();
        },
        [&] { browser.redriveSelected(); });
    QVERIFY2(QTest::qWaitFor([&] { return !done.isEmpty(); }, 120000), "no result in 120 s");
    const QString said = browser.outcomeText();
    QVERIFY2(said.contains(QStringLiteral("✓ Redrive of orders.dead-letter: moved 2 (orders: 2), "
                                          "failed 0, no target 0, duplicated 0, left ")),
             qPrintable(said));
    // The list is peeked again: what is left.
    QVERIFY2(QTest::qWaitFor([&] { return !peeked.isEmpty(); }, 30000), "no new peek");
    QCOMPARE(peeked.takeFirst().at(1).toInt(), 4);

    std::vector<client::QueueMessage> moved;
    QVERIFY(QTest::qWaitFor([&] { return (moved = peekAll(*c, kSource)).size() == 2; }, 30000));
    for (const auto& m : moved) {
        QVERIFY2(chosen.count(m.id) == 1, m.id.c_str());
        QCOMPARE(m.policy.maxReceiveCount, 2);
        QCOMPARE(m.policy.deadLetterQueue, kDeadLetter.toStdString());
    }
    std::vector<client::QueueMessage> left;
    QVERIFY(QTest::qWaitFor(
        [&] { return (left = peekAll(*c, kDeadLetter.toStdString())).size() == 4; }, 30000));
    for (const auto& m : left) {
        QVERIFY2(chosen.count(m.id) == 0, m.id.c_str());
        QCOMPARE(m.attributes.sequence, before[m.id].attributes.sequence);
        QCOMPARE(m.attributes.receiveCount, before[m.id].attributes.receiveCount);
    }
    // Two rejects each: over the restored max receive count, dead-lettered again.
    int rejected = 0;
    for (int round = 0; round < 40 && rejected < 4; ++round) {
        auto got = c->receive(kSource, 2, 1s);
        QVERIFY(got.ok());
        rejected += static_cast<int>(got.value().size());
        if (!got.value().empty())
            QVERIFY(got.value().rejectAll().ok());
    }
    QCOMPARE(rejected, 4);
    QVERIFY(QTest::qWaitFor(
        [&] { return peekAll(*c, kDeadLetter.toStdString()).size() == 6; }, 30000));
    QVERIFY(peekAll(*c, kSource).empty());
    QCOMPARE(takeAll(*c, kDeadLetter.toStdString()), 6);
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
    checkSelected(connection, server.address());
}

QTEST_MAIN(TestChannelRedrive)
#include "tst_channel_redrive.moc"
