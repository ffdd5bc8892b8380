// `queuescope run` on bad input: every bad flag or scenario file gives exit
// code 2 and one line naming what is wrong, before anything runs.
#include <unistd.h>

#include <QtTest/QtTest>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/protocol_limits.h"
#include "runner/headless_command.h"
#include "workers/setting_limits.h"

using namespace qs::runner;

namespace {

struct Outcome {
    int code = -1;
    std::string out;
    std::string err;
};

Outcome headless(const std::vector<std::string>& args) {
    std::ostringstream out;
    std::ostringstream err;
    Outcome o;
    o.code = runHeadless(args, out, err);
    o.out = out.str();
    o.err = err.str();
    return o;
}

}  // namespace

class TstHeadlessArgs : public QObject {
    Q_OBJECT

    std::filesystem::path dir_;

    std::string write(const std::string& name, const std::string& content) {
        const auto path = dir_ / name;
        std::ofstream(path, std::ios::binary) << content;
        return path.string();
    }

    // "a|b" is the arguments a and b; "{dir}" stands for the suite's scratch folder.
    std::vector<std::string> expand(const QString& args) const {
        std::vector<std::string> out;
        for (const QString& a : args.split(u'|')) {
            std::string s = a.toStdString();
            if (const auto at = s.find("{dir}"); at != std::string::npos)
                s.replace(at, 5, dir_.string());
            out.push_back(s);
        }
        return out;
    }

private Q_SLOTS:
    // A scenario is recorded as JSON: a body that is not UTF-8 is refused
    // before the run, not found unreadable in the recording afterwards.
    void aBodyThatIsNotUtf8IsRefused() {
        HeadlessArgs h;
        std::string error;
        QVERIFY(!parseHeadlessArgs({"--body", std::string("bad \xff byte")}, &h, &error));
        QVERIFY2(error.find("tasks.body: must be UTF-8 text") != std::string::npos, error.c_str());
        QVERIFY2(parseHeadlessArgs({"--body", "Aufgabe \xc3\xa4 #{n}"}, &h, &error), error.c_str());
    }

