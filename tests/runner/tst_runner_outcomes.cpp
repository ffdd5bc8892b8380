// Exit codes and outputs of the runner and of `queuescope run`: lost tasks,
// a remote server, an unreachable one, event logs, bad command lines.
#include <QtTest/QtTest>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "runner/headless_command.h"
#include "runner_test_support.h"
#include "test_broker.h"

using namespace qs;
using namespace qs::test;
using runner::RunResult;

namespace {

int headless(const std::vector<std::string>& args, std::string* out = nullptr,
             std::string* err = nullptr) {
    std::ostringstream o;
    std::ostringstream e;
    const int code = runner::runHeadless(args, o, e);
    if (out)
        *out = o.str();
    if (err)
        *err = e.str();
    return code;
}

std::vector<std::string> lines(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

}  // namespace

class TstRunnerOutcomes : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Workers that never ack and nobody else to take over: the tasks are
    // still in the queue at the end - lost by the runner's definition.
    void lostTasksGiveExitCode1() {
        runner::Scenario s = shippedScenario("03-forgot-to-ack.json");
        s.workers.pop_back();  // no careful worker
        s.untilDrained = false;
        s.runForSeconds = 1.5;
        const RunResult r = runScenario(s);
        QVERIFY2(r.error.empty(), r.error.c_str());
        QCOMPARE(r.tasksLost, 10u);
        QCOMPARE(r.lostMessageIds.size(), 10u);
        QCOMPARE(r.exitCode(), 1);
        QVERIFY(!r.drained);
    }

    // An until-drained run that cannot drain stops at its time bound.
    void timeBound() {
        runner::Scenario s = shippedScenario("01-classic-work-queue.json");
        s.workers.front().config.failureRate = 1.0;  // reject forever (max receive 1024)
        s.workers.front().config.batchSize = 1;
        s.workers.front().config.work = workers::WorkProfile::fixed(1);
        s.timeoutSeconds = 1.0;
        const auto start = std::chrono::steady_clock::now();
        const RunResult r = runScenario(s);
        QVERIFY(std::chrono::steady_clock::now() - start < std::chrono::seconds(6));
        QVERIFY(r.timedOut);
        QCOMPARE(r.exitCode(), 1);
        QCOMPARE(r.tasksLost, 10u);
    }

    // A remote server (here: a broker the test started, not the runner):
    // no broker events, the ledger works from the workers' events alone.
    void remoteServer() {
        TestBroker broker;
        QVERIFY(broker.ok());
        runner::RunOptions options;
        options.address = broker.address();
        const RunResult r = runScenario(shippedScenario("05-poison-dead-letter.json"), options);
        QVERIFY2(r.error.empty(), r.error.c_str());
        QVERIFY(!r.embeddedBroker);
        QCOMPARE(r.exitCode(), 0);
        QCOMPARE(r.totals.count(MessageState::Acked), 5u);
        QCOMPARE(r.totals.count(MessageState::DeadLettered), 1u);  // inferred from max receive
    }

    void unreachableServer() {
        runner::RunOptions options;
        options.address = "127.0.0.1:1";
        const RunResult r = runScenario(shippedScenario("01-classic-work-queue.json"), options);
        QVERIFY(!r.started);
        QVERIFY(r.error.find("127.0.0.1:1") != std::string::npos);
        QCOMPARE(r.exitCode(), 3);
    }

    void withoutEvents() {
        runner::RunOptions options;
        options.recordEvents = false;
        const RunResult r =
            runScenario(shippedScenario("02-created-then-deleted-channel.json"), options);
        QCOMPARE(r.exitCode(), 0);
        QCOMPARE(r.pool.totals.acked, 10u);
        QCOMPARE(r.eventsRecorded, 0u);
    }

    void helpAndBadArguments() {
        std::string out;
        std::string err;
        QCOMPARE(headless({"--help"}, &out), 0);
        for (const char* documented :
             {"--scenario", "--address", "--events-csv", "--events-jsonl", "--at", "--poison",
              "--crash-rate", "--settle", "Exit status"}) {
            QVERIFY2(out.find(documented) != std::string::npos, documented);
        }
        QCOMPARE(headless({"--bogus"}, nullptr, &err), 2);
        QVERIFY(err.find("--bogus") != std::string::npos);
        QCOMPARE(headless({"--batch", "0"}, nullptr, &err), 2);
        QCOMPARE(headless({"--tasks"}, nullptr, &err), 2);
        QVERIFY(err.find("needs a value") != std::string::npos);
        QCOMPARE(headless({"--at", "1:crash"}, nullptr, &err), 2);
        QCOMPARE(headless({"--at", "1:set:nothing"}, nullptr, &err), 2);
        QCOMPARE(headless({"--scenario", "/nonexistent.json"}, nullptr, &err), 2);
        QVERIFY(err.find("/nonexistent.json") != std::string::npos);
        QCOMPARE(headless({"--on-failure", "requeue"}, nullptr, &err), 2);  // needs a channel
    }

