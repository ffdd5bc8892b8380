#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QTest>

#include "controllers/connection_controller.h"
#include "controllers/console_run.h"
#include "controllers/run_controller.h"
#include "layout_checks.h"
#include "main_window.h"
#include "panels/producer_panel.h"
#include "run/run.h"

using namespace qs;
using namespace qs::ui;

// The producer's primary action, its mode switch and its own errors are in
// view at every window size; the progress bar counts the current send.
class TestProducerPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sendModeAndErrorsInView_data();
    void sendModeAndErrorsInView();
    void progressCountsTheCurrentSend();
    void tabFollowsThePanel();
    void badQueueIsSaidAndTheRunKeepsItsQueue();
    void aSecondSendContinuesTheRunsNumbers();

private:
    static MainWindowOptions offlineOptions() {
        MainWindowOptions options;
        options.autoConnect = false;
        options.useSettings = false;
        return options;
    }
};

void TestProducerPanel::sendModeAndErrorsInView_data() {
    QTest::addColumn<QSize>("size");
    QTest::newRow("1280x720") << QSize(1280, 720);
    QTest::newRow("1600x1000") << QSize(1600, 1000);
    QTest::newRow("1920x1080") << QSize(1920, 1080);
}

void TestProducerPanel::sendModeAndErrorsInView() {
    QFETCH(QSize, size);
    MainWindow window(offlineOptions());
    window.resize(size);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ProducerPanel* panel = window.producerPanel();

    // A bad poison list: the producer's own red error, which must be read where Send is.
    auto* poison = panel->findChild<QLineEdit*>(QStringLiteral("poisonTasks"));
    QVERIFY(poison);
    poison->setText(QStringLiteral("3, seven"));
    panel->send();
    QVERIFY2(panel->errorText().contains(QStringLiteral("seven")), qPrintable(panel->errorText()));
    QTest::qWait(50);  // a layout pass for the error line

    const QString at = QStringLiteral(" at %1x%2").arg(size.width()).arg(size.height());
    for (const char* name : {"sendButton", "burstMode", "steadyMode", "producerRate", "taskCount",
                             "producerProgress", "producerStatus"}) {
        auto* w = panel->findChild<QWidget*>(QString::fromLatin1(name));
        const QString why = test::notInView(w, &window);
        QVERIFY2(why.isEmpty(),
                 qPrintable(QString::fromLatin1(name) + QStringLiteral(": ") + why + at));
    }
    // The error line is tall enough for all of its wrapped text.
    auto* status = panel->findChild<QLabel*>(QStringLiteral("producerStatus"));
    QVERIFY2(status->height() >= status->heightForWidth(status->width()),
             qPrintable(QStringLiteral("error text %1 px high, needs %2%3")
                            .arg(status->height())
                            .arg(status->heightForWidth(status->width()))
                            .arg(at)));
}

