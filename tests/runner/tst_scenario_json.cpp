// Scenario files: parsing, strict errors, round trip, and every shipped file.
#include <QtTest/QtTest>
#include <filesystem>

#include "common/protocol_limits.h"
#include "runner/headless_command.h"
#include "runner/scenario_json.h"

using namespace qs::runner;
namespace protocol = qs::protocol;
namespace workers = qs::workers;

namespace {

Scenario parseOk(const std::string& text) {
    Scenario s;
    std::string error;
    if (!parseScenarioJson(text, &s, &error)) {
        qFatal("unexpected parse error: %s", error.c_str());
    }
    return s;
}

std::string parseError(const std::string& text) {
    Scenario s;
    std::string error;
    if (parseScenarioJson(text, &s, &error)) {
        return {};
    }
    return error;
}

}  // namespace

class TstScenarioJson : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void fullDocument() {
        const Scenario s = parseOk(R"({
          "name": "n", "description": "d", "channel": "c.x",
          "createChannel": true, "deleteChannel": true,
          "tasks": {"count": 7, "body": "B{n}/{total}", "metadata": "m{n}",
                    "tags": {"a": "1"}, "rate": 2.5, "poison": [2, 5], "startAt": 0.5,
                    "policy": {"delaySeconds": 1, "expirationSeconds": 60,
                               "maxReceiveCount": 3, "deadLetterQueue": "dlq"}},
          "workers": [{"count": 2, "batch": 4, "waitSeconds": 2.5, "autoAck": true,
                       "work": {"kind": "uniform", "minMs": 5, "maxMs": 15},
                       "failureRate": 0.25, "onFailure": "requeue", "requeueChannel": "r",
                       "crashRate": 0.01, "settle": "batch", "maxPolls": 9,
                       "restartAfterSeconds": 0.5},
                      {"count": 1, "startAt": 3, "work": 40}],
          "timeline": [{"at": 2, "action": "set", "worker": "worker-1", "batch": 1},
                       {"at": 1, "action": "crash", "worker": "worker-2"},
                       {"at": 3, "action": "slowdown", "factor": 2},
                       {"at": 4, "action": "scale", "count": 5}],
          "until": "drained", "timeoutSeconds": 12
        })");
        QCOMPARE(s.name, std::string("n"));
        QCOMPARE(s.channel, std::string("c.x"));
        QVERIFY(s.createChannel && s.deleteChannel);
        QCOMPARE(s.tasks.count, 7);
        QCOMPARE(s.tasks.rate, 2.5);
        QCOMPARE(s.tasks.poison, (std::vector<int>{2, 5}));
        QCOMPARE(s.tasks.policy.maxReceiveCount, 3);
        QCOMPARE(s.tasks.policy.deadLetterQueue, std::string("dlq"));
        QCOMPARE(s.tasks.tags.at("a"), std::string("1"));
        QCOMPARE(s.workers.size(), 2u);
        const auto& c = s.workers[0].config;
        QCOMPARE(c.batchSize, 4);
        QCOMPARE(c.waitMs, 2500);
        QVERIFY(c.autoAck);
        QCOMPARE(c.work, qs::workers::WorkProfile::uniform(5, 15));
        QVERIFY(c.onFailure == qs::workers::FailureAction::Requeue);
        QVERIFY(c.settle == qs::workers::SettleMode::Batch);
        QCOMPARE(c.maxPolls, 9);
        QCOMPARE(c.restartDelayMs, 500);
        QCOMPARE(s.workers[1].config.work, qs::workers::WorkProfile::fixed(40));
        QCOMPARE(s.workers[1].startAt, 3.0);
        QCOMPARE(s.totalWorkers(), 3);
        // Sorted by time.
        QCOMPARE(s.timeline.size(), 4u);
        QVERIFY(s.timeline[0].kind == ActionKind::Crash);
        QVERIFY(s.timeline[1].kind == ActionKind::Set);
        QCOMPARE(*s.timeline[1].patch.batchSize, 1);
        QVERIFY(!s.timeline[1].patch.failureRate);
        QCOMPARE(s.timeline[2].factor, 2.0);
        QVERIFY(s.timeline[2].worker.empty());
        QCOMPARE(s.timeline[3].count, 5);
        QVERIFY(s.untilDrained);
        QCOMPARE(s.timeoutSeconds, 12.0);
    }

    void roundTrip() {
        const Scenario a = parseOk(R"({"tasks": {"count": 3, "poison": [1]},
            "workers": {"count": 2, "work": {"kind": "exponential", "meanMs": 7}},
            "timeline": [{"at": 1, "action": "set", "settle": "never", "restartAfterSeconds": null}],
            "runForSeconds": 4})");
        QVERIFY(!a.untilDrained);
        const Scenario b = parseOk(scenarioToJson(a));
        QCOMPARE(scenarioToJson(b), scenarioToJson(a));
        QCOMPARE(b.workers[0].config, a.workers[0].config);
        QCOMPARE(b.timeline[0].patch.describe(), a.timeline[0].patch.describe());
        QCOMPARE(b.runForSeconds, 4.0);
    }

    // A redrive action: its channels and policy parse, describe and round-trip.
    void redriveAction() {
        const Scenario a = parseOk(R"({"workers": {}, "timeline": [
            {"at": 2, "action": "redrive", "from": "tasks.dlq", "maxReceiveCount": 3},
            {"at": 4, "action": "redrive", "from": "tasks.dlq", "to": "tasks.retry"}]})");
        QCOMPARE(a.timeline.size(), std::size_t{2});
        QCOMPARE(a.timeline[0].from, std::string("tasks.dlq"));
        QVERIFY(a.timeline[0].to.empty());
        QCOMPARE(a.timeline[0].maxReceiveCount, std::optional<int>(3));
        QVERIFY(a.timeline[0].bringsTasksBack());
        QCOMPARE(a.timeline[0].describe(),
                 std::string("at 2 s: redrive tasks.dlq to where each came from (max receive "
                             "count 3)"));
        QCOMPARE(a.timeline[1].describe(), std::string("at 4 s: redrive tasks.dlq to tasks.retry"));
        const Scenario b = parseOk(scenarioToJson(a));
        QCOMPARE(scenarioToJson(b), scenarioToJson(a));
        QCOMPARE(b.timeline[1].to, std::string("tasks.retry"));
        QVERIFY(!b.timeline[1].maxReceiveCount);
    }

    // The v1 consume mode and its visibility, in a group and a "set", survive
    // a round trip; what the v1 stream cannot do is refused with the reason.
    void v1ConsumeRoundTrip() {
        const Scenario a = parseOk(R"({"tasks": {"count": 1},
            "workers": [{"count": 1, "consume": "v1", "visibilitySeconds": 2}, {"count": 1}],
            "timeline": [{"at": 1, "action": "set", "consume": "downstream"}]})");
        QCOMPARE(static_cast<int>(a.workers[0].config.consume),
                 static_cast<int>(qs::workers::ConsumeMode::V1Stream));
        QCOMPARE(a.workers[0].config.visibilitySeconds, 2);
        QCOMPARE(static_cast<int>(a.workers[1].config.consume),
                 static_cast<int>(qs::workers::ConsumeMode::Downstream));
        QCOMPARE(a.timeline[0].patch.describe(), std::string("consume=downstream"));
        const Scenario b = parseOk(scenarioToJson(a));
        QCOMPARE(b.workers[0].config, a.workers[0].config);
        QCOMPARE(scenarioToJson(b), scenarioToJson(a));
    }

    void errorsNameTheField_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("not json") << "{"
                                  << "invalid JSON";
        QTest::newRow("no workers") << "{}"
                                    << "workers";
        QTest::newRow("unknown key") << R"({"workers": {}, "chanel": "x"})"
                                     << "chanel";
        QTest::newRow("unknown worker key") << R"({"workers": {"batchsize": 2}})"
                                            << "workers.batchsize";
        QTest::newRow("batch zero") << R"({"workers": {"batch": 0}})"
                                    << "workers.batch";
        QTest::newRow("batch string") << R"({"workers": {"batch": "5"}})"
                                      << "workers.batch";
        QTest::newRow("fraction count") << R"({"workers": {"count": 1.5}})"
                                        << "workers.count";
        QTest::newRow("rate > 1") << R"({"workers": {"failureRate": 1.5}})"
                                  << "workers.failureRate";
        QTest::newRow("bad work kind") << R"({"workers": {"work": {"kind": "gauss"}}})"
                                       << "workers.work.kind";
        QTest::newRow("uniform inverted")
            << R"({"workers": {"work": {"kind": "uniform", "minMs": 9, "maxMs": 1}}})"
            << "minMs";
        QTest::newRow("fixed with meanMs")
            << R"({"workers": {"work": {"kind": "fixed", "ms": 1, "meanMs": 2}}})"
            << "meanMs";
        QTest::newRow("requeue without channel") << R"({"workers": {"onFailure": "requeue"}})"
                                                 << "requeue channel";
        QTest::newRow("bad consume") << R"({"workers": {"consume": "v2"}})"
                                     << "workers.consume";
        QTest::newRow("visibility zero")
            << R"({"workers": {"consume": "v1", "visibilitySeconds": 0}})"
            << "workers.visibilitySeconds";
        QTest::newRow("v1 auto-ack") << R"({"workers": {"consume": "v1", "autoAck": true}})"
                                     << "no auto-ack";
        QTest::newRow("poison out of range")
            << R"({"tasks": {"count": 3, "poison": [4]}, "workers": {}})"
            << "tasks.poison";
        QTest::newRow("policy range")
            << R"({"tasks": {"policy": {"maxReceiveCount": 2000}}, "workers": {}})"
            << "maxReceiveCount";
        QTest::newRow("crash needs worker")
            << R"({"workers": {}, "timeline": [{"at": 1, "action": "crash"}]})"
            << "needs a worker";
        QTest::newRow("unknown action")
            << R"({"workers": {}, "timeline": [{"at": 1, "action": "explode"}]})"
            << "explode";
        QTest::newRow("key of other action")
            << R"({"workers": {}, "timeline": [{"at": 1, "action": "pause", "count": 2}]})"
            << "timeline[0].count";
        QTest::newRow("empty set") << R"({"workers": {}, "timeline": [{"at": 1, "action": "set"}]})"
                                   << "changes nothing";
        QTest::newRow("until") << R"({"workers": {}, "until": "forever"})"
                               << "until";
        QTest::newRow("negative wait") << R"({"workers": {"waitSeconds": -1}})"
                                       << "waitSeconds";
        // The ranges are the records of workers/setting_limits.h, named in the error.
        QTest::newRow("batch over the protocol's 1024")
            << R"({"workers": {"batch": 1025}})"
            << "workers.batch: must be between 1 and 1024";
        QTest::newRow("wait over an hour") << R"({"workers": {"waitSeconds": 3601}})"
                                           << "workers.waitSeconds: must be between 0 and 3600 s";
        QTest::newRow("work over a day") << R"({"workers": {"work": 86400001}})"
                                         << "workers.work: must be between 0 and 86400000 ms";
        QTest::newRow("uniform max over a day")
            << R"({"workers": {"work": {"kind": "uniform", "minMs": 1, "maxMs": 1e9}}})"
            << "workers.work.maxMs: must be between 0 and 86400000 ms";
        QTest::newRow("crash rate > 1") << R"({"workers": {"crashRate": 1.01}})"
                                        << "workers.crashRate: must be between 0 and 1";
        QTest::newRow("restart over a day") << R"({"workers": {"restartAfterSeconds": 86401}})"
                                            << "workers.restartAfterSeconds";
        QTest::newRow("too many workers") << R"({"workers": {"count": 1001}})"
                                          << "workers.count: must be between 0 and 1000";
        QTest::newRow("scale beyond the pool limit")
            << R"({"workers": {}, "timeline": [{"at": 1, "action": "scale", "count": 1001}]})"
            << "timeline[0].count: must be between 0 and 1000";
        QTest::newRow("rate over the cap") << R"({"tasks": {"rate": 100001}, "workers": {}})"
                                           << "tasks.rate: must be between 0 and 100000 tasks/s";
        QTest::newRow("redrive without from")
            << R"({"workers": {}, "timeline": [{"at": 1, "action": "redrive"}]})"
            << "timeline[0].from: missing";
        QTest::newRow("redrive from a wildcard")
            << R"({"workers": {}, "timeline": [{"at": 1, "action": "redrive", "from": "a.*"}]})"
            << "timeline[0]";
        QTest::newRow("redrive max receive count over 1024")
            << R"({"workers": {}, "timeline": [{"at": 1, "action": "redrive", "from": "a",
                  "maxReceiveCount": 1025}]})"
            << "timeline[0].maxReceiveCount";
        QTest::newRow("redrive with a worker")
            << R"({"workers": {}, "timeline": [{"at": 1, "action": "redrive", "from": "a",
                  "worker": "worker-1"}]})"
            << "timeline[0].worker";
        QTest::newRow("set batch over 1024")
            << R"({"workers": {}, "timeline": [{"at": 1, "action": "set", "batch": 2000}]})"
            << "timeline[0].batch: must be between 1 and 1024";
    }

    // The top of every range is accepted, and kept exactly.
    void rangeTopsAreAccepted() {
        Scenario s;
        std::string error;
        QVERIFY2(parseScenarioJson(R"({"tasks": {"count": 100000000, "rate": 100000,
                                       "policy": {"delaySeconds": 43200, "expirationSeconds": 43200,
                                                  "maxReceiveCount": 1024}},
                                       "workers": {"count": 1000, "batch": 1024, "waitSeconds": 3600,
                                                   "work": 86400000, "failureRate": 1,
                                                   "crashRate": 1, "maxPolls": 1000000000,
                                                   "restartAfterSeconds": 86400}})",
                                   &s, &error),
                 error.c_str());
        const workers::WorkerConfig& c = s.workers.front().config;
        QCOMPARE(c.batchSize, workers::limits::kBatchSize.max);
        QCOMPARE(c.waitMs, workers::limits::kWaitMs.max);
        QCOMPARE(c.work.ms, workers::limits::kWorkMs.max);
        QCOMPARE(c.restartDelayMs, workers::limits::kRestartDelayMs.max);
        QCOMPARE(c.maxPolls, workers::limits::kMaxPolls.max);
        QCOMPARE(s.workers.front().count, workers::limits::kWorkerCount.max);
        QCOMPARE(s.tasks.count, workers::limits::kTaskCount.max);
        QCOMPARE(s.tasks.rate, workers::limits::kProducerRate.max);
        QCOMPARE(s.tasks.policy.maxReceiveCount, protocol::kMaxReceiveCount.max);
    }

    void errorsNameTheField() {
        QFETCH(QString, json);
        QFETCH(QString, mentions);
        const std::string error = parseError(json.toStdString());
        QVERIFY2(!error.empty(), "accepted");
        QVERIFY2(error.find(mentions.toStdString()) != std::string::npos, error.c_str());
    }

    void assignments() {
        ConfigPatch p;
        std::string error;
        QVERIFY(parseConfigAssignments("batch=2,work=uniform:5:20,autoAck=true,onFailure=reject",
                                       &p, &error));
        QCOMPARE(*p.batchSize, 2);
        QCOMPARE(*p.work, qs::workers::WorkProfile::uniform(5, 20));
        QVERIFY(*p.autoAck);
        QVERIFY(!parseConfigAssignments("batch=0", &p, &error));
        QVERIFY(!parseConfigAssignments("bogus=1", &p, &error));
        QVERIFY(error.find("bogus") != std::string::npos);
        QVERIFY(!parseConfigAssignments("batch", &p, &error));
        QVERIFY(!parseConfigAssignments("work=sometimes", &p, &error));
    }

    // A "set" action and a pool's change marker share one text format.
    void patchTextMatchesConfigChanges() {
        namespace w = qs::workers;
        ConfigPatch p;
        p.batchSize = 2;
        p.waitMs = 500;
        p.autoAck = true;
        p.work = w::WorkProfile::uniform(5, 20);
        p.failureRate = 0.25;
        p.onFailure = w::FailureAction::Requeue;
        p.requeueChannel = "retry";
        p.crashRate = 0.1;
        p.settle = w::SettleMode::Batch;
        p.maxPolls = 3;
        p.restartDelayMs = 200;
        p.consume = w::ConsumeMode::V1Stream;
        p.visibilitySeconds = 5;
        const std::string all =
            "batch=2 waitMs=500 autoAck=true work=uniform 5..20 ms failureRate=0.25 "
            "onFailure=requeue requeueChannel=retry crashRate=0.1 settle=batch maxPolls=3 "
            "restartDelayMs=200 consume=v1 visibilitySeconds=5";
        QCOMPARE(p.describe(), all);
        const w::WorkerConfig before;
        w::WorkerConfig after = before;
        p.applyTo(after);
        QCOMPARE(w::describeChanges(before, after), all);  // every field differs
        QCOMPARE(w::describe(after), all);
        QCOMPARE(w::describe(before),
                 std::string("batch=1 waitMs=1000 autoAck=false work=fixed 100 ms failureRate=0 "
                             "onFailure=reject requeueChannel= crashRate=0 settle=each "
                             "maxPolls=0 restartDelayMs=-1 consume=downstream "
                             "visibilitySeconds=30"));

        // A patch names what it sets, even a value the configuration already has.
        ConfigPatch q;
        q.batchSize = 1;
        q.failureRate = 1e-7;
        QCOMPARE(q.describe(), std::string("batch=1 failureRate=1e-07"));
        w::WorkerConfig patched = before;
        q.applyTo(patched);
        QCOMPARE(w::describeChanges(before, patched), std::string("failureRate=1e-07"));
        QVERIFY(!q.empty());
        QVERIFY(ConfigPatch{}.empty());
        QCOMPARE(ConfigPatch{}.describe(), std::string());

        TimelineAction a;
        a.at = 2.5;
        a.kind = ActionKind::Set;
        a.patch = q;
        QCOMPARE(a.describe(), std::string("at 2.5 s: set all workers: batch=1 failureRate=1e-07"));
    }

    void missingFile() {
        Scenario s;
        std::string error;
        QVERIFY(!loadScenarioFile("/nonexistent/x.json", &s, &error));
        QVERIFY(error.find("/nonexistent/x.json") != std::string::npos);
    }

    // Every shipped scenario loads and validates.
    void shippedScenariosLoad() {
        namespace fs = std::filesystem;
        int files = 0;
        for (const auto& entry : fs::directory_iterator(QUEUESCOPE_SCENARIO_DIR)) {
            if (entry.path().extension() != ".json")
                continue;
            Scenario s;
            std::string error;
            QVERIFY2(loadScenarioFile(entry.path().string(), &s, &error), error.c_str());
            QVERIFY(!s.name.empty());
            QVERIFY(!s.description.empty());
            ++files;
        }
        QVERIFY(files >= 5);
    }

    void defaultScenarioIsTheClassicDemo() {
        const Scenario s = defaultScenario();
        QVERIFY(s.validate().empty());
        QCOMPARE(s.tasks.count, 10);
        QCOMPARE(s.workers.front().count, 3);
        QCOMPARE(s.workers.front().config.batchSize, 5);
        QCOMPARE(s.workers.front().config.waitMs, 10000);
    }
};

QTEST_APPLESS_MAIN(TstScenarioJson)
#include "tst_scenario_json.moc"
