// Lesson files: every shipped lesson parses; every malformed lesson is refused
// with an error naming the file, the step and the field; answers are checked
// for their form before anything runs.
#include <QtTest/QtTest>
#include <filesystem>
#include <fstream>

#include "common/json_path_line.h"
#include "lessons/lesson_json.h"
#include "lessons/prediction.h"

using namespace qs::lessons;
namespace fs = std::filesystem;

namespace {

const char* kRun = R"({"tasks": {"count": 4}, "workers": {"count": 2}})";

// A lesson with one step around `step` fields (prose/run/checks given unless replaced).
std::string lessonWith(const std::string& stepFields) {
    return R"({"title": "T", "idea": "I", "steps": [{"prose": "P", "run": )" + std::string(kRun) +
           ", " + stepFields + "}]}";
}

std::string errorOf(const std::string& text) {
    Lesson l;
    std::string error;
    if (parseLessonJson(text, &l, &error)) {
        return "(parsed)";
    }
    return error;
}

}  // namespace

class TstLessonJson : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyShippedLessonParses() {
        int count = 0;
        for (const auto& entry : fs::directory_iterator(QUEUESCOPE_LESSON_DIR)) {
            Lesson l;
            std::string error;
            QVERIFY2(loadLessonFile(entry.path().string(), &l, &error), error.c_str());
            QCOMPARE(l.name, entry.path().stem().string());
            QVERIFY(!l.title.empty() && !l.idea.empty() && !l.steps.empty());
            for (const LessonStep& s : l.steps) {
                QVERIFY2(!s.checks.empty(), l.name.c_str());
            }
            ++count;
        }
        QVERIFY2(count >= 12, std::to_string(count).c_str());
    }

    void aFullLessonParses() {
        Lesson l;
        std::string error;
        const std::string text = R"({"title": "T", "idea": "I", "needs": ["channel-management"],
          "steps": [{"prose": "P", "seed": 3, "run": )" +
                                 std::string(kRun) + R"(,
            "prediction": {"kind": "choice", "question": "Q?", "choices": [
               {"text": "A", "check": {"kind": "ackedOnce"}},
               {"text": "B", "check": {"kind": "count", "measure": "expired", "min": 1}}]},
            "checks": [{"kind": "share", "counter": "acked", "worker": "each", "min": 0.1, "max": 0.9},
                       {"kind": "redelivered", "tasks": [1, 2], "to": "worker-2", "from": "worker-1"},
                       {"kind": "cameBack", "from": "worker-1", "equals": 2},
                       {"kind": "deadLettered", "task": 4, "afterReceives": 3, "channel": "dlq"},
                       {"kind": "notBeforeDelay"}, {"kind": "rejectedToTail", "max": 3}]}]})";
        QVERIFY2(parseLessonJson(text, &l, &error), error.c_str());
        QCOMPARE(l.needs.size(), std::size_t(1));
        const LessonStep& s = l.steps[0];
        QCOMPARE(s.seed, std::uint64_t(3));
        QCOMPARE(s.run.tasks.count, 4);
        QCOMPARE(s.prediction->choices.size(), std::size_t(2));
        QCOMPARE(s.checks.size(), std::size_t(6));
        QCOMPARE(s.checks[1].tasks, (std::vector<int>{1, 2}));
        QCOMPARE(s.checks[1].worker, std::string("worker-2"));
        QCOMPARE(s.checks[1].fromWorker, std::string("worker-1"));
        QCOMPARE(*s.checks[2].bounds.min, 2.0);
        QCOMPARE(s.checks[3].receives, 3);
        QCOMPARE(*s.checks[5].bounds.max, 3.0);
        QCOMPARE(s.checks[0].where, std::string("steps[0].checks[0]"));
    }

    void malformedLessonsNameTheField_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");
        auto row = [](const char* name, const std::string& text, const char* error) {
            QTest::newRow(name) << QString::fromStdString(text) << QString::fromUtf8(error);
        };
        row("syntax", "{\"title\": \"T\",\n \"idea\" }", "invalid JSON: parse error at line 2");
        row("not an object", "[1]", "lesson: must be a JSON object");
        row("unknown root key", R"({"title": "T", "idea": "I", "steps": [], "extra": 1})",
            "extra: unknown key");
        row("no title", R"({"idea": "I", "steps": []})", "title: missing");
        row("empty idea", R"({"title": "T", "idea": "", "steps": []})",
            "idea: must be a non-empty string");
        row("no steps", R"({"title": "T", "idea": "I", "steps": []})",
            "steps: must be a non-empty array of steps");
        row("bad need", R"({"title": "T", "idea": "I", "needs": ["x"], "steps": []})",
            "needs[0]: 'x' is not one of channel-management");
        row("former need", R"({"title": "T", "idea": "I", "needs": ["v1-stream"], "steps": []})",
            "needs[0]: 'v1-stream' is no longer a need: the workers consume through the v1 "
            "stream");
        row("bad consume",
            R"({"title": "T", "idea": "I", "steps": [{"prose": "P", "run": {"workers": {"consume": "v3"}}, "checks": []}]})",
            "steps[0].run.workers.consume: ");
        row("bad visibility",
            R"({"title": "T", "idea": "I", "steps": [{"prose": "P", "run": {"workers": {"consume": "v1", "visibilitySeconds": 0}}, "checks": []}]})",
            "steps[0].run.workers.visibilitySeconds: must be between 1 and 43200");
        row("no prose", R"({"title": "T", "idea": "I", "steps": [{"run": {}, "checks": []}]})",
            "steps[0].prose: missing");
        row("no run", R"({"title": "T", "idea": "I", "steps": [{"prose": "P", "checks": []}]})",
            "steps[0].run: missing");
        row("bad run",
            R"({"title": "T", "idea": "I", "steps": [{"prose": "P", "run": {"workers": {"batch": 0}}, "checks": []}]})",
            "steps[0].run.workers.batch: must be between 1 and");
        row("no checks", lessonWith(R"("checks": [])"),
            "steps[0].checks: must be a non-empty array of checks");
        row("step key", lessonWith(R"("checks": [{"kind": "ackedOnce"}], "hint": 1)"),
            "steps[0].hint: unknown key");
        row("bad seed", lessonWith(R"("checks": [{"kind": "ackedOnce"}], "seed": 0)"),
            "steps[0].seed: must be between 1 and");
        row("check kind", lessonWith(R"("checks": [{"kind": "fast"}])"),
            "steps[0].checks[0].kind: 'fast' is not one of ackedOnce, count");
        row("check no kind", lessonWith(R"("checks": [{}])"), "steps[0].checks[0].kind: missing");
        row("check key", lessonWith(R"("checks": [{"kind": "ackedOnce", "min": 1}])"),
            "steps[0].checks[0].min: unknown key");
        row("measure", lessonWith(R"("checks": [{"kind": "count", "measure": "speed", "min": 1}])"),
            "steps[0].checks[0].measure: 'speed' is not a measure of the run");
        row("counter",
            lessonWith(
                R"("checks": [{"kind": "count", "measure": "lost", "worker": "worker-1", "min": 1}])"),
            "steps[0].checks[0].measure: 'lost' is not a worker counter");
        row("worker",
            lessonWith(
                R"("checks": [{"kind": "count", "measure": "acked", "worker": "worker-3", "min": 1}])"),
            "steps[0].checks[0].worker: 'worker-3' is not a worker of this step's run (worker-1 "
            "... worker-2)");
        row("no bounds", lessonWith(R"("checks": [{"kind": "count", "measure": "acked"}])"),
            "steps[0].checks[0].min: missing (give min, max or equals)");
        row("min > max",
            lessonWith(R"("checks": [{"kind": "count", "measure": "acked", "min": 3, "max": 2}])"),
            "steps[0].checks[0]: min must be <= max");
        row("equals and min",
            lessonWith(
                R"("checks": [{"kind": "count", "measure": "acked", "min": 3, "equals": 2}])"),
            "steps[0].checks[0].equals: cannot be given with min or max");
        row("share range",
            lessonWith(
                R"("checks": [{"kind": "share", "counter": "acked", "worker": "each", "max": 2}])"),
            "steps[0].checks[0]: a share's min and max are fractions between 0 and 1");
        row("task range", lessonWith(R"("checks": [{"kind": "redelivered", "tasks": [5]}])"),
            "steps[0].checks[0].tasks[0]: must be between 1 and 4");
        row("tasks and min",
            lessonWith(R"("checks": [{"kind": "redelivered", "tasks": [1], "min": 1}])"),
            "steps[0].checks[0]: give either tasks or min / max / equals, not both");
        row("cameBack from", lessonWith(R"("checks": [{"kind": "cameBack"}])"),
            "steps[0].checks[0].from: missing");
        row("dead task", lessonWith(R"("checks": [{"kind": "deadLettered", "task": "3"}])"),
            "steps[0].checks[0].task: must be a whole number");
        row("prediction kind",
            lessonWith(
                R"("checks": [{"kind": "ackedOnce"}], "prediction": {"kind": "guess", "question": "Q"})"),
            "steps[0].prediction.kind: 'guess' is not one of choice, number, worker");
        row("no question",
            lessonWith(
                R"("checks": [{"kind": "ackedOnce"}], "prediction": {"kind": "number", "measure": "acked"})"),
            "steps[0].prediction.question: missing");
        row("one choice",
            lessonWith(
                R"("checks": [{"kind": "ackedOnce"}], "prediction": {"kind": "choice", "question": "Q", "choices": [{"text": "a", "check": {"kind": "ackedOnce"}}]})"),
            "steps[0].prediction.choices: must be an array of 2 to 26 choices");
        row("choice check",
            lessonWith(
                R"("checks": [{"kind": "ackedOnce"}], "prediction": {"kind": "choice", "question": "Q", "choices": [{"text": "a", "check": {"kind": "ackedOnce"}}, {"text": "b"}]})"),
            "steps[0].prediction.choices[1].check: missing");
        row("pick",
            lessonWith(
                R"("checks": [{"kind": "ackedOnce"}], "prediction": {"kind": "worker", "question": "Q", "counter": "acked", "pick": "best"})"),
            "steps[0].prediction.pick: 'best' is not one of most, fewest");
        row("tolerance",
            lessonWith(
                R"("checks": [{"kind": "ackedOnce"}], "prediction": {"kind": "number", "question": "Q", "measure": "acked", "tolerance": -1})"),
            "steps[0].prediction.tolerance: must be >= 0");
    }
    void malformedLessonsNameTheField() {
        QFETCH(QString, text);
        QFETCH(QString, error);
        const std::string got = errorOf(text.toStdString());
        QVERIFY2(got.find(error.toStdString()) != std::string::npos,
                 ("got: " + got + "\nwanted: " + error.toStdString()).c_str());
    }

    void syntaxErrorsSayTheLine() {
        const std::string got = errorOf("{\"title\": \"T\",\n\n \"idea\" }");
        QVERIFY2(got.find("line 3") != std::string::npos, got.c_str());
    }

    // A schema error names the line of the value it is about; a missing key,
    // the line of the object that lacks it.
    void schemaErrorsSayTheLine() {
        const std::string text =
            "{\"title\": \"T\",\n"    // 1
            " \"idea\": \"I\",\n"     // 2
            " \"steps\": [\n"         // 3
            "  {\"prose\": \"P\",\n"  // 4
            "   \"run\": " +
            std::string(kRun) +
            ",\n"                                             // 5
            "   \"checks\": [\n"                              // 6
            "     {\"kind\": \"ackedOnce\"},\n"               // 7
            "     {\"kind\": \"count\",\n"                    // 8
            "      \"measure\": \"speed\", \"min\": 1}]}]}";  // 9
        const std::string got = errorOf(text);
        QVERIFY2(got.starts_with("line 9: steps[0].checks[1].measure:"), got.c_str());
        const std::string kind = "\"kind\": \"count\",";
        const std::string noKind = std::string(text).replace(text.find(kind), kind.size(), "");
        const std::string missing = errorOf(noKind);
        QVERIFY2(missing.starts_with("line 8: steps[0].checks[1]"), missing.c_str());
    }

    // The scanner behind it: comments, escaped quotes, arrays, a path that is
    // not there (its nearest ancestor's line), the root.
    void linesOfJsonPaths() {
        const std::string text =
            "// a lesson\n"
            "{\"a\": \"x\\\"{\",  /* \n */\n"
            " \"b\": [1,\n"
            "   {\"c\": true}],\n"
            " \"d\": {}}";
        QCOMPARE(qs::lineOfJsonPath(text, "a"), 2);
        QCOMPARE(qs::lineOfJsonPath(text, "b"), 4);
        QCOMPARE(qs::lineOfJsonPath(text, "b[0]"), 4);
        QCOMPARE(qs::lineOfJsonPath(text, "b[1].c"), 5);
        QCOMPARE(qs::lineOfJsonPath(text, "b[1].missing"), 5);
        QCOMPARE(qs::lineOfJsonPath(text, "d"), 6);
        QCOMPARE(qs::lineOfJsonPath(text, ""), 1);
        QCOMPARE(qs::lineOfJsonPath("{\"a\": [", "a[3]"), 1);  // cut short: the root
    }

    void fileErrorsNameTheFile() {
        const fs::path dir =
            fs::temp_directory_path() /
            ("qs-lesson-json-" + std::to_string(QRandomGenerator::global()->generate()));
        fs::create_directories(dir);
        const fs::path bad = dir / "bad.json";
        std::ofstream(bad) << lessonWith(
            R"("checks": [{"kind": "count", "measure": "speed", "min": 1}])");
        Lesson l;
        std::string error;
        QVERIFY(!loadLessonFile(bad.string(), &l, &error));
        QVERIFY2(error.starts_with(bad.string() + ": line 1: steps[0].checks[0].measure:"),
                 error.c_str());
        QVERIFY(!loadLessonFile((dir / "missing.json").string(), &l, &error));
        QCOMPARE(error, (dir / "missing.json").string() + ": cannot open file");
        QVERIFY(!loadLessonFile(dir.string(), &l, &error));
        QCOMPARE(error, dir.string() + ": is a directory");
        QVERIFY(l.steps.empty());  // untouched
        fs::remove_all(dir);
    }

    void answersAreCheckedForTheirForm() {
        Prediction choice;
        choice.kind = PredictionKind::Choice;
        choice.choices.resize(3);
        std::string error;
        QVERIFY(checkAnswer(choice, "b", 3, &error));
        QVERIFY(checkAnswer(choice, "C", 3, &error));
        QVERIFY(checkAnswer(choice, "3", 3, &error));
        QVERIFY(!checkAnswer(choice, "d", 3, &error));
        QCOMPARE(error, std::string("'d' is not a choice: a, b or c"));
        QVERIFY(!checkAnswer(choice, "4", 3, &error));
        Prediction number;
        number.kind = PredictionKind::Number;
        QVERIFY(checkAnswer(number, "2.5", 3, &error));
        QVERIFY(!checkAnswer(number, "two", 3, &error));
        QCOMPARE(error, std::string("'two' is not a number"));
        Prediction worker;
        worker.kind = PredictionKind::Worker;
        QVERIFY(checkAnswer(worker, "worker-2", 3, &error));
        QVERIFY(checkAnswer(worker, "3", 3, &error));
        QVERIFY(!checkAnswer(worker, "worker-4", 3, &error));
        QCOMPARE(error, std::string("'worker-4' is not a worker (worker-1 ... worker-3)"));
        QVERIFY(!checkAnswer(worker, "", 3, &error));
    }

    void boundsDescribeThemselves() {
        Bounds b;
        b.min = 3;
        QCOMPARE(b.describe(), std::string("at least 3"));
        b.max = 3;
        QCOMPARE(b.describe(), std::string("exactly 3"));
        b.max = 5;
        QCOMPARE(b.describe(), std::string("between 3 and 5"));
        QVERIFY(b.contains(5) && !b.contains(5.5) && !b.contains(2));
    }
};

QTEST_APPLESS_MAIN(TstLessonJson)
#include "tst_lesson_json.moc"
