// The writer keeps up with the full-speed pool (8 workers, batch 50, no work
// time): every event the run drained is in the recording, no gap, and the
// summary from the recording is the run's.
#include <QtTest/QtTest>

#include "recording/recording_reader.h"
#include "recording_test_support.h"

using namespace qs;

class RecordingFullSpeed : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void losesNothing() {
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("fast.qsrun")).toStdString();
        const auto run = test::runCommand({"--tasks", "20000", "--workers", "8", "--batch", "50",
                                           "--work", "none", "--wait", "1", "--timeout", "200",
                                           "--record", file, "--quiet", "--seed", "3"});
        QVERIFY2(run.code == 0, (run.out + run.err).c_str());
        std::string error;
        auto reader = recording::RecordingReader::open(file, &error);
        QVERIFY2(reader, error.c_str());
        QCOMPARE(reader->lostEvents(), std::uint64_t{0});
        QVERIFY(reader->gaps().empty());
        QCOMPARE(reader->eventCount(), reader->lastIndex());
        const auto recorded = static_cast<std::uint64_t>(reader->outcomeInt("events_recorded"));
        QVERIFY2(recorded > 20000u * 6, std::to_string(recorded).c_str());
        // Every drained event, plus the ledger's derived ones (also recorded).
        QVERIFY(reader->eventCount() >= recorded);
        QCOMPARE(reader->outcomeInt("events_dropped"), std::int64_t{0});
        const auto summary = test::summaryCommand({file});
        QVERIFY2(summary.code == 0, summary.err.c_str());
        QCOMPARE(summary.out, run.out);
    }
};

QTEST_APPLESS_MAIN(RecordingFullSpeed)
#include "tst_recording_full_speed.moc"
