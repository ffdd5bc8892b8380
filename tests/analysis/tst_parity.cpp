// `queuescope parity`: a shipped scenario on the embedded broker and on a
// second broker, a `queuescope-broker` process on an ephemeral port, compares
// SAME (exit 0) and leaves two recordings `queuescope compare` reads; a server
// whose queue already held a message left over by another client is a real
// difference (exit 1, the message named); bad input is refused with exit 2
// and a message before anything runs or any folder is made.
#include <sys/socket.h>
#include <netinet/in.h>
#include <unistd.h>

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <array>
#include <atomic>
#include <filesystem>

#include "analysis/compare_command.h"
#include "analysis/parity_check.h"
#include "analysis/parity_command.h"
#include "analysis/recorded_run.h"
#include "analysis_test_support.h"
#include "client/queues_client.h"
#include "runner/scenario_library.h"

using namespace qs;
using test::call;
using test::CommandOutput;
namespace fs = std::filesystem;

namespace {

constexpr int kDeadlineMs = 60000;

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

CommandOutput parity(const std::vector<std::string>& args) {
    return call(&analysis::runParity, args);
}

// A loopback port nothing listens on: bound, read, closed.
int freePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    socklen_t len = sizeof addr;
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
        if (fd >= 0) {
            ::close(fd);
        }
        return 0;
    }
    ::close(fd);
    return ntohs(addr.sin_port);
}

}  // namespace

class TstParity : public QObject {
    Q_OBJECT

    QProcess broker_;
    std::string address_;
    QTemporaryDir dir_;

    std::string path(const std::string& name) const {
        return (fs::path(dir_.path().toStdString()) / name).string();
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        broker_.start(QStringLiteral(QUEUESCOPE_BROKER_EXE),
                      {QStringLiteral("--port"), QStringLiteral("0")});
        QVERIFY(broker_.waitForStarted(kDeadlineMs));
        while (!broker_.canReadLine() && broker_.waitForReadyRead(kDeadlineMs)) {
        }
        const QString line = QString::fromUtf8(broker_.readLine()).trimmed();
        static const QRegularExpression pattern(
            QStringLiteral("^queuescope-broker listening on (127\\.0\\.0\\.1:\\d+)$"));
        const auto match = pattern.match(line);
        QVERIFY2(match.hasMatch(), qPrintable(line));
        address_ = match.captured(1).toStdString();
    }
    void cleanupTestCase() {
        broker_.terminate();
        broker_.waitForFinished(kDeadlineMs);
    }

    void sameOnASecondBroker_data() {
        QTest::addColumn<QString>("scenario");
        QTest::newRow("04") << QStringLiteral("04-worker-crash");
        QTest::newRow("05") << QStringLiteral("05-poison-dead-letter");
    }
    void sameOnASecondBroker() {
        QFETCH(QString, scenario);
        const std::string name = scenario.toStdString();
        const std::string dir = path("same-" + name);
        const CommandOutput r = parity({"--scenario", name, "--address", address_,
                                        "--record-dir", dir, "--quiet", "--seed", "7"});
        QVERIFY2(r.code == 0, (r.out + r.err).c_str());
        QVERIFY2(has(r.out, "Parity: SAME"), r.out.c_str());
        QVERIFY2(has(r.out, "server " + address_), r.out.c_str());
        QVERIFY2(has(r.out, "timing: how hand-outs reached their workers"), r.out.c_str());
        const std::string a = dir + "/" + name + ".embedded.qsrun";
        const std::string b = dir + "/" + name + ".server.qsrun";
        QVERIFY2(has(r.out, a) && has(r.out, b), r.out.c_str());
        // The recordings are ordinary ones: `queuescope compare` agrees.
        const CommandOutput c = call(&analysis::runCompare, {a, b});
        QVERIFY2(c.code == 0, (c.out + c.err).c_str());
    }

