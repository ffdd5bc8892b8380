#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <fstream>

#include "recording/recording_file_name.h"

using namespace qs::recording;
namespace fs = std::filesystem;

// The console's recordings are named by start time and scenario, and two runs
// of one second never share a file.
class TestRecordingFileName : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void namedByStartTimeAndScenario();
    void scenarioNamesAreMadeSafe();
    void twoRunsInOneSecondGetTwoFiles();
};

namespace {
std::tm at(int year, int month, int day, int hour, int minute, int second) {
    std::tm tm{};
    tm.tm_year = year - 1900;
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    tm.tm_sec = second;
    return tm;
}
}  // namespace

void TestRecordingFileName::namedByStartTimeAndScenario() {
    const std::tm t = at(2026, 12, 2, 7, 15, 3);
    QCOMPARE(recordingFileName(t, "04-worker-crash"),
             std::string("2026-12-02T07-15-03_04-worker-crash.qsrun"));
    QCOMPARE(recordingFileName(t, ""), std::string("2026-12-02T07-15-03_manual.qsrun"));
}

void TestRecordingFileName::scenarioNamesAreMadeSafe() {
    const std::tm t = at(2026, 1, 9, 23, 0, 59);
    QCOMPARE(recordingFileName(t, "my scenario / v2: *fast*"),
             std::string("2026-01-09T23-00-59_my-scenario-v2-fast.qsrun"));
    QCOMPARE(recordingFileName(t, "../../etc/passwd"),
             std::string("2026-01-09T23-00-59_etc-passwd.qsrun"));
    QCOMPARE(recordingFileName(t, ".hidden"), std::string("2026-01-09T23-00-59_hidden.qsrun"));
    QCOMPARE(recordingFileName(t, "///"), std::string("2026-01-09T23-00-59_manual.qsrun"));
    QCOMPARE(recordingFileName(t, "Tâche ünïcode"),
             std::string("2026-01-09T23-00-59_T-che-n-code.qsrun"));
    const std::string longName(300, 'a');
    const std::string name = recordingFileName(t, longName);
    QVERIFY(name.size() < 100);
    QVERIFY(name.find('/') == std::string::npos);
}

void TestRecordingFileName::twoRunsInOneSecondGetTwoFiles() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const fs::path folder = dir.path().toStdString();
    const std::tm t = at(2026, 12, 2, 7, 15, 3);
    const fs::path first = uniqueRecordingPath(folder, t, "manual");
    QCOMPARE(first.filename().string(), std::string("2026-12-02T07-15-03_manual.qsrun"));
    std::ofstream(first) << "x";
    const fs::path second = uniqueRecordingPath(folder, t, "manual");
    QCOMPARE(second.filename().string(), std::string("2026-12-02T07-15-03_manual-2.qsrun"));
    std::ofstream(second) << "x";
    QCOMPARE(uniqueRecordingPath(folder, t, "manual").filename().string(),
             std::string("2026-12-02T07-15-03_manual-3.qsrun"));
    // Another scenario in the same second has its own name.
    QCOMPARE(uniqueRecordingPath(folder, t, "05-poison").filename().string(),
             std::string("2026-12-02T07-15-03_05-poison.qsrun"));
}

QTEST_APPLESS_MAIN(TestRecordingFileName)
#include "tst_recording_file_name.moc"
