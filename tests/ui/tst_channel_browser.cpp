#include <QDir>
#include <QHeaderView>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "client/queues_client.h"
#include "controllers/connection_controller.h"
#include "controllers/save_location.h"
#include "dialogs/create_channel_dialog.h"
#include "models/channel_list_model.h"
#include "panels/channel_browser.h"
#include "widgets/channel_rate_chart.h"

using namespace qs;
using namespace qs::ui;

// The channels view refuses names the protocol refuses by the field, says
// plainly what the server did with a create, delete or purge (and keeps
// saying it past the next list refresh), and save dialogs never start in the
// working directory.
class TestChannelBrowser : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void badNamesAreRefused_data();
    void badNamesAreRefused();
    void dialogRefusesByTheField();
    void createPurgeDeleteSaySo();
    void aRefusedCreateSaysWhy();
    void saveDialogsStartInDocumentsThenTheLastFolder();
    void peekPaneShowsRowsWithoutSidewaysScrolling();
    void ratesOverTimeFollowTheSelection();

private:
    // The next action's outcome, after the list refresh that follows it.
    static QString outcomeAfterRefresh(ChannelBrowser& browser,
                                       const std::function<void()>& action);
};

void TestChannelBrowser::badNamesAreRefused_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("says");
    QTest::newRow("empty") << QString() << QStringLiteral("Channel name is required");
    QTest::newRow("space") << QStringLiteral("my tasks") << QStringLiteral("whitespace");
    QTest::newRow("star") << QStringLiteral("tasks.*") << QStringLiteral("wildcards");
    QTest::newRow("greater") << QStringLiteral("tasks.>") << QStringLiteral("wildcards");
}

void TestChannelBrowser::badNamesAreRefused() {
    QFETCH(QString, name);
    QFETCH(QString, says);
    const QString problem = CreateChannelDialog::nameProblem(name);
    QVERIFY2(problem.contains(says), qPrintable(problem));
    QCOMPARE(CreateChannelDialog::nameProblem(QStringLiteral("tasks.images")), QString());
}

void TestChannelBrowser::dialogRefusesByTheField() {
    CreateChannelDialog dialog;
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    dialog.setName(QStringLiteral("my tasks"));
    QVERIFY2(dialog.problem().contains(QStringLiteral("whitespace")), qPrintable(dialog.problem()));
    dialog.createButton()->click();
    QVERIFY(dialog.isVisible());
    QCOMPARE(dialog.result(), int(QDialog::Rejected));
    dialog.setName(QString());
    dialog.createButton()->click();  // empty: said on Create, not while typing
    QVERIFY(dialog.isVisible());
    QVERIFY2(dialog.problem().contains(QStringLiteral("required")), qPrintable(dialog.problem()));
    dialog.setName(QStringLiteral("tasks.images"));
    QCOMPARE(dialog.problem(), QString());
    dialog.createButton()->click();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
}

QString TestChannelBrowser::outcomeAfterRefresh(ChannelBrowser& browser,
                                                const std::function<void()>& action) {
    QSignalSpy done(&browser, &ChannelBrowser::actionFinished);
    action();
    if (done.isEmpty() && !done.wait(30000)) {
        return QStringLiteral("(no outcome)");
    }
    QSignalSpy refreshed(&browser, &ChannelBrowser::refreshed);
    browser.refresh();  // the periodic refresh must not replace what the action said
    refreshed.wait(30000);
    return browser.outcomeText();
}

void TestChannelBrowser::createPurgeDeleteSaySo() {
    ConnectionController connection;
    QString error;
    QVERIFY2(connection.startEmbedded(0, &error), qPrintable(error));
    ChannelBrowser browser(&connection);
    browser.setAutoRefresh(false);
    browser.show();

    QString said = outcomeAfterRefresh(
        browser, [&] { browser.createChannelNamed(QStringLiteral("my tasks")); });
    QVERIFY2(said.contains(QStringLiteral("whitespace")), qPrintable(said));

    said = outcomeAfterRefresh(
        browser, [&] { browser.createChannelNamed(QStringLiteral("panels.created")); });
    QVERIFY2(said.contains(QStringLiteral("✓ Created channel panels.created")), qPrintable(said));

    for (int i = 0; i < 5; ++i) {
        client::QueueMessage m;
        m.channel = "panels.created";
        m.body = "task";
        QVERIFY(connection.client()->send(m).ok());
    }
    said = outcomeAfterRefresh(browser,
                               [&] { browser.purgeChannel(QStringLiteral("panels.created")); });
    QVERIFY2(said.contains(QStringLiteral("✓ Purged 5 message(s) from panels.created")),
             qPrintable(said));

    said = outcomeAfterRefresh(browser,
                               [&] { browser.deleteChannel(QStringLiteral("panels.created")); });
    QVERIFY2(said.contains(QStringLiteral("✓ Deleted channel panels.created")), qPrintable(said));
}

// A name the client lets through but the server refuses: its answer is shown.
void TestChannelBrowser::aRefusedCreateSaysWhy() {
    ConnectionController connection;
    QString error;
    QVERIFY2(connection.startEmbedded(0, &error), qPrintable(error));
    ChannelBrowser browser(&connection);
    browser.setAutoRefresh(false);
    const auto direct = connection.client()->createQueue("tasks/a");
    QVERIFY2(!direct.ok(), "the embedded broker accepted a name a real server refuses");
    const QString said = outcomeAfterRefresh(
        browser, [&] { browser.createChannelNamed(QStringLiteral("tasks/a")); });
    QVERIFY2(said.contains(QStringLiteral("⚠ The server did not create tasks/a: ")) &&
                 said.contains(QString::fromStdString(direct.error().message)),
             qPrintable(said));
}