    void jsonSaysTheSame() {
        const CommandOutput r = parity({"--scenario", "05-poison-dead-letter", "--address",
                                        address_, "--record-dir", path("json"), "--quiet",
                                        "--json"});
        QVERIFY2(r.code == 0, (r.out + r.err).c_str());
        const auto j = nlohmann::json::parse(r.out);
        QCOMPARE(j.at("result").get<std::string>(), std::string("same"));
        QCOMPARE(j.at("exitCode").get<int>(), 0);
        QCOMPARE(j.at("address").get<std::string>(), address_);
        QVERIFY(fs::exists(j.at("recordings").at("server").get<std::string>()));
        const auto& comparison = j.at("comparison");
        QCOMPARE(comparison.at("differs").get<bool>(), false);
        bool deadLettered = false;
        for (const auto& row : comparison.at("totals")) {
            if (row.at("name") == "dead-lettered") {
                deadLettered = row.at("a") == "1" && row.at("b") == "1";
            }
        }
        QVERIFY(deadLettered);
        QVERIFY(!comparison.at("timing").empty());
    }

    void withoutRecordDirTheRecordingsGoToATemporaryFolder() {
        const CommandOutput r =
            parity({"--scenario", "01-classic-work-queue", "--address", address_, "--quiet"});
        QVERIFY2(r.code == 0, (r.out + r.err).c_str());
        const std::size_t at = r.out.find("queuescope-parity-");
        QVERIFY2(at != std::string::npos, r.out.c_str());
        const std::size_t start = r.out.rfind(' ', at) + 1;
        const std::string file = r.out.substr(start, r.out.find('\n', at) - start);
        QVERIFY2(fs::exists(file), file.c_str());
        fs::remove_all(fs::path(file).parent_path());
    }

    // Another client left a message in the scenario's channel on the server:
    // the server run hands out a message the embedded run never had.
    void aLeftoverMessageIsARealDifference() {
        client::ClientOptions co;
        co.address = address_;
        co.clientId = "leftover-sender";
        auto created = client::QueuesClient::create(co);
        QVERIFY(created.ok());
        client::QueueMessage leftover;
        leftover.channel = "tasks";
        leftover.body = "left over";
        QVERIFY(created.value()->send(leftover).ok());

        const std::string dir = path("leftover");
        const CommandOutput r = parity({"--scenario", "01-classic-work-queue", "--address",
                                        address_, "--record-dir", dir, "--quiet"});
        QVERIFY2(r.code == 1, (r.out + r.err).c_str());
        QVERIFY2(has(r.out, "Parity: DIFFERENT"), r.out.c_str());
        QVERIFY2(has(r.out, "sent in B only"), r.out.c_str());
        QVERIFY2(has(r.out, "DIFFERS"), r.out.c_str());
        QVERIFY(fs::exists(dir + "/01-classic-work-queue.server.qsrun"));
    }

