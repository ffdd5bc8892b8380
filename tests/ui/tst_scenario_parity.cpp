// The headless runner and the console's scenario player take the same steps in
// the same order for the same bundled scenario: both drive one
// runner::ScenarioSchedule and report each step by its label. The one designed
// difference: at the end the console keeps its workers in view unless the
// scenario deletes its channel. Real embedded brokers, real workers.
#include <QSignalSpy>
#include <QTest>

#include "controllers/connection_controller.h"
#include "controllers/scenario_library.h"
#include "controllers/scenario_player.h"
#include "main_window.h"
#include "runner/scenario_runner.h"
#include "runner/scenario_schedule.h"

using namespace qs;
using namespace qs::ui;

namespace {

QStringList text(const std::vector<std::string>& lines) {
    QStringList out;
    for (const auto& line : lines) {
        out << QString::fromStdString(line);
    }
    return out;
}

// Every step of `schedule`, in the order a run that reaches them all takes them.
QStringList allSteps(const runner::ScenarioSchedule& schedule) {
    QStringList out;
    for (const auto* part :
         {&schedule.setupSteps(), &schedule.timedSteps(), &schedule.endSteps()}) {
        for (const runner::ScheduleStep& step : *part) {
            out << QString::fromStdString(step.label);
        }
    }
    return out;
}

}  // namespace

class TestScenarioParity : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sameStepsInTheSameOrder_data();
    void sameStepsInTheSameOrder();
};

void TestScenarioParity::sameStepsInTheSameOrder_data() {
    QTest::addColumn<QString>("name");
    // Setup and end steps on the channel; two groups apart in time; five actions.
    QTest::newRow("02") << QStringLiteral("02-created-then-deleted-channel");
    QTest::newRow("03") << QStringLiteral("03-forgot-to-ack");
    QTest::newRow("06") << QStringLiteral("06-live-tuning");
}

void TestScenarioParity::sameStepsInTheSameOrder() {
    QFETCH(QString, name);
    runner::Scenario scenario;
    QString error;
    QVERIFY2(loadScenario(name, &scenario, &error), qPrintable(error));

    runner::RunOptions options;
    options.seed = 7;
    options.keepMessageRecords = false;
    const runner::RunResult headless = runner::ScenarioRunner(scenario, options).run();
    QVERIFY2(headless.error.empty(), headless.error.c_str());
    QVERIFY(headless.drained);
    const QStringList runnerSteps = text(headless.steps);

    MainWindowOptions windowOptions;
    windowOptions.autoConnect = false;
    windowOptions.useSettings = false;
    MainWindow window(windowOptions);
    window.show();
    QVERIFY2(window.connection()->startEmbedded(0, &error), qPrintable(error));
    ScenarioPlayer* player = window.scenarioPlayer();
    QStringList consoleSteps;
    connect(player, &ScenarioPlayer::stepTaken, this,
            [&](const QString& label) { consoleSteps << label; });
    QSignalSpy notReached(player, &ScenarioPlayer::stepsNotReached);
    QSignalSpy finished(player, &ScenarioPlayer::finished);
    QVERIFY2(window.playScenario(name, &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
    QVERIFY(notReached.isEmpty());

    // Each took every step of its schedule, in the schedule's order...
    QCOMPARE(runnerSteps, allSteps(runner::ScenarioSchedule(scenario, runner::PoolAtEnd::Stop)));
    QCOMPARE(consoleSteps, allSteps(runner::ScenarioSchedule(
                               scenario, runner::PoolAtEnd::KeepUnlessChannelDeleted)));
    // ...and the two agree, but for the console keeping its workers.
    QStringList expected = runnerSteps;
    if (!scenario.deleteChannel) {
        QCOMPARE(expected.removeAll(QStringLiteral("stop the workers")), 1);
    }
    QCOMPARE(consoleSteps, expected);
    QVERIFY(consoleSteps.size() >= 3);
}

QTEST_MAIN(TestScenarioParity)
#include "tst_scenario_parity.moc"