void TestChannelBrowser::saveDialogsStartInDocumentsThenTheLastFolder() {
    resetLastSaveFolder();
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const QString first = suggestedSavePath(QStringLiteral("charts.png"));
    QCOMPARE(QFileInfo(first).fileName(), QStringLiteral("charts.png"));
    QVERIFY2(QFileInfo(first).absolutePath() != QDir::currentPath(), qPrintable(first));
    if (!documents.isEmpty()) {
        QCOMPARE(QFileInfo(first).absolutePath(), QDir(documents).absolutePath());
    }
    QTemporaryDir dir;
    noteSavedTo(dir.filePath(QStringLiteral("events.csv")));
    QCOMPARE(suggestedSavePath(QStringLiteral("timeline.png")),
             QDir(dir.path()).filePath(QStringLiteral("timeline.png")));
    resetLastSaveFolder();
}

// The peek pane showed about two and a half rows and scrolled sideways
// (#17 item 4): now six rows at least, and its columns share its width.
void TestChannelBrowser::peekPaneShowsRowsWithoutSidewaysScrolling() {
    ConnectionController connection;
    QString error;
    QVERIFY2(connection.startEmbedded(0, &error), qPrintable(error));
    auto client = connection.client();
    QVERIFY(client);
    for (int i = 0; i < 8; ++i) {
        client::QueueMessage m;
        m.channel = "peek.rows";
        m.body = std::string(300, 'x');  // a body far wider than the pane
        QVERIFY(client->send(m).ok());
    }
    ChannelBrowser browser(&connection);
    browser.resize(640, 480);
    browser.show();
    QVERIFY(QTest::qWaitForWindowExposed(&browser));
    browser.refresh();
    QTRY_VERIFY_WITH_TIMEOUT((browser.selectChannel(QStringLiteral("peek.rows")),
                              browser.selectedChannel() == QStringLiteral("peek.rows")),
                             20000);
    browser.peekSelected();
    QTableWidget* peek = nullptr;
    for (auto* table : browser.findChildren<QTableWidget*>()) {
        if (table->accessibleName() == QStringLiteral("Peeked messages")) {
            peek = table;
        }
    }
    QVERIFY(peek);
    QTRY_COMPARE_WITH_TIMEOUT(peek->rowCount(), 8, 20000);
    QCoreApplication::processEvents();
    const int rowsShown =
        (peek->viewport()->height()) / peek->verticalHeader()->defaultSectionSize();
    QVERIFY2(rowsShown >= 6, qPrintable(QString::number(rowsShown)));
    QVERIFY(!peek->horizontalScrollBar()->isVisible());
    QVERIFY(peek->horizontalHeader()->length() <= peek->viewport()->width());
    // The body's cell is elided in the pane and whole (its first 200 bytes) on hover.
    QCOMPARE(peek->item(0, 2)->toolTip(), peek->item(0, 2)->text());
    QVERIFY(peek->fontMetrics().horizontalAdvance(peek->item(0, 2)->text()) > peek->columnWidth(2));
}

// The Rates tab plots the selected channel from the polls of the server's
// counters: its newest point is the list's Sent/s, and a peek brings the peek
// tab back into view.
void TestChannelBrowser::ratesOverTimeFollowTheSelection() {
    ConnectionController connection;
    QString error;
    QVERIFY2(connection.startEmbedded(0, &error), qPrintable(error));
    auto client = connection.client();
    QVERIFY(client);
    const auto sendSome = [&](int n) {
        for (int i = 0; i < n; ++i) {
            client::QueueMessage m;
            m.channel = "rates.chart";
            m.body = "task";
            QVERIFY(client->send(m).ok());
        }
    };
    sendSome(4);
    ChannelBrowser browser(&connection);
    browser.setAutoRefresh(false);
    browser.show();
    QVERIFY(QTest::qWaitForWindowExposed(&browser));
    QSignalSpy refreshed(&browser, &ChannelBrowser::refreshed);
    browser.refresh();
    QTRY_VERIFY_WITH_TIMEOUT(!refreshed.isEmpty(), 20000);
    browser.selectChannel(QStringLiteral("rates.chart"));
    ChannelRateChart* chart = browser.rateChart();
    QCOMPARE(chart->channel(), QStringLiteral("rates.chart"));
    QVERIFY(chart->seriesPoints(QStringLiteral("sent/s")).isEmpty());  // one poll: no rate yet
    sendSome(6);
    refreshed.clear();
    browser.refresh();
    QTRY_VERIFY_WITH_TIMEOUT(!refreshed.isEmpty(), 20000);
    const QList<QPointF> sent = chart->seriesPoints(QStringLiteral("sent/s"));
    QCOMPARE(sent.size(), 1);
    const int row = browser.model()->rowOf(QStringLiteral("rates.chart"));
    const double listed = browser.model()
                              ->index(row, ChannelListModel::SentRateColumn)
                              .data(ChannelListModel::SortRole)
                              .toDouble();
    QVERIFY(listed > 0);
    QCOMPARE(sent.last().y(), listed);
    QCOMPARE(chart->seriesPoints(QStringLiteral("waiting")).last().y(), 10.0);
    QVERIFY2(chart->summaryText().contains(QStringLiteral("10 waiting · 0 delayed · 0 client(s)")),
             qPrintable(chart->summaryText()));

    browser.peekSelected();
    QTRY_VERIFY_WITH_TIMEOUT(browser.peekTitle().contains(QStringLiteral("10 waiting")), 20000);
    QVERIFY(!browser.showingRates());
}

QTEST_MAIN(TestChannelBrowser)
#include "tst_channel_browser.moc"
