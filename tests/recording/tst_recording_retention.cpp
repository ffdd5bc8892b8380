#include <QTemporaryDir>
#include <QTest>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "recording/recording_retention.h"

using namespace qs::recording;
namespace fs = std::filesystem;

// The runs folder's retention: the newest recordings within a count and a
// size, the protected one never deleted, other files left alone.
class TestRecordingRetention : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void keepsTheNewestByCount();
    void keepsTheNewestWithinTheSize();
    void neverDeletesTheProtectedFile();
    void ignoresWhatIsNotARecording();
    void deletesAndCountsTheCompanionFiles();
    void noLimitKeepsEverything();
    void missingFolderIsNothingToDo();

private:
    // A recording of `bytes` bytes, `age` seconds old.
    fs::path make(const std::string& name, std::size_t bytes, int age);
    std::size_t recordings() const;

    std::unique_ptr<QTemporaryDir> dir_;
    fs::path folder_;
};

void TestRecordingRetention::init() {
    dir_ = std::make_unique<QTemporaryDir>();
    QVERIFY(dir_->isValid());
    folder_ = dir_->path().toStdString();
}

fs::path TestRecordingRetention::make(const std::string& name, std::size_t bytes, int age) {
    const fs::path path = folder_ / name;
    std::ofstream(path, std::ios::binary) << std::string(bytes, 'x');
    fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::seconds(age));
    return path;
}

std::size_t TestRecordingRetention::recordings() const {
    std::size_t n = 0;
    for (const auto& entry : fs::directory_iterator(folder_)) {
        n += entry.path().extension() == ".qsrun" ? 1 : 0;
    }
    return n;
}

void TestRecordingRetention::keepsTheNewestByCount() {
    for (int i = 0; i < 60; ++i) {
        // run-00 is the oldest.
        make("run-" + std::string(i < 10 ? "0" : "") + std::to_string(i) + ".qsrun", 10, 600 - i);
    }
    RetentionLimits limits;
    QCOMPARE(limits.maxRuns, std::size_t{50});
    QCOMPARE(limits.maxBytes, std::uint64_t{2} << 30);
    const RetentionResult r = RecordingRetention(limits).apply(folder_, {});
    QCOMPARE(r.deleted.size(), std::size_t{10});
    QCOMPARE(r.kept, std::size_t{50});
    QCOMPARE(r.keptBytes, std::uint64_t{500});
    QVERIFY(r.errors.empty());
    QCOMPARE(recordings(), std::size_t{50});
    // Oldest first, and exactly the ten oldest.
    QCOMPARE(r.deleted.front().filename().string(), std::string("run-00.qsrun"));
    QCOMPARE(r.deleted.back().filename().string(), std::string("run-09.qsrun"));
    QVERIFY(!fs::exists(folder_ / "run-09.qsrun"));
    QVERIFY(fs::exists(folder_ / "run-10.qsrun"));
    // Applying it again changes nothing.
    QVERIFY(RecordingRetention(limits).apply(folder_, {}).deleted.empty());
}

void TestRecordingRetention::keepsTheNewestWithinTheSize() {
    make("a.qsrun", 1000, 50);
    make("b.qsrun", 1000, 40);
    make("c.qsrun", 1000, 30);
    make("d.qsrun", 1000, 20);
    make("e.qsrun", 1000, 10);
    const RetentionResult r = RecordingRetention({50, 3500}).apply(folder_, {});
    QCOMPARE(r.deleted.size(), std::size_t{2});
    QCOMPARE(r.keptBytes, std::uint64_t{3000});
    QVERIFY(!fs::exists(folder_ / "a.qsrun"));
    QVERIFY(!fs::exists(folder_ / "b.qsrun"));
    QVERIFY(fs::exists(folder_ / "c.qsrun"));
    // A newer one too big to fit ends the run of kept ones: older ones go too,
    // so the folder always holds the newest recordings, never a gap.
    make("big.qsrun", 3000, 5);
    const RetentionResult r2 = RecordingRetention({50, 3500}).apply(folder_, {});
    QCOMPARE(r2.kept, std::size_t{1});
    QCOMPARE(recordings(), std::size_t{1});
    QVERIFY(fs::exists(folder_ / "big.qsrun"));
}