    void badInputIsRefusedBeforeAnythingRuns_data() {
        // The arguments, space-separated, and a part of the message.
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("message");
        const std::string unreachable = "127.0.0.1:" + std::to_string(freePort());
        const std::vector<std::array<std::string, 3>> cases = {
            {"unknown scenario", "--scenario no-such-scenario --address 127.0.0.1:1",
             "no-such-scenario"},
            {"no address", "--scenario 01-classic-work-queue", "--address HOST:PORT is required"},
            {"no scenario", "--address 127.0.0.1:1", "--scenario NAME|FILE is required"},
            {"bad port", "--scenario 01-classic-work-queue --address 127.0.0.1:99999",
             "--address 127.0.0.1:99999"},
            {"no port", "--scenario 01-classic-work-queue --address localhost",
             "--address localhost"},
            {"unreachable", "--scenario 01-classic-work-queue --address " + unreachable,
             "cannot reach the server at " + unreachable},
            {"unknown option", "--scenario 01-classic-work-queue --bogus",
             "unknown option '--bogus'"},
            {"bad seed", "--scenario 01-classic-work-queue --address 127.0.0.1:1 --seed -1",
             "--seed -1"},
            {"switch with a value", "--scenario 01-classic-work-queue --json=yes",
             "--json takes no value"},
        };
        for (const auto& [row, args, message] : cases) {
            QTest::newRow(row.c_str()) << QString::fromStdString(args)
                                       << QString::fromStdString(message);
        }
    }
    void badInputIsRefusedBeforeAnythingRuns() {
        QFETCH(QString, args);
        QFETCH(QString, message);
        const std::string dir = path("never-made");
        std::vector<std::string> argv;
        for (const QString& a : args.split(QLatin1Char(' '))) {
            argv.push_back(a.toStdString());
        }
        argv.insert(argv.end(), {"--record-dir", dir, "--quiet"});
        const CommandOutput r = parity(argv);
        QCOMPARE(r.code, 2);
        QVERIFY2(has(r.err, "queuescope parity: ") && has(r.err, message.toStdString()),
                 r.err.c_str());
        QVERIFY(r.out.empty());
        QVERIFY(!fs::exists(dir));
    }

    void anEarlierRecordingIsNeverOverwritten() {
        const std::string dir = path("taken");
        fs::create_directories(dir);
        const std::string file = dir + "/01-classic-work-queue.server.qsrun";
        std::ofstream(file) << "earlier";
        const CommandOutput r = parity({"--scenario", "01-classic-work-queue", "--address",
                                        address_, "--record-dir", dir, "--quiet"});
        QCOMPARE(r.code, 2);
        QVERIFY2(has(r.err, "already exists"), r.err.c_str());
        QCOMPARE(test::readFile(file), std::string("earlier"));
        QVERIFY(!fs::exists(dir + "/01-classic-work-queue.embedded.qsrun"));

        const std::string notAFolder = path("a-file");
        std::ofstream(notAFolder) << "x";
        const CommandOutput f = parity({"--scenario", "01-classic-work-queue", "--address",
                                        address_, "--record-dir", notAFolder, "--quiet"});
        QCOMPARE(f.code, 2);
        QVERIFY2(has(f.err, "is not a folder"), f.err.c_str());
    }

    // Nothing a server reports shows an expiry: refused plainly, nothing run.
    void aScenarioWhoseTasksExpireIsNotExpressible() {
        const std::string file = path("expiring.json");
        test::writeEditedScenario("01-classic-work-queue.json", file, [](nlohmann::json& s) {
            s["tasks"]["policy"]["expirationSeconds"] = 5;
        });
        const std::string dir = path("expiring");
        const CommandOutput r = parity({"--scenario", file, "--address", address_, "--record-dir",
                                        dir, "--quiet", "--json"});
        QCOMPARE(r.code, 3);
        QVERIFY2(has(r.err, "can expire within the run"), r.err.c_str());
        const auto j = nlohmann::json::parse(r.out);
        QCOMPARE(j.at("result").get<std::string>(), std::string("not expressible on the server"));
        QVERIFY(!j.contains("recordings"));
        QVERIFY(!fs::exists(dir));
    }

    // Ping needs no token: a refused token is found before anything runs.
    void aRefusedTokenIsFoundBeforeAnythingRuns() {
        QProcess guarded;
        guarded.start(QStringLiteral(QUEUESCOPE_BROKER_EXE),
                      {QStringLiteral("--port"), QStringLiteral("0"),
                       QStringLiteral("--auth-token"), QStringLiteral("secret")});
        QVERIFY(guarded.waitForStarted(kDeadlineMs));
        while (!guarded.canReadLine() && guarded.waitForReadyRead(kDeadlineMs)) {
        }
        const QString line = QString::fromUtf8(guarded.readLine()).trimmed();
        const std::string address = line.section(QLatin1Char(' '), -1).toStdString();
        const std::string dir = path("refused");
        const CommandOutput r = parity({"--scenario", "01-classic-work-queue", "--address",
                                        address, "--record-dir", dir, "--quiet"});
        guarded.terminate();
        guarded.waitForFinished(kDeadlineMs);
        QCOMPARE(r.code, 2);
        QVERIFY2(has(r.err, "refused a request") && has(r.err, address), r.err.c_str());
        QVERIFY(!fs::exists(dir));
    }

