// The order and times of a scenario's steps (ScenarioSchedule), which the
// headless runner and the console's scenario player both drive: ties at equal
// times, worker groups, the tasks' start, the end steps and the end rule.
// Plain values: no broker, no clock.
#include <QTest>
#include <string>
#include <vector>

#include "runner/scenario_json.h"
#include "runner/scenario_schedule.h"

using namespace qs;
using runner::ActionKind;
using runner::PoolAtEnd;
using runner::RunEnd;
using runner::ScenarioSchedule;
using runner::ScheduleStep;
using runner::StepKind;

namespace {

runner::Scenario baseScenario() {
    runner::Scenario s;
    s.name = "schedule";
    s.channel = "sched";
    s.tasks.count = 4;
    s.workers.resize(1);
    s.workers.front().count = 2;
    return s;
}

runner::TimelineAction action(double at, ActionKind kind, const std::string& worker = {}) {
    runner::TimelineAction a;
    a.at = at;
    a.kind = kind;
    a.worker = worker;
    return a;
}

std::vector<std::string> labels(const std::vector<ScheduleStep>& steps) {
    std::vector<std::string> out;
    for (const ScheduleStep& s : steps) {
        out.push_back(s.label);
    }
    return out;
}

// Takes every step due at `t`, in order.
std::vector<std::string> takeAll(ScenarioSchedule& schedule, double t) {
    std::vector<std::string> out;
    while (const ScheduleStep* step = schedule.takeDue(t)) {
        out.push_back(step->label);
    }
    return out;
}

}  // namespace

