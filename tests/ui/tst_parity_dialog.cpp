// Run → Parity check…: a shipped scenario on the embedded broker and on "the
// server", a second embedded broker in this process on 127.0.0.1 (port 0),
// run off the UI thread from the console's dialog. The comparison window
// shows the verdict the core reaches on the two recordings (the same, and a
// real difference from a message left on the server); a bad address
// is refused before anything runs; an absent server is said plainly; Stop
// ends the check with nothing compared, nothing sent to the server and the
// embedded run's recording kept.
#include <QAction>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <memory>

#include "analysis/recorded_run.h"
#include "analysis/run_comparison.h"
#include "broker/broker.h"
#include "client/queues_client.h"
#include "controllers/connection_controller.h"
#include "controllers/connection_settings.h"
#include "dialogs/parity_dialog.h"
#include "main_window.h"
#include "models/comparison_model.h"
#include "panels/comparison_view.h"
#include "window_fixture.h"

using namespace qs;
using namespace qs::ui;

namespace {

constexpr int kDeadlineMs = 150000;

// Messages stored in `channel` on the server at `address` (-1: no answer).
qint64 storedOn(const std::string& address, const std::string& channel) {
    client::ClientOptions options;
    options.address = address;
    options.clientId = "parity-dialog-test";
    auto made = client::QueuesClient::create(options);
    if (!made.ok()) {
        return -1;
    }
    auto info = made.value()->queuesInfo(channel);
    if (!info.ok()) {
        return -1;
    }
    for (const client::QueueChannelInfo& q : info.value().queues) {
        if (q.name == channel) {
            return q.storedMessages;
        }
    }
    return 0;
}

// A loopback port nothing listens on: a broker's, stopped.
std::string deadAddress() {
    broker::BrokerOptions options;
    options.bindAddress = "127.0.0.1";
    options.port = 0;
    broker::Broker broker(options);
    std::string error;
    if (!broker.start(&error)) {
        return {};
    }
    const std::string address = broker.address();
    broker.stop();
    return address;
}

}  // namespace

class TestParityDialog : public QObject {
    Q_OBJECT

    QTemporaryDir temp_;  // the parity recordings' temporary folders go here
    std::unique_ptr<broker::Broker> server_;
    std::unique_ptr<MainWindow> window_;

    QString serverAddress() const { return QString::fromStdString(server_->address()); }

