// Bundled scenarios by name: found in the build tree's share/queuescope (as an
// install finds /usr/share/queuescope), overridden by QUEUESCOPE_DATA_DIR and
// XDG_DATA_DIRS, and refused with the known names when a name is unknown.
#include <QtTest/QtTest>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "common/data_dirs.h"
#include "runner/scenario_json.h"
#include "runner/scenario_library.h"

using namespace qs;
using namespace qs::runner;
namespace fs = std::filesystem;

namespace {

void writeScenario(const fs::path& file, int tasks) {
    fs::create_directories(file.parent_path());
    std::ofstream(file) << "{\"name\": \"override\", \"tasks\": {\"count\": " << tasks
                        << "}, \"workers\": {\"count\": 1}}";
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

class TstScenarioLibrary : public QObject {
    Q_OBJECT

    fs::path dir_;

private Q_SLOTS:
    void init() {
        dir_ = fs::temp_directory_path() /
               ("qs-scenario-library-" + std::to_string(QRandomGenerator::global()->generate()));
        fs::create_directories(dir_);
        unsetenv("QUEUESCOPE_DATA_DIR");
        unsetenv("XDG_DATA_DIRS");
    }
    void cleanup() {
        unsetenv("QUEUESCOPE_DATA_DIR");
        unsetenv("XDG_DATA_DIRS");
        fs::remove_all(dir_);
    }

    // The build copies resources/scenarios to <build>/share/queuescope, which is
    // found from this executable's folder, as /usr/share/queuescope is from /usr/bin.
    void bundledScenariosFoundBesideTheExecutable() {
        const auto names = bundledScenarioNames();
        for (const char* n : {"01-classic-work-queue", "04-worker-crash", "06-live-tuning"}) {
            QVERIFY2(contains(names, n), n);
        }
        QVERIFY(std::is_sorted(names.begin(), names.end()));
        std::string error;
        const std::string path = resolveScenario("04-worker-crash", &error);
        QVERIFY2(!path.empty(), error.c_str());
        QVERIFY(fs::path(path).parent_path().parent_path().filename() == "queuescope");
        Scenario byName;
        Scenario byFile;
        QVERIFY2(loadScenario("04-worker-crash", &byName, &error), error.c_str());
        QVERIFY2(loadScenarioFile(QUEUESCOPE_SCENARIO_DIR "/04-worker-crash.json", &byFile, &error),
                 error.c_str());
        QCOMPARE(scenarioToJson(byName), scenarioToJson(byFile));
    }

    void dataDirVariableComesFirst() {
        writeScenario(dir_ / "scenarios" / "01-classic-work-queue.json", 7);
        writeScenario(dir_ / "scenarios" / "zz-extra.json", 3);
        setenv("QUEUESCOPE_DATA_DIR", dir_.c_str(), 1);
        QCOMPARE(dataDirectories().front(), fs::canonical(dir_));
        Scenario s;
        std::string error;
        QVERIFY2(loadScenario("01-classic-work-queue", &s, &error), error.c_str());
        QCOMPARE(s.tasks.count, 7);
        const auto names = bundledScenarioNames();
        QVERIFY(contains(names, "zz-extra"));
        QVERIFY(contains(names, "04-worker-crash"));  // the bundled ones stay visible
        QCOMPARE(std::count(names.begin(), names.end(), "01-classic-work-queue"), 1);
    }

    void xdgDataDirsAreSearched() {
        writeScenario(dir_ / "queuescope" / "scenarios" / "from-xdg.json", 2);
        const std::string list = "/nonexistent-qs:" + dir_.string();
        setenv("XDG_DATA_DIRS", list.c_str(), 1);
        std::string error;
        QVERIFY2(!resolveScenario("from-xdg", &error).empty(), error.c_str());
        QVERIFY(findDataPath("scenarios/from-xdg.json").has_value());
    }

    // The same short forms `queuescope lesson` accepts (common/bundled_files.h).
    void aScenarioAnswersToItsNumberAndItsShortName() {
        std::string error;
        const std::string full = resolveScenario("04-worker-crash", &error);
        QVERIFY2(!full.empty(), error.c_str());
        QCOMPARE(resolveScenario("04", &error), full);
        QCOMPARE(resolveScenario("worker-crash", &error), full);
        QVERIFY(resolveScenario("worker", &error).empty());
        QVERIFY2(error.find("not a file, nor a shipped scenario") != std::string::npos,
                 error.c_str());
    }

    void unknownNameListsTheKnownOnes() {
        Scenario s;
        std::string error;
        QVERIFY(!loadScenario("no-such-scenario", &s, &error));
        QVERIFY2(error.find("no scenario \"no-such-scenario\"") != std::string::npos,
                 error.c_str());
        QVERIFY2(error.find("01-classic-work-queue") != std::string::npos, error.c_str());
    }

    // Only a plain name is looked up among the data folders: a path is loaded as
    // it is, so a missing file is reported as such, never found elsewhere.
    void pathsAreNotNames() {
        writeScenario(dir_ / "scenarios" / "x.json", 1);
        setenv("QUEUESCOPE_DATA_DIR", dir_.c_str(), 1);
        std::string error;
        for (const char* path : {"scenarios/x", "../scenarios/x", "x.json"}) {
            QCOMPARE(resolveScenario(path, &error), std::string(path));
            Scenario s;
            QVERIFY(!loadScenario(path, &s, &error));
            QVERIFY2(error.find("cannot open file") != std::string::npos, error.c_str());
        }
        Scenario s;
        QVERIFY(!loadScenario("", &s, &error));
        QVERIFY2(error.find("no scenario named") != std::string::npos, error.c_str());
        const std::string file = (dir_ / "scenarios" / "x.json").string();
        QCOMPARE(resolveScenario(file, &error), file);
    }

    void executableDirectoryIsThisTestsFolder() {
        QCOMPARE(executableDirectory(),
                 fs::path(QCoreApplication::applicationDirPath().toStdString()));
    }
};

QTEST_GUILESS_MAIN(TstScenarioLibrary)
#include "tst_scenario_library.moc"
