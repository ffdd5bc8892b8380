// kill -9 of a recording process: the real `queuescope run --record` (in
// qs_run_helper) records a busy run and is killed with SIGKILL once its file
// holds committed events. The file still opens, holds a gap-free prefix of
// the run's events (indexes 1..N, none missing) and `queuescope summary` says
// the run did not finish.
#include <QProcess>
#include <QtTest/QtTest>

#include "recording/recording_reader.h"
#include "recording_test_support.h"
#include "runner/run_recording.h"
#include "wait_until.h"

using namespace qs;

class RecordingCrash : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void killedMidRunLeavesAReadablePrefix() {
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("killed.qsrun")).toStdString();
        QProcess child;
        child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        child.start(QStringLiteral(QS_RUN_HELPER),
                    {QStringLiteral("run"), QStringLiteral("--tasks"), QStringLiteral("1000000"),
                     QStringLiteral("--rate"), QStringLiteral("20000"), QStringLiteral("--workers"),
                     QStringLiteral("4"), QStringLiteral("--work"), QStringLiteral("none"),
                     QStringLiteral("--timeout"), QStringLiteral("300"), QStringLiteral("--quiet"),
                     QStringLiteral("--record"), QString::fromStdString(file)});
        QVERIFY(child.waitForStarted(60000));
        // Committed data under load: at least 20,000 events readable.
        std::uint64_t seen = 0;
        const bool loaded = test::waitUntil([&] {
            std::string error;
            auto reader = recording::RecordingReader::open(file, &error, {false});
            seen = reader ? reader->eventCount() : 0;
            return seen >= 20000;
        });
        QVERIFY2(loaded, std::to_string(seen).c_str());
        QCOMPARE(child.state(), QProcess::Running);
        child.kill();  // SIGKILL
        QVERIFY(child.waitForFinished(60000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);

        std::string error;
        auto reader = recording::RecordingReader::open(file, &error);
        QVERIFY2(reader, error.c_str());
        QVERIFY(!reader->finished());
        QVERIFY(reader->eventCount() >= seen);
        // Gap-free: every index from 1 to the last one is there.
        QCOMPARE(reader->eventCount(), reader->lastIndex());
        QVERIFY(reader->gaps().empty());
        std::uint64_t expected = 1;
        bool ordered = true;
        QVERIFY2(reader->forEachEvent(
                     1, reader->lastIndex() + 1,
                     [&](std::uint64_t index, const Event&) {
                         ordered = ordered && index == expected++;
                     },
                     &error),
                 error.c_str());
        QVERIFY(ordered);
        QVERIFY(!reader->settingText("scenario_json").empty());

        const auto summary = test::summaryCommand({file});
        QVERIFY2(summary.code == 0, summary.err.c_str());
        QVERIFY2(summary.out.find("This run did not finish") == 0, summary.out.c_str());
        QVERIFY2(summary.out.find("warning: the run did not finish") != std::string::npos,
                 summary.out.c_str());
    }
};

QTEST_GUILESS_MAIN(RecordingCrash)
#include "tst_recording_crash.moc"