    ParityDialog* openFromMenu() {
        auto* action = window_->findChild<QAction*>(QStringLiteral("parityAction"));
        if (action == nullptr) {
            return nullptr;
        }
        action->trigger();
        return window_->findChild<ParityDialog*>(QStringLiteral("parityDialog"));
    }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(temp_.isValid());
        qputenv("TMPDIR", temp_.path().toLocal8Bit());
    }

    void init() {
        broker::BrokerOptions options;
        options.bindAddress = "127.0.0.1";
        options.port = 0;
        server_ = std::make_unique<broker::Broker>(options);
        std::string error;
        QVERIFY2(server_->start(&error), error.c_str());
        window_ = std::make_unique<MainWindow>(test::offlineOptions());
        window_->show();
        QString startError;
        QVERIFY2(window_->connection()->startEmbedded(0, &startError), qPrintable(startError));
    }
    void cleanup() {
        window_.reset();
        server_.reset();
    }

    // Both sides are our broker: the check compares, and the window shows
    // the verdict the core reaches on the two recordings it names.
    void theComparisonShowsTheCoresVerdict() {
        ParityDialog* dialog = openFromMenu();
        QVERIFY(dialog != nullptr);
        QVERIFY(dialog->addressField()->text().isEmpty());  // the console uses the embedded broker
        dialog->scenarioBox()->setCurrentText(QStringLiteral("05-poison-dead-letter"));
        QCOMPARE(dialog->scenarioBox()->currentText(), QStringLiteral("05-poison-dead-letter"));
        dialog->addressField()->setText(serverAddress());
        QTest::mouseClick(dialog->runButton(), Qt::LeftButton);
        QVERIFY(dialog->isRunning());
        QVERIFY(!dialog->runButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(dialog->progressText().startsWith(QStringLiteral("Run 1 of 2")),
                                 kDeadlineMs);
        QTRY_VERIFY_WITH_TIMEOUT(window_->findChild<ComparisonView*>(), kDeadlineMs);
        auto* view = window_->findChild<ComparisonView*>();
        QVERIFY(view->isVisible());
        QTRY_VERIFY(window_->findChild<ParityDialog*>() == nullptr);  // closed once compared

        // The core's judgement of the two recordings the window names.
        const QString text = view->textCopy();
        std::string error;
        const ComparisonModel* model = view->comparisonModel();
        QCOMPARE(model->headerData(ComparisonModel::ThisRun, Qt::Horizontal).toString(),
                 QStringLiteral("Embedded broker"));
        QCOMPARE(model->headerData(ComparisonModel::OtherRun, Qt::Horizontal).toString(),
                 QStringLiteral("Server ") + serverAddress());
        const QString embeddedFile = view->result().a;
        const QString serverFile = view->result().b;
        const QString files = embeddedFile + QLatin1Char(' ') + serverFile;
        QVERIFY2(embeddedFile.endsWith(QStringLiteral("05-poison-dead-letter.embedded.qsrun")),
                 qPrintable(files));
        QVERIFY2(serverFile.endsWith(QStringLiteral("05-poison-dead-letter.server.qsrun")),
                 qPrintable(files));
        auto a = analysis::RecordedRun::load(embeddedFile.toStdString(), &error);
        QVERIFY2(a, error.c_str());
        auto b = analysis::RecordedRun::load(serverFile.toStdString(), &error);
        QVERIFY2(b, error.c_str());
        const analysis::RunComparison core = analysis::compareRuns(*a, *b);
        QVERIFY2(!core.differs(), text.toUtf8().constData());
        const std::size_t allowed = core.count(analysis::Verdict::Allowed);
        const QString expected = allowed == 0
                                     ? QStringLiteral("Parity of 05-poison-dead-letter: The same")
                                     : QStringLiteral(
                                           "Parity of 05-poison-dead-letter: Only allowed "
                                           "differences");
        QVERIFY2(view->verdictLine().startsWith(expected), qPrintable(view->verdictLine()));
        QVERIFY2(view->verdictLine().endsWith(QStringLiteral("(queuescope parity: exit 0)")),
                 qPrintable(view->verdictLine()));
        QVERIFY(text.contains(QStringLiteral("server ") + serverAddress()));
    }

    // Another client left a message in the scenario's channel on the server:
    // a real difference, said as such (exit 1), as the core judges the pair.
    void aLeftoverMessageIsARealDifference() {
        client::ClientOptions options;
        options.address = server_->address();
        options.clientId = "leftover-sender";
        auto sender = client::QueuesClient::create(options);
        QVERIFY(sender.ok());
        client::QueueMessage leftover;
        leftover.channel = "tasks";
        leftover.body = "left over";
        QVERIFY(sender.value()->send(leftover).ok());

        ParityDialog* dialog = window_->parityDialog();
        dialog->scenarioBox()->setCurrentText(QStringLiteral("01-classic-work-queue"));
        dialog->addressField()->setText(serverAddress());
        QVERIFY(dialog->startCheck());
        QTRY_VERIFY_WITH_TIMEOUT(window_->findChild<ComparisonView*>(), kDeadlineMs);
        auto* view = window_->findChild<ComparisonView*>();
        std::string error;
        auto a = analysis::RecordedRun::load(view->result().a.toStdString(), &error);
        QVERIFY2(a, error.c_str());
        auto b = analysis::RecordedRun::load(view->result().b.toStdString(), &error);
        QVERIFY2(b, error.c_str());
        const analysis::RunComparison core = analysis::compareRuns(*a, *b);
        QVERIFY(core.differs());
        const QString verdict = view->verdictLine();
        QVERIFY2(verdict.startsWith(QStringLiteral(
                     "Parity of 01-classic-work-queue: Real differences: the server and the "
                     "embedded broker disagree")),
                 qPrintable(verdict));
        QVERIFY2(verdict.contains(QStringLiteral("%1 real difference")
                                      .arg(core.count(analysis::Verdict::Differs))),
                 qPrintable(verdict));
        QVERIFY2(verdict.endsWith(QStringLiteral("(queuescope parity: exit 1)")),
                 qPrintable(verdict));
    }

    // The console's own server is offered; a bad address is refused where it
    // was typed and nothing runs.
    void theConsolesServerIsOfferedAndABadAddressRefused() {
        ConnectionSettings settings;
        settings.address = serverAddress();
        window_->connection()->connectTo(settings);
        QTRY_VERIFY_WITH_TIMEOUT(
            window_->connection()->state() == ConnectionController::State::Connected, kDeadlineMs);
        ParityDialog* dialog = window_->parityDialog();
        QCOMPARE(dialog->addressField()->text(), serverAddress());

        for (const QString& bad : {QStringLiteral("localhost"), QStringLiteral("127.0.0.1:99999"),
                                   QStringLiteral("hello world:1"), QString()}) {
            dialog->addressField()->setText(bad);
            QVERIFY2(!dialog->startCheck(), qPrintable(bad));
            QVERIFY(!dialog->isRunning());
            QVERIFY2(!dialog->problem().isEmpty(), qPrintable(bad));
            QVERIFY(dialog->outcomeText().isEmpty());
        }
        QVERIFY(dialog->problem().contains(QStringLiteral("host:port")));
        QCOMPARE(window_->parityDialog(), dialog);  // one dialog, raised again
    }

    // No server at the address: said plainly, the fields kept for another try.
    void anAbsentServerIsSaidPlainly() {
        const std::string dead = deadAddress();
        QVERIFY(!dead.empty());
        ParityDialog* dialog = window_->parityDialog();
        dialog->addressField()->setText(QString::fromStdString(dead));
        QVERIFY(dialog->startCheck());
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isRunning(), kDeadlineMs);
        const QString outcome = dialog->outcomeText();
        QVERIFY2(outcome.startsWith(QStringLiteral("Could not run: cannot reach the server at ") +
                                    QString::fromStdString(dead)),
                 qPrintable(outcome));
        QVERIFY2(outcome.contains(QStringLiteral("exit 2")), qPrintable(outcome));
        QVERIFY(window_->findChild<ComparisonView*>() == nullptr);
        QVERIFY(dialog->runButton()->isEnabled());
        QCOMPARE(dialog->addressField()->text(), QString::fromStdString(dead));
    }

    // Stop during the run on the embedded broker: it ends, nothing is compared
    // or sent to the server, and its recording is kept.
    void stopEndsCleanlyAndLosesNothing() {
        ParityDialog* dialog = window_->parityDialog();
        dialog->scenarioBox()->setCurrentText(QStringLiteral("06-live-tuning"));
        dialog->addressField()->setText(serverAddress());
        QVERIFY(dialog->startCheck());
        QTRY_VERIFY_WITH_TIMEOUT(dialog->progressText().contains(QStringLiteral("t=")),
                                 kDeadlineMs);
        QVERIFY(dialog->progressText().startsWith(QStringLiteral("Run 1 of 2")));
        QTest::mouseClick(dialog->stopButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isRunning(), 30000);
        const QString outcome = dialog->outcomeText();
        QVERIFY2(outcome.startsWith(QStringLiteral("Stopped on request during the run "
                                                   "on the embedded broker; nothing ran on the "
                                                   "server")),
                 qPrintable(outcome));
        QVERIFY(window_->findChild<ComparisonView*>() == nullptr);
        const QString kept = outcome.section(QStringLiteral("Kept:\n"), 1).trimmed();
        QVERIFY2(kept.endsWith(QStringLiteral("06-live-tuning.embedded.qsrun")), qPrintable(outcome));
        std::string error;
        QVERIFY2(analysis::RecordedRun::load(kept.toStdString(), &error), error.c_str());
        QCOMPARE(storedOn(server_->address(), "tasks.tuning"), qint64(0));
        QVERIFY(dialog->runButton()->isEnabled());

        // Closing while a check runs stops it first; the dialog goes once it ended.
        QVERIFY(dialog->startCheck());
        QTRY_VERIFY_WITH_TIMEOUT(dialog->progressText().contains(QStringLiteral("t=")),
                                 kDeadlineMs);
        dialog->reject();
        QVERIFY(window_->findChild<ParityDialog*>() != nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(window_->findChild<ParityDialog*>() == nullptr, 30000);
    }
};

QTEST_MAIN(TestParityDialog)
#include "tst_parity_dialog.moc"