    // v1-stream workers whose work outlasts their visibility never ack: the
    // broker takes every task back, and the summary counts it.
    void v1VisibilityRunsOutInTheSummary() {
        std::string out;
        std::string err;
        const int code = headless({"--consume", "v1", "--visibility", "1", "--work-ms", "1500",
                                   "--tasks", "1", "--workers", "1", "--timeout", "4"},
                                  &out, &err);
        QCOMPARE(code, 1);  // the task never ends: lost
        QVERIFY2((out + err).find("consume=v1 visibilitySeconds=1") != std::string::npos,
                 (out + err).c_str());
        const std::size_t at = out.find("visibility ran out (v1)");
        QVERIFY2(at != std::string::npos, out.c_str());
        const std::string row = out.substr(at, out.find('\n', at) - at);
        const int count = std::stoi(row.substr(row.find_last_of(' ') + 1));
        QVERIFY2(count >= 1, row.c_str());
    }

    void argumentsOverrideTheScenario() {
        runner::HeadlessArgs h;
        std::string error;
        const std::string file = std::string(QUEUESCOPE_SCENARIO_DIR) + "/04-worker-crash.json";
        QVERIFY2(runner::parseHeadlessArgs(
                     {"--scenario", file, "--tasks=4", "--batch", "2", "--work", "uniform:1:3",
                      "--at", "0.5:set:worker-1:batch=1", "--at", "0.2:slowdown:all:2", "--poison",
                      "1,2", "--tag", "k=v", "--address", "h:1"},
                     &h, &error),
                 error.c_str());
        QCOMPARE(h.scenario.tasks.count, 4);
        QCOMPARE(h.scenario.workers.front().config.batchSize, 2);
        QCOMPARE(h.scenario.workers.front().config.work, workers::WorkProfile::uniform(1, 3));
        QCOMPARE(h.scenario.timeline.size(), 3u);
        QVERIFY(h.scenario.timeline[0].kind == runner::ActionKind::Slowdown);
        QVERIFY(h.scenario.timeline[1].kind == runner::ActionKind::Set);
        QCOMPARE(h.scenario.timeline[1].worker, std::string("worker-1"));
        QVERIFY(h.scenario.timeline[2].kind == runner::ActionKind::Crash);
        QCOMPARE(h.scenario.tasks.poison, (std::vector<int>{1, 2}));
        QCOMPARE(h.scenario.tasks.tags.at("k"), std::string("v"));
        QCOMPARE(h.options.address, std::string("h:1"));
    }

    // A flags-only run writing both event logs.
    void eventLogs() {
        const auto dir =
            std::filesystem::temp_directory_path() / ("qs-runner-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
        const std::string csv = (dir / "events.csv").string();
        const std::string jsonl = (dir / "events.jsonl").string();
        std::string out;
        std::string err;
        const int code = headless({"--tasks", "6", "--workers", "2", "--batch", "1", "--wait", "1",
                                   "--work-ms", "5", "--channel", "cli", "--events-csv", csv,
                                   "--events-jsonl", jsonl, "--quiet", "--seed", "3"},
                                  &out, &err);
        QVERIFY2(code == 0, (out + err).c_str());
        QVERIFY(err.empty());  // --quiet
        QVERIFY(out.find("worker-2") != std::string::npos);
        QVERIFY(out.find("Result: OK") != std::string::npos);
        const auto csvLines = lines(csv);
        const auto jsonLines = lines(jsonl);
        QVERIFY(csvLines.size() > 6 * 4);
        QCOMPARE(csvLines.front().substr(0, 12), std::string("time_ns,kind"));
        QCOMPARE(jsonLines.size() + 1, csvLines.size());  // CSV has a header row
        int sent = 0;
        int acked = 0;
        for (const std::string& l : jsonLines) {
            if (l.find("\"task-sent\"") != std::string::npos)
                ++sent;
            if (l.find("\"acked\"") != std::string::npos)
                ++acked;
        }
        QCOMPARE(sent, 6);
        QCOMPARE(acked, 6);
        // An unwritable log path is an error before anything runs.
        QCOMPARE(headless({"--tasks", "1", "--events-csv", "/nonexistent/dir/x.csv", "--quiet"},
                          &out, &err),
                 3);
        QVERIFY(err.find("/nonexistent/dir/x.csv") != std::string::npos);
        std::filesystem::remove_all(dir);
    }
};

QTEST_APPLESS_MAIN(TstRunnerOutcomes)
#include "tst_runner_outcomes.moc"
