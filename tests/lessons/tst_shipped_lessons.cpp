// Every shipped lesson, played as `queuescope lesson` plays it (each step's
// run on its own embedded broker, ephemeral port), passes every check (the
// visibility lesson's v1-stream workers included). The command lists
// the lessons, grades answers, refuses bad usage and bad files with exit 2,
// and a lesson built to fail (a wrong check) fails with its explanation.
#include <QtTest/QtTest>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "lessons/lesson_command.h"
#include "lessons/lesson_library.h"
#include "lessons/lesson_player.h"
#include "runner/run_recording.h"

using namespace qs::lessons;
namespace fs = std::filesystem;

namespace {

struct Command {
    int code = -1;
    std::string out;
    std::string err;
};

Command run(const std::vector<std::string>& args) {
    std::ostringstream out;
    std::ostringstream err;
    Command c;
    c.code = runLessonCommand(args, out, err);
    c.out = out.str();
    c.err = err.str();
    return c;
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::string failures(const LessonReport& report) {
    std::string text = report.unavailable;
    for (const StepReport& s : report.steps) {
        text += s.runError;
        for (const CheckResult& c : s.checks) {
            if (c.verdict != Verdict::Pass) {
                text +=
                    "\nstep " + std::to_string(s.index + 1) + ": " + c.title + ": " + c.sentence;
            }
        }
    }
    return text;
}

}  // namespace

class TstShippedLessons : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyShippedLessonPassesOnTheEmbeddedBroker_data() {
        QTest::addColumn<QString>("name");
        const auto names = bundledLessonNames();
        QVERIFY(names.size() >= 13);
        for (const std::string& n : names) {
            QTest::newRow(n.c_str()) << QString::fromStdString(n);
        }
    }
    void everyShippedLessonPassesOnTheEmbeddedBroker() {
        QFETCH(QString, name);
        Lesson lesson;
        std::string error;
        QVERIFY2(loadLesson(name.toStdString(), &lesson, &error), error.c_str());
        const auto started = std::chrono::steady_clock::now();
        const LessonReport report = playLesson(lesson, {});
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        qInfo("%s: %.1f s", lesson.name.c_str(), seconds);
        QVERIFY2(report.exitCode() == 0, failures(report).c_str());
        QCOMPARE(report.steps.size(), lesson.steps.size());
        for (const StepReport& s : report.steps) {
            QVERIFY(s.facts);
            if (s.step->prediction) {
                QVERIFY(s.grade);
                QCOMPARE(s.grade->outcome, GradeOutcome::NotAnswered);
                QVERIFY2(!s.grade->actual.empty(), s.grade->explanation.c_str());
            }
        }
    }

    void listShowsEveryLesson() {
        const Command c = run({"--list"});
        QCOMPARE(c.code, 0);
        for (const std::string& n : bundledLessonNames()) {
            QVERIFY2(has(c.out, n + "  "), c.out.c_str());
        }
        QVERIFY(has(c.out, "01-competing-consumers  Competing consumers"));
    }

    void aLessonPlaysWithGradedAnswers() {
        const Command right = run({"competing-consumers", "--answer", "1=worker-1"});
        QVERIFY2(right.code == 0, (right.out + right.err).c_str());
        QVERIFY(has(right.out, "Lesson 01-competing-consumers: Competing consumers"));
        QVERIFY(has(right.out, "Step 1 of 1"));
        QVERIFY(has(right.out, "Predict: Which worker will receive the fewest tasks?"));
        QVERIFY(has(right.out, "[pass]      every task acked exactly once"));
        QVERIFY(has(right.out, "4 of 4 checks passed."));
        // worker-1 is right or wrong depending on the run; the grade says which, with the counts.
        QVERIFY2(has(right.out, "Your answer: worker-1 - right.") ||
                     has(right.out, "Your answer: worker-1 - wrong: the run says worker-"),
                 right.out.c_str());
        QVERIFY2(has(right.out, "received no task"), right.out.c_str());
    }