void TestRecordingRetention::neverDeletesTheProtectedFile() {
    const fs::path active = make("active.qsrun", 5000, 100);  // the oldest and the biggest
    make("x.qsrun", 10, 20);
    make("y.qsrun", 10, 10);
    // Within one run and 1000 bytes: only the protected one is left, though it
    // alone is over the size.
    const RetentionResult r = RecordingRetention({1, 1000}).apply(folder_, {active});
    QCOMPARE(r.deleted.size(), std::size_t{2});
    QVERIFY(fs::exists(active));
    QCOMPARE(r.kept, std::size_t{1});
    QCOMPARE(r.keptBytes, std::uint64_t{5000});
    QCOMPARE(recordings(), std::size_t{1});
    // Named another way (a relative path with "..") it is still the same file.
    make("z.qsrun", 10, 5);
    const fs::path sameActive = folder_ / ".." / folder_.filename() / "active.qsrun";
    RecordingRetention({1, 0}).apply(folder_, {sameActive});
    QVERIFY(fs::exists(active));
    QVERIFY(!fs::exists(folder_ / "z.qsrun"));
}

void TestRecordingRetention::ignoresWhatIsNotARecording() {
    make("notes.txt", 10, 1000);
    make("run.qsrun.bak", 10, 1000);
    make("qsrun", 10, 1000);
    fs::create_directory(folder_ / "folder.qsrun");
    make("old.qsrun", 10, 500);
    make("new.qsrun", 10, 1);
    const RetentionResult r = RecordingRetention({1, 0}).apply(folder_, {});
    QCOMPARE(r.deleted.size(), std::size_t{1});
    QCOMPARE(r.deleted.front().filename().string(), std::string("old.qsrun"));
    QVERIFY(fs::exists(folder_ / "notes.txt"));
    QVERIFY(fs::exists(folder_ / "run.qsrun.bak"));
    QVERIFY(fs::exists(folder_ / "qsrun"));
    QVERIFY(fs::is_directory(folder_ / "folder.qsrun"));
    QVERIFY(fs::exists(folder_ / "new.qsrun"));
}

void TestRecordingRetention::deletesAndCountsTheCompanionFiles() {
    // A killed writer leaves its WAL beside the file: it is part of the run.
    make("killed.qsrun", 100, 50);
    make("killed.qsrun-wal", 900, 50);
    make("killed.qsrun-shm", 0, 50);
    make("newer.qsrun", 100, 10);
    const RetentionResult keepBoth = RecordingRetention({50, 1100}).apply(folder_, {});
    QCOMPARE(keepBoth.keptBytes, std::uint64_t{1100});
    QVERIFY(keepBoth.deleted.empty());
    const RetentionResult r = RecordingRetention({50, 1000}).apply(folder_, {});
    QCOMPARE(r.deleted.size(), std::size_t{1});
    QVERIFY(!fs::exists(folder_ / "killed.qsrun"));
    QVERIFY(!fs::exists(folder_ / "killed.qsrun-wal"));
    QVERIFY(!fs::exists(folder_ / "killed.qsrun-shm"));
    QVERIFY(fs::exists(folder_ / "newer.qsrun"));
}

void TestRecordingRetention::noLimitKeepsEverything() {
    for (int i = 0; i < 5; ++i) {
        make("r" + std::to_string(i) + ".qsrun", 100, i);
    }
    const RetentionResult r = RecordingRetention({0, 0}).apply(folder_, {});
    QVERIFY(r.deleted.empty());
    QCOMPARE(r.kept, std::size_t{5});
}

void TestRecordingRetention::missingFolderIsNothingToDo() {
    const RetentionResult r = RecordingRetention({1, 1}).apply(folder_ / "none", {});
    QVERIFY(r.deleted.empty());
    QVERIFY(r.errors.empty());
    QCOMPARE(r.kept, std::size_t{0});
}

QTEST_APPLESS_MAIN(TestRecordingRetention)
#include "tst_recording_retention.moc"