    // A stop during the embedded run: nothing compared, nothing run on the
    // server, the embedded run's recording kept.
    void aStopOnTheEmbeddedBrokerRunsNothingOnTheServer() {
        analysis::ParityOptions options;
        std::string error;
        QVERIFY2(runner::loadScenario("06-live-tuning", &options.scenario, &error), error.c_str());
        options.recordingStem = "stopped";
        options.address = address_;
        options.recordDir = path("stopped");
        std::atomic<bool> stop{false};
        options.cancelFlag = &stop;
        options.log = [&stop](const std::string& line) {
            if (line.rfind("t=", 0) == 0) {
                stop = true;  // once the embedded run took its first step
            }
        };
        const analysis::ParityResult r = analysis::checkParity(options);
        QVERIFY(r.stopped);
        QCOMPARE(r.outcome, analysis::ParityOutcome::RunFailed);
        QCOMPARE(r.exitCode(), 3);
        QVERIFY2(has(r.problem, "nothing ran on the server"), r.problem.c_str());
        QVERIFY(!r.comparison);
        QVERIFY(fs::exists(r.embedded.recording));
        QVERIFY(!fs::exists(r.server.recording));
        std::string why;
        QVERIFY2(analysis::RecordedRun::load(r.embedded.recording, &why), why.c_str());
    }

    // The server goes away once its run has begun: said as such, not
    // compared (its lost tasks are no finding about its semantics).
    void aServerThatGoesAwayIsSaidNotCompared() {
        QProcess server;
        server.start(QStringLiteral(QUEUESCOPE_BROKER_EXE), {QStringLiteral("--port"), QStringLiteral("0")});
        QVERIFY(server.waitForStarted(kDeadlineMs));
        while (!server.canReadLine() && server.waitForReadyRead(kDeadlineMs)) {
        }
        const std::string address =
            QString::fromUtf8(server.readLine()).trimmed().section(QLatin1Char(' '), -1).toStdString();
        analysis::ParityOptions options;
        std::string error;
        QVERIFY2(runner::loadScenario("05-poison-dead-letter", &options.scenario, &error),
                 error.c_str());
        options.recordingStem = "gone";
        options.address = address;
        options.recordDir = path("gone");
        bool onServer = false;
        options.log = [&](const std::string& line) {
            onServer = onServer || has(line, "running on the server");
            if (onServer && line.rfind("t=", 0) == 0 && server.state() == QProcess::Running) {
                server.kill();  // once the server's run took its first step
                server.waitForFinished(kDeadlineMs);
            }
        };
        const analysis::ParityResult r = analysis::checkParity(options);
        QVERIFY(onServer);
        QCOMPARE(r.outcome, analysis::ParityOutcome::RunFailed);
        QVERIFY2(has(r.problem, "the server at " + address + " went away during its run"),
                 r.problem.c_str());
        QVERIFY(!r.comparison);
        QVERIFY(!r.stopped);
        QVERIFY(fs::exists(r.embedded.recording));
    }

    void helpAndVersion() {
        const CommandOutput h = parity({"--help"});
        QCOMPARE(h.code, 0);
        QVERIFY(h.out.rfind("Usage: queuescope parity", 0) == 0);
        QVERIFY(has(h.out, "Exit status"));
        const CommandOutput v = parity({"--version"});
        QCOMPARE(v.code, 0);
        QVERIFY(v.out.rfind("queuescope parity ", 0) == 0);
    }
};

QTEST_GUILESS_MAIN(TstParity)
#include "tst_parity.moc"