void TestProducerPanel::progressCountsTheCurrentSend() {
    MainWindow window(offlineOptions());
    window.resize(1280, 720);
    window.show();
    ProducerPanel* panel = window.producerPanel();
    panel->setCount(20);
    // Before any send the bar names no count at all (it read "0 / 100 sent").
    QCOMPARE(panel->progressText(), QStringLiteral("Nothing sent yet"));

    QString error;
    QVERIFY2(window.connection()->startEmbedded(0, &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(window.connection()->client() != nullptr, 20000);
    panel->send();
    QVERIFY2(panel->errorText().isEmpty(), qPrintable(panel->errorText()));
    QVERIFY2(panel->progressText().endsWith(QStringLiteral(" / 20 sent")),
             qPrintable(panel->progressText()));
    QTRY_COMPARE_WITH_TIMEOUT(panel->progressText(), QStringLiteral("20 / 20 sent"), 30000);

    // A new count in the form is not a send: the bar keeps the last send's count.
    panel->setCount(7);
    panel->refresh();
    QCOMPARE(panel->progressText(), QStringLiteral("20 / 20 sent"));
}

// Tab goes from what to send to Send, and only then into the details.
void TestProducerPanel::tabFollowsThePanel() {
    MainWindow window(offlineOptions());
    ProducerPanel* panel = window.producerPanel();
    QStringList seen;
    QWidget* w = panel->findChild<QWidget*>(QStringLiteral("producerQueue"));
    QVERIFY(w);
    for (int i = 0; i < 60 && w; ++i, w = w->nextInFocusChain()) {
        if (!w->objectName().isEmpty() && !seen.contains(w->objectName())) {
            seen << w->objectName();
        }
    }
    const QStringList expected = {QStringLiteral("producerQueue"), QStringLiteral("taskCount"),
                                  QStringLiteral("burstMode"),     QStringLiteral("sendButton"),
                                  QStringLiteral("bodyTemplate"),  QStringLiteral("poisonTasks")};
    qsizetype last = -1;
    for (const QString& name : expected) {
        const qsizetype at = seen.indexOf(name);
        QVERIFY2(at > last, qPrintable(name + QStringLiteral(" out of order: ") +
                                       seen.join(QStringLiteral(", "))));
        last = at;
    }
}

// An empty queue field once sent to the run's old queue without a word.
void TestProducerPanel::badQueueIsSaidAndTheRunKeepsItsQueue() {
    MainWindow window(offlineOptions());
    ProducerPanel* panel = window.producerPanel();
    const QString before = window.run()->channel();
    auto* queue = panel->findChild<QLineEdit*>(QStringLiteral("producerQueue"));
    QVERIFY(queue);
    for (const auto& [typed, says] :
         {std::pair{QStringLiteral("my tasks"), QStringLiteral("whitespace")},
          std::pair{QString(), QStringLiteral("Queue name is required")},
          std::pair{QStringLiteral("tasks.*"), QStringLiteral("wildcards")}}) {
        queue->setText(typed);
        Q_EMIT queue->editingFinished();
        QVERIFY2(panel->errorText().contains(says), qPrintable(panel->errorText()));
        panel->send();
        QVERIFY2(panel->errorText().contains(says), qPrintable(panel->errorText()));
        QCOMPARE(window.run()->channel(), before);
    }
}

// Item 5 of #17: the body of the run's task #n says "Task #n", also after
// another send (the producer's own count restarted at 1, so a second send's
// first body read "Task #1" while the run called it #4). The second Send is
// pressed while the first may still be sending and before the views have seen
// its tasks: the numbers still follow on.
void TestProducerPanel::aSecondSendContinuesTheRunsNumbers() {
    MainWindow window(offlineOptions());
    window.show();
    QString error;
    QVERIFY2(window.connection()->startEmbedded(0, &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(window.connection()->client() != nullptr, 20000);
    ProducerPanel* panel = window.producerPanel();
    panel->setCount(3);
    panel->send();
    panel->send();
    QVERIFY2(panel->errorText().isEmpty(), qPrintable(panel->errorText()));
    QTRY_COMPARE_WITH_TIMEOUT(panel->progressText(), QStringLiteral("3 / 3 sent"), 30000);
    panel->setCount(4);
    panel->send();
    QTRY_COMPARE_WITH_TIMEOUT(panel->progressText(), QStringLiteral("4 / 4 sent"), 30000);
    const Run& run = window.consoleRun()->run();
    const std::size_t total = window.run()->nextTaskNumber() - 1;
    QVERIFY2(total >= 7,
             qPrintable(QString::number(total)));  // the first send may have stopped early
    QTRY_COMPARE_WITH_TIMEOUT(run.messageCount(), total, 20000);
    for (std::uint32_t i = 0; i < run.messageCount(); ++i) {
        QString body;
        for (const std::uint32_t e : run.messageEvents(i)) {
            if (run.event(e).kind == EventKind::TaskSent) {
                body = QString::fromStdString(run.event(e).detail);
                QCOMPARE(run.event(e).count2, static_cast<std::int64_t>(i) + 1);
            }
        }
        QCOMPARE(body, QStringLiteral("Task #%1").arg(i + 1));
    }
}

QTEST_MAIN(TestProducerPanel)
#include "tst_producer_panel.moc"
