// What a start and a restart look like (#17 items 5 and 7): the first run's
// greeting, the settings a restart brings back (the timeline span in its box,
// the last server offered again) and a switch of servers starting over.
// QSettings live in a temporary folder.
#include <QApplication>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <memory>

#include "controllers/connection_controller.h"
#include "controllers/connection_settings.h"
#include "controllers/console_run.h"
#include "controllers/run_controller.h"
#include "controllers/scenario_player.h"
#include "layout_checks.h"
#include "main_window.h"
#include "models/message_table_model.h"
#include "models/timeline_model.h"
#include "panels/channel_browser.h"
#include "panels/producer_panel.h"
#include "panels/timeline_panel.h"
#include "run/run.h"
#include "widgets/first_run_greeting.h"
#include "widgets/timeline_view.h"

using namespace qs;
using namespace qs::ui;

class TestFirstRun : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void firstRunGreetsOnce();
    void playingFromTheGreetingPutsItAway();
    void aSendPutsTheGreetingAway();
    void restartShowsTheSavedSpan();
    void restartOffersTheLastServer();
    void switchingServersStartsOver();

private:
    static MainWindowOptions withSettings() {
        MainWindowOptions options;
        options.autoConnect = false;
        options.recordRuns = false;
        return options;
    }
    std::unique_ptr<QTemporaryDir> config_;
};

void TestFirstRun::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("queuescope-tst-first-run"));
}

// Each test starts as a first run: an empty settings folder of its own.
void TestFirstRun::init() {
    config_ = std::make_unique<QTemporaryDir>();
    QVERIFY(config_->isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, config_->path());
    QSettings().clear();
}

void TestFirstRun::firstRunGreetsOnce() {
    {
        MainWindow window(withSettings());
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        FirstRunGreeting* greeting = window.greeting();
        QVERIFY(greeting->isVisible());
        QVERIFY2(greeting->text().contains(QStringLiteral("Play the classic work queue")),
                 qPrintable(greeting->text()));
        // It offers the first lesson too (the Lessons tab exists: tst_lessons_panel).
        QVERIFY(greeting->text().contains(QStringLiteral("lesson 1")));
        // Its steps are buttons in view, not a menu to hunt for.
        auto* play = greeting->findChild<QPushButton*>(QStringLiteral("greetingPlay"));
        QVERIFY(play && play->isVisible());
        QCOMPARE(test::notInView(play, &window), QString());
        auto* lesson = greeting->findChild<QPushButton*>(QStringLiteral("greetingLesson"));
        QVERIFY(lesson && lesson->isVisible());
        QCOMPARE(test::notInView(lesson, &window), QString());
        // Its words are whole at the smallest size, and the primary controls stay in view.
        for (const QLabel* label : greeting->findChildren<QLabel*>()) {
            if (label->isVisible()) {
                QVERIFY2(label->heightForWidth(label->contentsRect().width()) <=
                             label->contentsRect().height(),
                         qPrintable(label->text()));
            }
        }
        QCOMPARE(
            test::notInView(
                window.producerPanel()->findChild<QWidget*>(QStringLiteral("sendButton")), &window),
            QString());
        for (const QToolButton* b : window.findChildren<QToolButton*>()) {
            if (b->isCheckable() && b->text() == QStringLiteral("Pause")) {
                QCOMPARE(test::notInView(b, &window), QString());  // the timeline's Pause
            }
        }
        // Closing the window without using it greets again next time.
    }
    {
        MainWindow window(withSettings());
        window.show();
        QVERIFY(window.greeting()->isVisible());
        auto* dismiss =
            window.greeting()->findChild<QToolButton*>(QStringLiteral("greetingDismiss"));
        QVERIFY(dismiss);
        dismiss->click();
        QVERIFY(window.greeting()->isHidden());
    }
    MainWindow again(withSettings());
    again.show();
    QVERIFY(again.greeting()->isHidden());
}

