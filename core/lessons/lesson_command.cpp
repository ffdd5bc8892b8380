#include "lessons/lesson_command.h"

#include <atomic>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <map>
#include <optional>

#include "client/address_check.h"
#include "common/interrupt_scope.h"
#include "common/prefix_lines.h"
#include "common/version.h"
#include "lessons/lesson_json.h"
#include "lessons/lesson_library.h"
#include "lessons/lesson_player.h"

namespace qs::lessons {

namespace {

struct LessonArgs {
    std::string lesson;
    std::vector<std::string> answers;  // as given: "STEP=VALUE" or "VALUE"
    PlayOptions play;
    bool list = false;
    bool help = false;
    bool version = false;
    bool verbose = false;
};

bool parseArgs(const std::vector<std::string>& args, LessonArgs* out, std::string* error) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](std::string* into) {
            if (i + 1 >= args.size()) {
                *error = a + " needs a value";
                return false;
            }
            *into = args[++i];
            return true;
        };
        if (a == "-h" || a == "--help") {
            out->help = true;
        } else if (a == "--version") {
            out->version = true;
        } else if (a == "--list") {
            out->list = true;
        } else if (a == "--verbose") {
            out->verbose = true;
        } else if (a == "--check") {
            // What a play always does; named for scripts that say what they want.
        } else if (a == "--answer") {
            std::string v;
            if (!value(&v))
                return false;
            out->answers.push_back(v);
        } else if (a == "--address") {
            if (!value(&out->play.address))
                return false;
            if (std::string bad = client::addressProblem(out->play.address); !bad.empty()) {
                *error = "--address " + out->play.address + ": " + bad;
                return false;
            }
        } else if (a == "--auth-token") {
            if (!value(&out->play.authToken))
                return false;
        } else if (a == "--keep-recordings") {
            if (!value(&out->play.recordingDirectory))
                return false;
        } else if (a.size() > 1 && a[0] == '-') {
            *error = "unknown option '" + a + "'";
            return false;
        } else if (!out->lesson.empty()) {
            *error = "one lesson at a time (got '" + out->lesson + "' and '" + a + "')";
            return false;
        } else {
            out->lesson = a;
        }
    }
    if (!out->help && !out->version && !out->list && out->lesson.empty()) {
        *error = "no lesson named (give a lesson file or name; --list shows the shipped ones)";
        return false;
    }
    return true;
}

// "--answer 2=b" -> step 1 (0-based); "--answer b" -> the first step that
// asks for a prediction.
bool resolveAnswers(const Lesson& lesson, const std::vector<std::string>& given,
                    std::map<std::size_t, std::string>* out, std::string* error) {
    for (const std::string& a : given) {
        const std::size_t eq = a.find('=');
        std::size_t step = 0;
        std::string value = a;
        if (eq != std::string::npos) {
            const std::string number = a.substr(0, eq);
            value = a.substr(eq + 1);
            char* end = nullptr;
            const long n = std::strtol(number.c_str(), &end, 10);
            if (number.empty() || *end != '\0' || n < 1 ||
                static_cast<std::size_t>(n) > lesson.steps.size()) {
                *error = "--answer " + a + ": the step must be 1 to " +
                         std::to_string(lesson.steps.size());
                return false;
            }
            step = static_cast<std::size_t>(n - 1);
        } else {
            while (step < lesson.steps.size() && !lesson.steps[step].prediction) {
                ++step;
            }
        }
        if (step >= lesson.steps.size() || !lesson.steps[step].prediction) {
            *error =
                "--answer " + a + ": step " + std::to_string(step + 1) + " asks for no prediction";
            return false;
        }
        const Prediction& p = *lesson.steps[step].prediction;
        std::string why;
        if (!checkAnswer(p, value, runWorkerCount(lesson.steps[step].run), &why)) {
            *error = "--answer " + a + ": " + why;
            return false;
        }
        if (out->count(step) != 0) {
            *error = "--answer " + a + ": step " + std::to_string(step + 1) + " answered twice";
            return false;
        }
        (*out)[step] = value;
    }
    return true;
}

std::string mark(Verdict v) {
    switch (v) {
        case Verdict::Pass:
            return "[pass]     ";
        case Verdict::Fail:
            return "[FAIL]     ";
        case Verdict::Undecided:
            return "[undecided]";
    }
    return "[undecided]";
}

void printPrediction(const LessonStep& step, const StepReport& report, std::ostream& out) {
    const Prediction& p = *step.prediction;
    out << "Predict: " << p.question << '\n';
    for (std::size_t i = 0; i < p.choices.size(); ++i) {
        out << "  " << static_cast<char>('a' + i) << ") " << p.choices[i].text << '\n';
    }
    if (!report.grade) {
        return;
    }
    const Grade& g = *report.grade;
    switch (g.outcome) {
        case GradeOutcome::Right:
            out << "Your answer: " << *report.answer << " - right.\n";
            break;
        case GradeOutcome::Wrong:
            out << "Your answer: " << *report.answer << " - wrong: the run says " << g.actual
                << ".\n";
            break;
        case GradeOutcome::NotAnswered:
            out << "Not answered (--answer " << report.index + 1 << "=VALUE); the run says "
                << g.actual << ".\n";
            break;
        case GradeOutcome::Undecided:
            out << "The run cannot grade it.\n";
            break;
    }
    out << prefixLines("  ", g.explanation) << '\n';
}