    void initTestCase() {
        dir_ = std::filesystem::temp_directory_path() /
               ("qs-headless-args-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir_ / "folder.json");
        write("empty.json", "");
        write("truncated.json", R"({"workers": {)");
        write("overflow.json", R"({"workers": {"count": 1e999}})");
        write("bad-utf8.json", "{\"name\": \"\xff\", \"workers\": {}}");
        write("array.json", "[]");
        write("workers-number.json", R"({"workers": 5})");
        write("no-groups.json", R"({"workers": []})");
        write("big-count.json", R"({"workers": {"count": 18446744073709551616}})");
    }

    void cleanupTestCase() { std::filesystem::remove_all(dir_); }

    void badInputIsOneLine_data() {
        QTest::addColumn<QString>("args");  // separated by |
        QTest::addColumn<QString>("mentions");
        // Flags.
        QTest::newRow("positional") << "scenario.json"
                                    << "'scenario.json'";
        QTest::newRow("single dash") << "-x"
                                     << "'-x'";
        QTest::newRow("unknown") << "--bogus"
                                 << "unknown option '--bogus'";
        QTest::newRow("unknown with value") << "--bogus|1"
                                            << "'--bogus'";
        QTest::newRow("no name") << "--=5"
                                 << "unknown option '--=5'";
        QTest::newRow("value on switch") << "--help=yes"
                                         << "takes no value";
        QTest::newRow("missing value") << "--rate"
                                       << "needs a value";
        QTest::newRow("empty scenario") << "--scenario|"
                                        << "--scenario";
        QTest::newRow("empty scenario =") << "--scenario="
                                          << "--scenario";
        QTest::newRow("negative seed") << "--seed|-1"
                                       << "--seed";
        QTest::newRow("seed overflow") << "--seed|18446744073709551616"
                                       << "--seed";
        QTest::newRow("tasks word") << "--tasks|ten"
                                    << "--tasks";
        QTest::newRow("consume v3") << "--consume|v3"
                                    << "--consume";
        QTest::newRow("v1 auto-ack") << "--consume|v1|--auto-ack"
                                     << "auto-ack";
        QTest::newRow("workers negative") << "--workers|-1"
                                          << "--workers";
        QTest::newRow("rate nan") << "--rate|nan"
                                  << "--rate";
        QTest::newRow("timeout inf") << "--timeout|inf"
                                     << "--timeout";
        QTest::newRow("wait too long") << "--wait|4000"
                                       << "--wait";
        QTest::newRow("restart-after too long") << "--restart-after|90000"
                                                << "between 0 and 86400";
        QTest::newRow("failure rate > 1") << "--failure-rate|1.5"
                                          << "--failure-rate";
        QTest::newRow("settle") << "--settle|sometimes"
                                << "--settle";
        QTest::newRow("on-failure") << "--on-failure|retry"
                                    << "--on-failure";
        QTest::newRow("work") << "--work|gauss:3"
                              << "--work";
        QTest::newRow("poison gap") << "--poison|1,,2"
                                    << "--poison";
        QTest::newRow("tag without key") << "--tag|=v"
                                         << "--tag";
        QTest::newRow("at when") << "--at|soon:pause"
                                 << "'soon'";
        QTest::newRow("at action") << "--at|1:explode"
                                   << "'explode'";
        QTest::newRow("at scale") << "--at|1:scale:many"
                                  << "scale";
        QTest::newRow("at slowdown") << "--at|1:slowdown:all:0"
                                     << "factor";
        QTest::newRow("at set") << "--at|1:set:worker-1:bogus=1"
                                << "bogus";
        QTest::newRow("address without port") << "--address|localhost"
                                              << "--address";
        QTest::newRow("address port range") << "--address|127.0.0.1:99999"
                                            << "1..65535";
        QTest::newRow("channel with space") << "--channel|a b"
                                            << "channel:";
        QTest::newRow("channel ends with dot") << "--channel|a.b."
                                               << "channel:";
        QTest::newRow("channel wildcard") << "--channel|tasks.*"
                                          << "channel:";
        QTest::newRow("dead-letter name") << "--dead-letter|dead letters"
                                          << "deadLetterQueue";
        QTest::newRow("one file for both logs")
            << "--events-csv|{dir}/log|--events-jsonl|{dir}/./log"
            << "same file";
        QTest::newRow("requeue without channel") << "--on-failure|requeue"
                                                 << "requeue channel";
        // Scenario files.
        QTest::newRow("no file") << "--scenario|{dir}/missing.json"
                                 << "missing.json: cannot open file";
        QTest::newRow("directory") << "--scenario|{dir}/folder.json"
                                   << "folder.json: is a directory";
        QTest::newRow("empty file") << "--scenario|{dir}/empty.json"
                                    << "invalid JSON";
        QTest::newRow("truncated") << "--scenario|{dir}/truncated.json"
                                   << "invalid JSON";
        QTest::newRow("number overflow") << "--scenario|{dir}/overflow.json"
                                         << "invalid JSON";
        QTest::newRow("bad utf-8") << "--scenario|{dir}/bad-utf8.json"
                                   << "invalid JSON";
        QTest::newRow("array") << "--scenario|{dir}/array.json"
                               << "must be a JSON object";
        QTest::newRow("workers number") << "--scenario|{dir}/workers-number.json"
                                        << "workers";
        QTest::newRow("no groups") << "--scenario|{dir}/no-groups.json"
                                   << "at least one worker group";
        QTest::newRow("count beyond int64") << "--scenario|{dir}/big-count.json"
                                            << "workers.count";
    }

    void badInputIsOneLine() {
        QFETCH(QString, args);
        QFETCH(QString, mentions);
        const Outcome o = headless(expand(args));
        QVERIFY2(o.code == 2, o.err.c_str());
        QVERIFY(o.out.empty());
        // "queuescope run: <what is wrong>\n(see queuescope run --help)\n"
        const std::string prefix = "queuescope run: ";
        QVERIFY2(o.err.starts_with(prefix), o.err.c_str());
        const std::string first = o.err.substr(0, o.err.find('\n'));
        QCOMPARE(o.err.substr(first.size()), std::string("\n(see queuescope run --help)\n"));
        QVERIFY2(first.find(mentions.toStdString()) != std::string::npos, first.c_str());
        // The user reads the error; nlohmann's exception ids are not for them.
        QVERIFY2(first.find("[json.exception") == std::string::npos, first.c_str());
    }

    // Several problems: one line each, each naming its source.
    void severalProblemsOneLineEach() {
        Outcome o = headless({"--channel", "", "--dead-letter", "x."});
        QCOMPARE(o.code, 2);
        QCOMPARE(o.err, std::string("queuescope run: channel: must not be empty\n"
                                    "queuescope run: tasks.policy.deadLetterQueue: name 'x.' "
                                    "must not end with '.'\n"
                                    "(see queuescope run --help)\n"));
        const std::string file =
            write("two-problems.json", R"({"channel": "a b", "workers": {"count": 1}, )"
                                       R"("tasks": {"count": -0, "rate": 0, "body": ""}})");
        o = headless({"--scenario", file});
        QCOMPARE(o.code, 2);
        QCOMPARE(o.err, "queuescope run: " + file + ": channel: name 'a b' must not contain " +
                            "whitespace\nqueuescope run: " + file +
                            ": tasks.body: a task needs a body or metadata (the broker rejects " +
                            "empty messages)\n(see queuescope run --help)\n");
    }

    // The option table and the help text cannot drift apart: every option the
    // help names is known.
    void everyDocumentedOptionIsKnown() {
        const std::string usage = headlessUsage();
        int options = 0;
        for (std::size_t at = usage.find("--"); at != std::string::npos;
             at = usage.find("--", at + 2)) {
            std::size_t end = at + 2;
            while (end < usage.size() &&
                   (std::isalnum(static_cast<unsigned char>(usage[end])) || usage[end] == '-'))
                ++end;
            const std::string option = usage.substr(at, end - at);
            HeadlessArgs h;
            std::string error;
            parseHeadlessArgs({option, "1"}, &h, &error);
            QVERIFY2(error.find("unknown option") == std::string::npos, option.c_str());
            ++options;
        }
        QVERIFY(options > 40);
    }

    // The bounds just inside the ranges are accepted.
    void edgeValuesAreAccepted() {
        HeadlessArgs h;
        std::string error;
        QVERIFY2(parseHeadlessArgs(
                     {"--seed", "18446744073709551615", "--restart-after", "86400", "--wait",
                      "3600", "--tasks", "0", "--address", "[::1]:65535", "--channel", "a.b-c_d",
                      "--events-csv", "x.csv", "--events-jsonl", "x.jsonl"},
                     &h, &error),
                 error.c_str());
        QCOMPARE(h.options.seed, std::uint64_t{18446744073709551615u});
        QCOMPARE(h.scenario.workers.front().config.restartDelayMs, 86400000);
    }

    // The help text is assembled from pieces: no stray or missing parenthesis.
    void helpParenthesesPair() {
        const std::string usage = headlessUsage();
        int depth = 0;
        for (char c : usage) {
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            QVERIFY(depth >= 0);
        }
        QCOMPARE(depth, 0);
    }

    // Each ranged option: its help text shows the record's range, the top of
    // the range is accepted, and just above it is refused naming the range.
    void helpRangesAreTheCheckedRanges_data() {
        namespace wl = qs::workers::limits;
        namespace protocol = qs::protocol;
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("range");  // as the help text writes it
        QTest::addColumn<QString>("top");
        QTest::addColumn<QString>("over");
        auto add = [](const char* option, const std::string& range, auto top, auto over) {
            QTest::newRow(option) << QString::fromLatin1(option) << QString::fromStdString(range)
                                  << QString::number(top) << QString::number(over);
        };
        add("--batch", wl::kBatchSize.range(), wl::kBatchSize.max, wl::kBatchSize.max + 1);
        add("--workers", wl::kWorkerCount.range(), wl::kWorkerCount.max, wl::kWorkerCount.max + 1);
        add("--tasks", wl::kTaskCount.range(), wl::kTaskCount.max, wl::kTaskCount.max + 1);
        add("--max-polls", wl::kMaxPolls.range(), wl::kMaxPolls.max, wl::kMaxPolls.max + 1LL);
        add("--visibility", wl::kVisibilitySeconds.range(), wl::kVisibilitySeconds.max,
            wl::kVisibilitySeconds.max + 1);
        add("--rate", wl::kProducerRate.range(), wl::kProducerRate.max, wl::kProducerRate.max + 1);
        add("--failure-rate", wl::kFailureRate.range(), wl::kFailureRate.max, 1.01);
        add("--crash-rate", wl::kCrashRate.range(), wl::kCrashRate.max, 1.01);
        add("--wait", "0..3600 s", 3600, 3600.5);
        add("--restart-after", "0..86400 s", 86400, 86400.5);
        add("--delay", protocol::kDelaySeconds.range(), protocol::kDelaySeconds.max,
            protocol::kDelaySeconds.max + 1);
        add("--expiration", protocol::kExpirationSeconds.range(), protocol::kExpirationSeconds.max,
            protocol::kExpirationSeconds.max + 1);
        add("--max-receive", protocol::kMaxReceiveCount.range(), protocol::kMaxReceiveCount.max,
            protocol::kMaxReceiveCount.max + 1);
    }

    void helpRangesAreTheCheckedRanges() {
        QFETCH(QString, option);
        QFETCH(QString, range);
        QFETCH(QString, top);
        QFETCH(QString, over);
        // The option's entry: its line and the indented lines after it.
        const std::string usage = headlessUsage();
        const std::size_t at = usage.find("\n  " + option.toStdString() + " ");
        QVERIFY2(at != std::string::npos, qPrintable(option));
        const std::size_t end = usage.find("\n  --", at + 1);
        const std::string entry = usage.substr(at, end - at);
        QVERIFY2(entry.find(range.toStdString()) != std::string::npos, entry.c_str());

        HeadlessArgs h;
        std::string error;
        QVERIFY2(parseHeadlessArgs({option.toStdString(), top.toStdString()}, &h, &error),
                 error.c_str());
        QVERIFY(!parseHeadlessArgs({option.toStdString(), over.toStdString()}, &h, &error));
        // "0..1024" in the help is "between 0 and 1024" in the error.
        const std::string low = range.toStdString().substr(0, range.indexOf(u'.'));
        QVERIFY2(error.find("between " + low + " and ") != std::string::npos, error.c_str());
    }
};

QTEST_APPLESS_MAIN(TstHeadlessArgs)
#include "tst_headless_args.moc"