class TestScenarioSchedule : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // At one time: the tasks, then the worker groups in group order, then the
    // actions in timeline order, whatever order they were written in.
    void tiesSendThenGroupsThenActions() {
        runner::Scenario s = baseScenario();
        s.workers.resize(2);
        s.workers[1].count = 1;
        s.timeline.push_back(action(0.0, ActionKind::Pause, "worker-2"));
        s.timeline.push_back(action(0.0, ActionKind::Resume, "worker-2"));
        QVERIFY2(s.validate().empty(), s.validate().c_str());
        const ScenarioSchedule schedule(s);
        const auto& steps = schedule.timedSteps();
        QCOMPARE(steps.size(), 5u);
        QVERIFY(steps[0].kind == StepKind::SendTasks);
        QVERIFY(steps[1].kind == StepKind::StartWorkers);
        QCOMPARE(steps[1].index, 0u);
        QVERIFY(steps[2].kind == StepKind::StartWorkers);
        QCOMPARE(steps[2].index, 1u);
        QCOMPARE(steps[3].label, std::string("at 0 s: pause worker-2"));
        QCOMPARE(steps[4].label, std::string("at 0 s: resume worker-2"));
    }

    // Times first: a later send comes after earlier groups and actions; an
    // action written first but due later comes later.
    void timesBeforeKinds() {
        runner::Scenario s = baseScenario();
        s.tasks.startAt = 1.0;
        s.workers.resize(2);
        s.workers[1].startAt = 2.0;
        s.timeline.push_back(action(1.5, ActionKind::Crash, "worker-1"));
        s.timeline.push_back(action(0.5, ActionKind::Pause));
        s.timeline.push_back(action(1.0, ActionKind::Resume));
        const ScenarioSchedule schedule(s);
        std::vector<std::pair<double, std::string>> got;
        for (const ScheduleStep& step : schedule.timedSteps()) {
            got.emplace_back(step.at, runner::toString(step.kind));
        }
        const std::vector<std::pair<double, std::string>> expected{
            {0.0, "start workers"}, {0.5, "action"}, {1.0, "send tasks"},
            {1.0, "action"},        {1.5, "action"}, {2.0, "start workers"}};
        QCOMPARE(got, expected);
        QCOMPARE(schedule.timedSteps()[3].index, 2u);  // the resume, third in the file
    }

    // takeDue() gives each step once, only when due, in order; next() tells
    // what comes and when.
    void takesWhatIsDueOnce() {
        runner::Scenario s = baseScenario();
        s.timeline.push_back(action(0.5, ActionKind::Pause));
        s.timeline.push_back(action(0.5, ActionKind::Resume));
        s.timeline.push_back(action(2.0, ActionKind::Slowdown));
        ScenarioSchedule schedule(s);
        QVERIFY(!schedule.tasksSent());
        QCOMPARE(
            takeAll(schedule, 0.0),
            (std::vector<std::string>{
                "send 4 tasks", "start 2 worker(s): " + workers::describe(s.workers[0].config)}));
        QVERIFY(schedule.tasksSent());
        QVERIFY(schedule.next() != nullptr);
        QCOMPARE(schedule.next()->at, 0.5);
        QVERIFY(takeAll(schedule, 0.49).empty());
        // A late tick takes everything due since, still in order.
        QCOMPARE(takeAll(schedule, 1.0),
                 (std::vector<std::string>{"at 0.5 s: pause all workers",
                                           "at 0.5 s: resume all workers"}));
        QCOMPARE(labels(schedule.untaken()),
                 (std::vector<std::string>{"at 2 s: slowdown all workers x1"}));
        QCOMPARE(takeAll(schedule, 5.0).size(), 1u);
        QVERIFY(schedule.next() == nullptr);
        QVERIFY(schedule.takeDue(100.0) == nullptr);
        QVERIFY(schedule.untaken().empty());
    }

    void sendLabels_data() {
        QTest::addColumn<double>("rate");
        QTest::addColumn<QString>("label");
        QTest::newRow("at once") << 0.0 << "send 4 tasks";
        QTest::newRow("steady") << 20.0 << "send 4 tasks at 20/s";
        QTest::newRow("fraction") << 2.5 << "send 4 tasks at 2.5/s";
    }
    void sendLabels() {
        QFETCH(double, rate);
        QFETCH(QString, label);
        runner::Scenario s = baseScenario();
        s.tasks.rate = rate;
        s.timeline.push_back(action(1.0, ActionKind::Crash, "worker-1"));
        const ScenarioSchedule schedule(s);
        QCOMPARE(QString::fromStdString(schedule.timedSteps().front().label), label);
        QCOMPARE(schedule.timedSteps().back().label, s.timeline.front().describe());
    }

    // Setup: the channel's creation when asked. End: stop the producer, stop
    // the workers, delete the channel when asked; the console keeps its
    // workers unless the channel goes.
    void setupAndEndSteps_data() {
        QTest::addColumn<bool>("create");
        QTest::addColumn<bool>("remove");
        QTest::addColumn<bool>("keepWorkers");
        QTest::addColumn<QStringList>("setup");
        QTest::addColumn<QStringList>("end");
        const QString stopProducer = QStringLiteral("stop the producer");
        const QString stopWorkers = QStringLiteral("stop the workers");
        const QString remove = QStringLiteral("delete channel sched");
        QTest::newRow("runner") << false << false << false << QStringList{}
                                << QStringList{stopProducer, stopWorkers};
        QTest::newRow("runner, create and delete")
            << true << true << false << QStringList{QStringLiteral("create channel sched")}
            << QStringList{stopProducer, stopWorkers, remove};
        QTest::newRow("console") << false << false << true << QStringList{}
                                 << QStringList{stopProducer};
        QTest::newRow("console, create only")
            << true << false << true << QStringList{QStringLiteral("create channel sched")}
            << QStringList{stopProducer};
        QTest::newRow("console, delete") << false << true << true << QStringList{}
                                         << QStringList{stopProducer, stopWorkers, remove};
    }
    void setupAndEndSteps() {
        QFETCH(bool, create);
        QFETCH(bool, remove);
        QFETCH(bool, keepWorkers);
        QFETCH(QStringList, setup);
        QFETCH(QStringList, end);
        runner::Scenario s = baseScenario();
        s.createChannel = create;
        s.deleteChannel = remove;
        const ScenarioSchedule schedule(
            s, keepWorkers ? PoolAtEnd::KeepUnlessChannelDeleted : PoolAtEnd::Stop);
        auto text = [](const std::vector<ScheduleStep>& steps) {
            QStringList out;
            for (const ScheduleStep& step : steps) {
                out << QString::fromStdString(step.label);
            }
            return out;
        };
        QCOMPARE(text(schedule.setupSteps()), setup);
        QCOMPARE(text(schedule.endSteps()), end);
        if (create) {
            QVERIFY(schedule.setupSteps().front().kind == StepKind::CreateChannel);
        }
        QVERIFY(schedule.endSteps().front().kind == StepKind::StopProducer);
    }

    // "drained": ends once drained (only after the tasks' step), else at the
    // time bound; steps not yet due are left untaken.
    void drainedRunEnds() {
        runner::Scenario s = baseScenario();
        s.tasks.startAt = 1.0;
        s.timeoutSeconds = 10.0;
        s.timeline.push_back(action(5.0, ActionKind::Pause));
        ScenarioSchedule schedule(s);
        takeAll(schedule, 0.5);
        QCOMPARE(schedule.endAt(0.5, true), RunEnd::None);  // nothing sent yet
        takeAll(schedule, 1.0);
        QCOMPARE(schedule.endAt(1.0, false), RunEnd::None);
        QCOMPARE(schedule.endAt(1.2, true), RunEnd::Drained);
        QCOMPARE(labels(schedule.untaken()),
                 (std::vector<std::string>{"at 5 s: pause all workers"}));
        QCOMPARE(schedule.endAt(9.99, false), RunEnd::None);
        QCOMPARE(schedule.endAt(10.0, false), RunEnd::TimeBound);
        QCOMPARE(schedule.timeBound(), 10.0);
    }

    // A redrive brings tasks back: a drained run waits for it (its time bound
    // still ends it), then ends when drained again; other steps hold nothing.
    void aRedriveHoldsTheDrainedEnd() {
        runner::Scenario s = baseScenario();
        s.timeoutSeconds = 10.0;
        runner::TimelineAction redrive = action(2.0, ActionKind::Redrive);
        redrive.from = "sched.dlq";
        s.timeline.push_back(redrive);
        s.timeline.push_back(action(6.0, ActionKind::Pause));
        ScenarioSchedule schedule(s);
        takeAll(schedule, 0.0);
        QCOMPARE(schedule.endAt(1.0, true), RunEnd::None);  // the redrive is still to come
        QCOMPARE(schedule.endAt(10.0, true), RunEnd::TimeBound);
        QCOMPARE(takeAll(schedule, 2.0),
                 (std::vector<std::string>{"at 2 s: redrive sched.dlq to where each came from"}));
        QCOMPARE(schedule.endAt(2.5, false), RunEnd::None);
        QCOMPARE(schedule.endAt(3.0, true), RunEnd::Drained);  // the pause holds nothing
    }

    // "time": runs exactly runForSeconds, drained or not.
    void timedRunEnds() {
        runner::Scenario s = baseScenario();
        s.untilDrained = false;
        s.runForSeconds = 3.0;
        ScenarioSchedule schedule(s);
        takeAll(schedule, 0.0);
        QCOMPARE(schedule.endAt(2.9, true), RunEnd::None);
        QCOMPARE(schedule.endAt(3.0, false), RunEnd::RunTimeOver);
        QCOMPARE(schedule.timeBound(), 3.0);
    }

    // A shipped scenario with several actions: its whole order.
    void liveTuningScenario() {
        runner::Scenario s;
        std::string error;
        QVERIFY2(runner::loadScenarioFile(
                     std::string(QUEUESCOPE_SCENARIO_DIR) + "/06-live-tuning.json", &s, &error),
                 error.c_str());
        const ScenarioSchedule schedule(s);
        const std::vector<std::string> expected{
            "send 80 tasks at 20/s",
            "start 2 worker(s): " + workers::describe(s.workers.front().config),
            "at 1 s: slowdown worker-1 x4",
            "at 1.5 s: scale to 4",
            "at 2 s: set all workers: batch=1 failureRate=0.1",
            "at 3 s: pause worker-3",
            "at 3.5 s: resume worker-3"};
        QCOMPARE(labels(schedule.timedSteps()), expected);
        QVERIFY(schedule.setupSteps().empty());
        QCOMPARE(labels(schedule.endSteps()),
                 (std::vector<std::string>{"stop the producer", "stop the workers"}));
    }
};

QTEST_APPLESS_MAIN(TestScenarioSchedule)
#include "tst_scenario_schedule.moc"
