// `queuescope run --record FILE` then `queuescope summary FILE`: the summary
// printed from the recording alone is the text the run printed (bundled
// scenarios 01 and 05, the second with NAcks and a dead-letter queue); bad
// files and bad command lines get a message and a non-zero exit.
#include <QtTest/QtTest>
#include <fstream>

#include "recording/recording_reader.h"
#include "recording_test_support.h"

using namespace qs;
using qs::test::runCommand;
using qs::test::summaryCommand;

class RecordingSummary : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::string path(const char* name) const {
        return dir_.filePath(QString::fromUtf8(name)).toStdString();
    }

    void runThenSummary(const std::string& scenarioFile, int expectedCode) {
        const std::string recording = path((scenarioFile + ".qsrun").c_str());
        const auto run =
            runCommand({"--scenario", std::string(QUEUESCOPE_SCENARIO_DIR) + "/" + scenarioFile,
                        "--record", recording, "--quiet", "--seed", "7"});
        QVERIFY2(run.code == expectedCode, run.err.c_str());
        QVERIFY2(run.out.find("Result: ") != std::string::npos, run.out.c_str());
        const auto summary = summaryCommand({recording});
        QVERIFY2(summary.code == 0, summary.err.c_str());
        QCOMPARE(summary.out, run.out);
        // The recording holds the run's settings for running it again.
        std::string error;
        auto reader = recording::RecordingReader::open(recording, &error);
        QVERIFY2(reader, error.c_str());
        QCOMPARE(reader->settingText("seed"), std::string("7"));
        QVERIFY(!reader->settingText("scenario_json").empty());
        QVERIFY(!reader->settingText("server_version").empty());
        QCOMPARE(reader->settingInt("embedded_broker"), std::int64_t{1});
        QVERIFY(reader->finished());
        QCOMPARE(reader->lostEvents(), std::uint64_t{0});
        QCOMPARE(reader->eventCount(), reader->lastIndex());
    }

private Q_SLOTS:
    void classicWorkQueue() { runThenSummary("01-classic-work-queue.json", 0); }
    void poisonDeadLetter() { runThenSummary("05-poison-dead-letter.json", 0); }

    // Any seed `run --seed` takes reads back as the same text, above 2^63 too
    // (an SQLite integer would turn it negative, which --seed refuses).
    void largestSeedReadsBackExactly() {
        const std::string recording = path("seed.qsrun");
        const std::string seed = "18446744073709551615";
        const auto run = runCommand(
            {"--tasks", "1", "--workers", "1", "--record", recording, "--quiet", "--seed", seed});
        QVERIFY2(run.code == 0, run.err.c_str());
        std::string error;
        auto reader = recording::RecordingReader::open(recording, &error);
        QVERIFY2(reader, error.c_str());
        QCOMPARE(reader->settingText("seed"), seed);
    }

    // A run that fails early (no broker on port 1) still leaves a recording
    // with its outcome, and its summary is the run's.
    void runThatCouldNotStart() {
        const std::string recording = path("early.qsrun");
        const auto run = runCommand({"--address", "127.0.0.1:1", "--record", recording, "--quiet"});
        QCOMPARE(run.code, 3);
        QVERIFY2(run.out.find("error: cannot reach the broker") != std::string::npos,
                 run.out.c_str());
        const auto summary = summaryCommand({recording});
        QVERIFY2(summary.code == 0, summary.err.c_str());
        QCOMPARE(summary.out, run.out);
    }

    void summaryRefusesBadFiles() {
        const std::string text = path("notes.qsrun");
        std::ofstream(text) << "not a recording\n";
        auto r = summaryCommand({text});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.find("queuescope summary: " + text + ": not an SQLite database") !=
                     std::string::npos,
                 r.err.c_str());
        QVERIFY(r.out.empty());
        r = summaryCommand({path("missing.qsrun")});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.find("no such file") != std::string::npos, r.err.c_str());
    }

    void summaryCommandLine() {
        auto r = summaryCommand({});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("expected one recording") != std::string::npos, r.err.c_str());
        r = summaryCommand({"a.qsrun", "b.qsrun"});
        QCOMPARE(r.code, 2);
        r = summaryCommand({"--frobnicate"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("unknown option '--frobnicate'") != std::string::npos, r.err.c_str());
        r = summaryCommand({"--help"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.find("Usage: queuescope summary RUN.qsrun") == 0);
    }

    void runRecordRefusals() {
        auto r = runCommand({"--record", path("x.qsrun"), "--no-events"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("--record needs the event stream") != std::string::npos, r.err.c_str());
        r = runCommand({"--record", path("same.log"), "--events-csv", path("same.log")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("--record and an event log name the same file") != std::string::npos,
                 r.err.c_str());
        r = runCommand({"--record", path("no-such-dir/x.qsrun"), "--quiet"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.find("cannot create the recording") != std::string::npos, r.err.c_str());
    }
};

QTEST_APPLESS_MAIN(RecordingSummary)
#include "tst_recording_summary.moc"