void printStep(const Lesson& lesson, const StepReport& report, std::ostream& out) {
    const LessonStep& step = *report.step;
    out << "\nStep " << report.index + 1 << " of " << lesson.steps.size() << "\n"
        << step.prose << "\n";
    if (step.prediction) {
        printPrediction(step, report, out);
    }
    for (const std::string& w : report.warnings) {
        out << "Note: " << w << '\n';
    }
    if (!report.runError.empty()) {
        out << "The run failed: " << report.runError << '\n';
        return;
    }
    out << "Checks:\n";
    std::size_t passed = 0;
    for (const CheckResult& c : report.checks) {
        passed += c.verdict == Verdict::Pass ? 1 : 0;
        out << "  " << mark(c.verdict) << ' ' << c.title << '\n'
            << prefixLines("              ", c.sentence) << '\n';
    }
    out << passed << " of " << report.checks.size() << " checks passed.\n";
    if (!report.recordingPath.empty()) {
        out << "Recording: " << report.recordingPath << '\n';
    }
    out.flush();
}

int listLessons(std::ostream& out, std::ostream& err) {
    const std::vector<std::string> names = bundledLessonNames();
    if (names.empty()) {
        err << "queuescope lesson: no lessons installed (looked for lessons/*.json in the data "
               "folders)\n";
        return 2;
    }
    for (const std::string& name : names) {
        Lesson lesson;
        std::string error;
        if (loadLesson(name, &lesson, &error)) {
            out << name << "  " << lesson.title << '\n';
        } else {
            out << name << "  (cannot be read: " << error << ")\n";
        }
    }
    return 0;
}

}  // namespace

std::string lessonUsage() {
    return R"(Usage: queuescope lesson FILE|NAME [--check] [--answer STEP=VALUE ...] [--address HOST:PORT]
       queuescope lesson --list

Plays a guided lesson: each step's scenario runs on the embedded broker (or the
KubeMQ server at --address) with real clients; the step's checks are decided
against what the run did and explained with its own events, and the learner's
prediction is graded against the run.

Options
  --list                 the shipped lessons, one a line
  --check                run every step and check it (what a play always does);
                         the exit status is 1 when a check fails
  --answer STEP=VALUE    the prediction for step STEP (1-based): a choice's
                         letter or number, a number, or a worker (worker-2 or 2);
                         "--answer VALUE" answers the first step that asks
  --address HOST:PORT    play against this KubeMQ server instead of the embedded broker
  --auth-token TOKEN     sent to that server
  --keep-recordings DIR  keep each step's run as DIR/NAME-stepN.qsrun
  --verbose              print the runner's progress lines
  -h, --help             this text
  --version              print the version and exit

Exit status
  0  every check passed
  1  a check failed or could not be decided
  2  bad command line or lesson file
  3  a run failed, or the lesson cannot be played against that broker
)";
}

int runLessonCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    LessonArgs a;
    std::string error;
    if (!parseArgs(args, &a, &error)) {
        err << "queuescope lesson: " << error << "\n(see queuescope lesson --help)\n";
        return 2;
    }
    if (a.help) {
        out << lessonUsage();
        return 0;
    }
    if (a.version) {
        out << "queuescope lesson " << kVersion << '\n';
        return 0;
    }
    if (a.list) {
        return listLessons(out, err);
    }
    Lesson lesson;
    if (!loadLesson(a.lesson, &lesson, &error) ||
        !resolveAnswers(lesson, a.answers, &a.play.answers, &error)) {
        err << prefixLines("queuescope lesson: ", error) << '\n';
        return 2;
    }
    a.play.cancelFlag = &interruptRequested();
    if (a.verbose) {
        a.play.log = [&err](const std::string& line) { err << line << '\n' << std::flush; };
    }
    a.play.onStep = [&](const StepReport& r) { printStep(lesson, r, out); };
    out << "Lesson " << lesson.name << ": " << lesson.title << '\n' << lesson.idea << '\n';
    out.flush();
    LessonReport report;
    try {
        report = playLesson(lesson, a.play);
    } catch (const std::exception& e) {
        err << "queuescope lesson: the run failed: " << e.what() << '\n';
        return 3;
    }
    if (!report.unavailable.empty()) {
        out << "\nThis lesson cannot be played here: " << report.unavailable << ".\n";
        return report.exitCode();
    }
    const int code = report.exitCode();
    out << '\n'
        << (code == 0   ? "Every check passed."
            : code == 1 ? "Not every check passed (see above)."
                        : "A run failed (see above).")
        << '\n';
    return code;
}

int runLessonCommand(int argc, char** argv) {
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) {
        args.emplace_back(argv[i]);
    }
    if (!args.empty() && args.front() == "lesson") {
        args.erase(args.begin());
    }
    const InterruptScope interrupts;
    return runLessonCommand(args, std::cout, std::cerr);
}

}  // namespace qs::lessons
