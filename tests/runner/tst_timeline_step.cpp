// Each kind of timeline action, applied to real workers the way the headless
// runner and the console's scenario player both apply it: its effect on the
// pool, and the warning when it names an unknown worker, asks for an invalid
// scale or a setting a worker refuses. Real embedded broker, real workers.
#include <QTest>
#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "pool_fixture.h"
#include "runner/scenario_runner.h"
#include "runner/timeline_step.h"
#include "test_broker.h"
#include "wait_until.h"
#include "workers/worker_pool.h"

using namespace qs;
using qs::test::waitUntil;
using runner::ActionKind;
using runner::TimelineAction;
using workers::WorkerState;

namespace {

TimelineAction action(ActionKind kind, const std::string& worker = {}) {
    TimelineAction a;
    a.kind = kind;
    a.worker = worker;
    return a;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& line : lines) {
        out += line + "\n";
    }
    return out;
}

}  // namespace

class TestTimelineStep : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY2(broker_.ok(), broker_.error().c_str()); }

    void eachActionTakesEffect() {
        workers::WorkerPool pool(test::poolOptionsFor(broker_, "step.effects"),
                                 test::sharedPoolConfig());
        QCOMPARE(pool.addWorkers(2).size(), 2u);
        auto state = [&](const std::string& id) { return pool.workerSnapshot(id)->state; };
        auto clean = [](const runner::TimelineStepResult& r) {
            return r.warnings.empty() && !r.sharedConfig && !r.workersChanged;
        };

        QVERIFY(clean(runner::applyTimelineAction(pool, action(ActionKind::Crash, "worker-1"))));
        QVERIFY(waitUntil([&] { return state("worker-1") == WorkerState::Crashed; }));
        QVERIFY(clean(runner::applyTimelineAction(pool, action(ActionKind::Restart, "worker-1"))));
        QVERIFY(waitUntil([&] { return state("worker-1") == WorkerState::Polling; }));
        QCOMPARE(pool.workerSnapshot("worker-1")->counters.crashes, 1u);

        QVERIFY(clean(runner::applyTimelineAction(pool, action(ActionKind::Stop, "worker-2"))));
        QVERIFY(state("worker-2") == WorkerState::Stopped);  // joined on return
        QCOMPARE(pool.size(), 2);                            // stopped, not removed

        QVERIFY(clean(runner::applyTimelineAction(pool, action(ActionKind::Pause))));
        QVERIFY(waitUntil([&] { return state("worker-1") == WorkerState::Paused; }));
        QVERIFY(clean(runner::applyTimelineAction(pool, action(ActionKind::Resume))));
        QVERIFY(waitUntil([&] { return state("worker-1") == WorkerState::Polling; }));
        QVERIFY(clean(runner::applyTimelineAction(pool, action(ActionKind::Pause, "worker-1"))));
        QVERIFY(waitUntil([&] { return state("worker-1") == WorkerState::Paused; }));
        QVERIFY(clean(runner::applyTimelineAction(pool, action(ActionKind::Resume, "worker-1"))));
        QVERIFY(waitUntil([&] { return state("worker-1") == WorkerState::Polling; }));

        TimelineAction slow = action(ActionKind::Slowdown);
        slow.factor = 3.0;
        QVERIFY(clean(runner::applyTimelineAction(pool, slow)));
        QCOMPARE(pool.workerSnapshot("worker-1")->slowdown, 3.0);
        QCOMPARE(pool.workerSnapshot("worker-2")->slowdown, 3.0);
        slow.worker = "worker-1";
        slow.factor = 1.5;
        QVERIFY(clean(runner::applyTimelineAction(pool, slow)));
        QCOMPARE(pool.workerSnapshot("worker-1")->slowdown, 1.5);
        QCOMPARE(pool.workerSnapshot("worker-2")->slowdown, 3.0);

        // A per-worker "set" gives that worker its own configuration ...
        TimelineAction own = action(ActionKind::Set, "worker-1");
        own.patch.batchSize = 4;
        QVERIFY(clean(runner::applyTimelineAction(pool, own)));
        QCOMPARE(pool.workerConfig("worker-1")->batchSize, 4);
        QCOMPARE(pool.config().batchSize, 2);
        // ... a pool-wide one changes the shared configuration and reaches it too.
        TimelineAction all = action(ActionKind::Set);
        all.patch.failureRate = 0.25;
        const runner::TimelineStepResult set = runner::applyTimelineAction(pool, all);
        QVERIFY2(set.warnings.empty(), joined(set.warnings).c_str());
        QVERIFY(set.sharedConfig.has_value());
        QVERIFY(*set.sharedConfig == pool.config());
        QCOMPARE(pool.config().failureRate, 0.25);
        QCOMPARE(pool.config().batchSize, 2);
        QCOMPARE(pool.workerConfig("worker-1")->failureRate, 0.25);
        QCOMPARE(pool.workerConfig("worker-1")->batchSize, 4);
        QCOMPARE(pool.workerConfig("worker-2")->failureRate, 0.25);

        TimelineAction scale = action(ActionKind::Scale);
        scale.count = 3;
        runner::TimelineStepResult r = runner::applyTimelineAction(pool, scale);
        QVERIFY(r.warnings.empty() && r.workersChanged);
        QCOMPARE(pool.workerIds(), (std::vector<std::string>{"worker-1", "worker-2", "worker-3"}));
        r = runner::applyTimelineAction(pool, scale);  // already there
        QVERIFY(clean(r));
        scale.count = 1;
        r = runner::applyTimelineAction(pool, scale);
        QVERIFY(r.warnings.empty() && r.workersChanged);
        QCOMPARE(pool.workerIds(), std::vector<std::string>{"worker-1"});
        pool.stop();
    }

    void unknownWorkerIsWarned_data() {
        QTest::addColumn<int>("kind");
        for (ActionKind kind :
             {ActionKind::Crash, ActionKind::Restart, ActionKind::Stop, ActionKind::Pause,
              ActionKind::Resume, ActionKind::Slowdown, ActionKind::Set}) {
            QTest::newRow(std::string(runner::toString(kind)).c_str()) << static_cast<int>(kind);
        }
    }

    void unknownWorkerIsWarned() {
        QFETCH(int, kind);
        workers::WorkerPool pool(test::poolOptionsFor(broker_, "step.unknown"),
                                 test::sharedPoolConfig());
        QCOMPARE(pool.addWorkers(1).size(), 1u);
        TimelineAction a = action(static_cast<ActionKind>(kind), "worker-9");
        a.factor = 2.0;
        a.patch.batchSize = 3;
        const runner::TimelineStepResult r = runner::applyTimelineAction(pool, a);
        QCOMPARE(r.warnings, std::vector<std::string>{"no worker worker-9"});
        QVERIFY(!r.sharedConfig && !r.workersChanged);
        // The pool's one worker is left alone.
        QCOMPARE(pool.workerIds(), std::vector<std::string>{"worker-1"});
        const auto w1 = pool.workerSnapshot("worker-1");
        QVERIFY(w1->state != WorkerState::Crashed && w1->state != WorkerState::Stopped &&
                w1->state != WorkerState::Paused);
        QCOMPARE(w1->slowdown, 1.0);
        QCOMPARE(pool.workerConfig("worker-1")->batchSize, 2);
        pool.stop();
    }

    void invalidScaleIsWarned() {
        workers::WorkerPool pool(test::poolOptionsFor(broker_, "step.scale"),
                                 test::sharedPoolConfig());
        QCOMPARE(pool.addWorkers(2).size(), 2u);
        TimelineAction a = action(ActionKind::Scale);
        a.count = -1;
        const runner::TimelineStepResult r = runner::applyTimelineAction(pool, a);
        QCOMPARE(r.warnings,
                 std::vector<std::string>{"worker count must be between 0 and 1000 (got -1)"});
        QVERIFY(!r.workersChanged);
        QCOMPARE(pool.size(), 2);
        pool.stop();
    }

    // Restarting a worker that runs, a missing worker name, a bad factor and
    // refused settings: each is one clear warning and changes nothing.
    void refusedActionsAreWarned() {
        workers::WorkerPool pool(test::poolOptionsFor(broker_, "step.refused"),
                                 test::sharedPoolConfig());
        QCOMPARE(pool.addWorkers(2).size(), 2u);

        runner::TimelineStepResult r =
            runner::applyTimelineAction(pool, action(ActionKind::Restart, "worker-2"));
        QCOMPARE(r.warnings.size(), 1u);
        QVERIFY2(r.warnings.front().rfind("worker-2 was not restarted: it is ", 0) == 0,
                 r.warnings.front().c_str());

        r = runner::applyTimelineAction(pool, action(ActionKind::Crash));
        QCOMPARE(r.warnings, std::vector<std::string>{"'crash' needs a worker"});

        TimelineAction slow = action(ActionKind::Slowdown);
        slow.factor = 0.0;
        r = runner::applyTimelineAction(pool, slow);
        QCOMPARE(r.warnings, std::vector<std::string>{"factor must be a number > 0"});
        QCOMPARE(pool.workerSnapshot("worker-1")->slowdown, 1.0);

        TimelineAction own = action(ActionKind::Set, "worker-2");
        own.patch.batchSize = 3;
        QVERIFY(runner::applyTimelineAction(pool, own).warnings.empty());
        own.patch.batchSize = 0;  // out of range (1-1024)
        r = runner::applyTimelineAction(pool, own);
        QCOMPARE(r.warnings.size(), 1u);
        QVERIFY(!r.warnings.front().empty());
        QCOMPARE(pool.workerConfig("worker-2")->batchSize, 3);

        // Pool-wide: worker-2 (own configuration) refuses, then the pool does.
        TimelineAction all = action(ActionKind::Set);
        all.patch.batchSize = 0;
        r = runner::applyTimelineAction(pool, all);
        QCOMPARE(r.warnings.size(), 2u);
        QVERIFY2(r.warnings[0].rfind("worker-2: ", 0) == 0, r.warnings[0].c_str());
        QVERIFY(!r.sharedConfig);
        QCOMPARE(pool.config().batchSize, 2);
        QCOMPARE(pool.workerConfig("worker-1")->batchSize, 2);
        QCOMPARE(pool.workerConfig("worker-2")->batchSize, 3);
        pool.stop();
    }

    // The headless runner reports a step's warning after the step's description.
    void runnerReportsTheWarning() {
        runner::Scenario s;
        s.channel = "step.runner";
        s.tasks.count = 1;
        s.workers.resize(1);
        s.workers.front().config = test::sharedPoolConfig();
        TimelineAction crash = action(ActionKind::Crash, "worker-9");
        crash.at = 0.1;
        s.timeline.push_back(crash);
        s.untilDrained = false;
        s.runForSeconds = 0.5;
        runner::RunOptions options;
        options.address = broker_.address();
        options.seed = 7;
        const runner::RunResult result = runner::ScenarioRunner(s, options).run();
        QVERIFY2(result.error.empty(), result.error.c_str());
        QCOMPARE(result.warnings,
                 std::vector<std::string>{"at 0.1 s: crash worker-9: no worker worker-9"});
    }

    // Both players start worker groups alike: only a later group whose settings
    // differ from the first group's gets its own configuration.
    void groupOverride() {
        runner::Scenario s;
        s.workers.resize(3);
        s.workers[0].config = test::sharedPoolConfig();
        s.workers[1].config = test::sharedPoolConfig();
        s.workers[2].config = test::sharedPoolConfig();
        s.workers[2].config.batchSize = 7;
        QVERIFY(!s.groupOverride(0));
        QVERIFY(!s.groupOverride(1));
        QVERIFY(s.groupOverride(2).has_value());
        QCOMPARE(s.groupOverride(2)->batchSize, 7);
        QVERIFY(!s.groupOverride(3));
    }

private:
    test::TestBroker broker_;
};

QTEST_APPLESS_MAIN(TestTimelineStep)
#include "tst_timeline_step.moc"