void TestFirstRun::playingFromTheGreetingPutsItAway() {
    {
        MainWindow window(withSettings());
        window.show();
        auto* play = window.greeting()->findChild<QPushButton*>(QStringLiteral("greetingPlay"));
        // Not connected yet: it says why and stays.
        play->click();
        QVERIFY(window.greeting()->isVisible());
        QVERIFY(!window.scenarioPlayer()->isRunning());
        QString error;
        QVERIFY2(window.connection()->startEmbedded(0, &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(window.connection()->client() != nullptr, 20000);
        play->click();
        QVERIFY(window.scenarioPlayer()->isRunning());
        QCOMPARE(QString::fromStdString(window.scenarioPlayer()->scenario().name),
                 QStringLiteral("classic work queue"));
        QVERIFY(window.greeting()->isHidden());
        window.scenarioPlayer()->stop();
        window.run()->stopAll();
    }
    MainWindow again(withSettings());
    QVERIFY(again.greeting()->isHidden());
}

void TestFirstRun::aSendPutsTheGreetingAway() {
    {
        MainWindow window(withSettings());
        window.show();
        QString error;
        QVERIFY2(window.connection()->startEmbedded(0, &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(window.connection()->client() != nullptr, 20000);
        window.producerPanel()->setCount(1);
        window.producerPanel()->send();
        QVERIFY(window.greeting()->isHidden());
        window.run()->stopAll();
    }
    MainWindow again(withSettings());
    QVERIFY(again.greeting()->isHidden());
}

// The box said "20 s" after a restart while the timeline used the saved 60 s.
void TestFirstRun::restartShowsTheSavedSpan() {
    {
        MainWindow window(withSettings());
        window.show();
        window.timelineView()->setSpanSeconds(60);
        auto* panel = window.findChild<TimelinePanel*>();
        QVERIFY(panel);
        QCOMPARE(panel->shownSpanSeconds(), 60.0);
        window.close();
    }
    MainWindow again(withSettings());
    auto* panel = again.findChild<TimelinePanel*>();
    QCOMPARE(again.timelineView()->spanSeconds(), 60.0);
    QCOMPARE(panel->shownSpanSeconds(), 60.0);
    // A zoomed span (Ctrl+wheel) is shown too, not left at the last listed one.
    again.timelineView()->setSpanSeconds(16);
    QCOMPARE(panel->shownSpanSeconds(), 16.0);
}

// A session that ended on a server offers it at the next start; the
// embedded broker stays the default for a first run and after using it.
void TestFirstRun::restartOffersTheLastServer() {
    {
        QSettings settings;
        QVERIFY(!lastServerUsed(settings).has_value());  // a first run
    }
    ConnectionController server;  // a second KubeMQ-compatible server for the console to use
    QString error;
    QVERIFY2(server.startEmbedded(0, &error), qPrintable(error));
    const QString address = server.settings().address;
    {
        MainWindow window(withSettings());
        window.show();
        ConnectionSettings s;
        s.address = address;
        window.connection()->connectTo(s);
        QTRY_VERIFY_WITH_TIMEOUT(
            window.connection()->state() == ConnectionController::State::Connected, 20000);
        window.close();
    }
    {
        QSettings settings;
        const auto last = lastServerUsed(settings);
        QVERIFY(last.has_value());
        QCOMPARE(last->address, address);
    }
    // At the next start it is found and offered; Yes connects to it.
    MainWindowOptions options = withSettings();
    options.autoConnect = true;
    QString offered;
    QTimer answer;
    answer.setInterval(50);
    connect(&answer, &QTimer::timeout, this, [&] {
        if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
            offered = box->text();
            box->button(QMessageBox::Yes)->click();
        }
    });
    answer.start();
    {
        MainWindow window(options);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(!offered.isEmpty(), 20000);
        QVERIFY2(
            offered.contains(QStringLiteral("you used last time")) && offered.contains(address),
            qPrintable(offered));
        QTRY_VERIFY_WITH_TIMEOUT(
            window.connection()->state() == ConnectionController::State::Connected, 20000);
        QVERIFY(!window.connection()->isEmbedded());
        QCOMPARE(window.connection()->settings().address, address);
        // Back to the embedded broker: that is what the next start uses.
        window.useEmbeddedBroker();
        QVERIFY(window.connection()->isEmbedded());
        window.close();
    }
    answer.stop();
    QSettings settings;
    QVERIFY(!lastServerUsed(settings).has_value());
}

// The old run stayed in the views, and the peek pane kept naming the old
// server's channel, after a switch of servers.
void TestFirstRun::switchingServersStartsOver() {
    MainWindowOptions options = withSettings();
    options.useSettings = false;
    MainWindow window(options);
    window.show();
    QString error;
    QVERIFY2(window.connection()->startEmbedded(0, &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(window.connection()->client() != nullptr, 20000);
    QVERIFY(window.run()->setWorkerCount(1));
    window.producerPanel()->setCount(5);
    window.producerPanel()->send();
    QTRY_COMPARE_WITH_TIMEOUT(window.consoleRun()->run().messageCount(), std::size_t{5}, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!window.timelineModel().lanes().empty(), 20000);
    ChannelBrowser* channels = window.channelBrowser();
    window.showChannels();
    QTRY_VERIFY_WITH_TIMEOUT((channels->selectChannel(window.run()->channel()),
                              channels->selectedChannel() == window.run()->channel()),
                             20000);
    channels->peekSelected();
    QTRY_VERIFY_WITH_TIMEOUT(channels->peekTitle().contains(window.run()->channel()) &&
                                 !channels->peekTitle().startsWith(QStringLiteral("Peeking")),
                             20000);

    ConnectionController other;
    QVERIFY2(other.startEmbedded(0, &error), qPrintable(error));
    ConnectionSettings s;
    s.address = other.settings().address;
    window.connection()->connectTo(s);
    QTRY_VERIFY_WITH_TIMEOUT(window.connection()->state() == ConnectionController::State::Connected,
                             20000);
    QCOMPARE(window.consoleRun()->run().messageCount(), std::size_t{0});
    QCOMPARE(window.messages()->rowCount(), 0);
    QVERIFY(window.timelineModel().lanes().empty());
    QCOMPARE(channels->peekTitle(), ChannelBrowser::kPeekHint);
}

QTEST_MAIN(TestFirstRun)
#include "tst_first_run.moc"