    void badUsageAndFilesExitTwo() {
        Command c = run({});
        QCOMPARE(c.code, 2);
        QVERIFY(has(c.err, "no lesson named"));
        c = run({"01", "--frobnicate"});
        QCOMPARE(c.code, 2);
        QVERIFY(has(c.err, "unknown option '--frobnicate'"));
        c = run({"no-such-lesson"});
        QCOMPARE(c.code, 2);
        QVERIFY2(has(c.err, "no lesson \"no-such-lesson\"") && has(c.err, "01-competing-consumers"),
                 c.err.c_str());
        c = run({"01", "--answer", "2=a"});
        QCOMPARE(c.code, 2);
        QVERIFY2(has(c.err, "--answer 2=a: the step must be 1 to 1"), c.err.c_str());
        c = run({"03", "--answer", "z"});
        QCOMPARE(c.code, 2);
        QVERIFY2(has(c.err, "'z' is not a choice: a, b or c"), c.err.c_str());
        c = run({"01", "--answer", "9"});
        QCOMPARE(c.code, 2);
        QVERIFY2(has(c.err, "'9' is not a worker (worker-1 ... worker-3)"), c.err.c_str());
        c = run({"01", "--address", "nowhere"});
        QCOMPARE(c.code, 2);
        const fs::path bad = fs::temp_directory_path() / "qs-bad-lesson.json";
        std::ofstream(bad) << R"({"title": "T", "idea": "I", "steps": [{"prose": "P"}]})";
        c = run({bad.string()});
        QCOMPARE(c.code, 2);
        QVERIFY2(has(c.err, bad.string() + ": line 1: steps[0].run: missing"), c.err.c_str());
        fs::remove(bad);
    }

    // A lesson built to fail: its check claims 3 acks of a 2-task run.
    void aWrongCheckFailsWithItsExplanation() {
        const fs::path file = fs::temp_directory_path() / "qs-failing-lesson.json";
        std::ofstream(file) << R"({"title": "Built to fail", "idea": "A wrong check.",
          "steps": [{"prose": "Two tasks, one worker.",
            "run": {"channel": "t.fail", "tasks": {"count": 2},
                    "workers": {"count": 1, "batch": 2, "waitSeconds": 1, "work": 0},
                    "until": "drained", "timeoutSeconds": 20},
            "checks": [{"kind": "count", "measure": "acked", "equals": 3}, {"kind": "ackedOnce"}]}]})";
        const Command c = run({file.string()});
        fs::remove(file);
        QVERIFY2(c.code == 1, (c.out + c.err).c_str());
        QVERIFY2(has(c.out, "[FAIL]      acked: exactly 3"), c.out.c_str());
        QVERIFY2(has(c.out, "2 tasks were acked (#1, #2) (expected exactly 3)."), c.out.c_str());
        QVERIFY(has(c.out, "1 of 2 checks passed."));
        QVERIFY(has(c.out, "Not every check passed"));
    }

    // --keep-recordings: each step's run is a recording `queuescope summary` reads.
    void keptRecordingsAreTheRuns() {
        const fs::path dir = fs::temp_directory_path() /
                             ("qs-kept-" + std::to_string(QRandomGenerator::global()->generate()));
        const Command c = run({"13", "--keep-recordings", (dir / "runs").string()});
        QVERIFY2(c.code == 0, (c.out + c.err).c_str());
        const fs::path file = dir / "runs" / "13-requeue-to-another-channel-step1.qsrun";
        QVERIFY2(has(c.out, "Recording: " + file.string()), c.out.c_str());
        qs::runner::ReplayedRun replayed;
        std::string error;
        QVERIFY2(qs::runner::replayRecording(file.string(), &replayed, &error), error.c_str());
        QCOMPARE(replayed.result.totals.sent, std::uint64_t(8));
        QCOMPARE(replayed.scenario.channel, std::string("lesson.requeue"));
        fs::remove_all(dir);
    }

    // The v1 lesson as a learner plays it: the answer "worker-2" is right,
    // and the report says worker-1's ack came too late.
    void theVisibilityLessonPlays() {
        const Command c = run({"11", "--answer", "1=worker-2"});
        QVERIFY2(c.code == 0, (c.out + c.err).c_str());
        QVERIFY2(has(c.out, "taken back when its visibility timeout ran out"), c.out.c_str());
    }

    // Lesson 12's second step, the Python SDK's async_ack (spec §5 item 7):
    // worker-1's and worker-2's last acks never leave, worker-3 processes
    // those two tasks again; --check plays and checks, as a play does.
    void theAsyncAckStepPlays() {
        const Command c = run({"12", "--check", "--answer", "2=b"});
        QVERIFY2(c.code == 0, (c.out + c.err).c_str());
        QVERIFY2(has(c.out, "(b) holds: 2 tasks were processed more than once"), c.out.c_str());
        QVERIFY2(has(c.out, "acks did not take effect"), c.out.c_str());
    }
};

QTEST_APPLESS_MAIN(TstShippedLessons)
#include "tst_shipped_lessons.moc"
