// Each check kind decided against real runs on the embedded broker (its own
// ephemeral port per run): true on a run that shows it, false on one that does
// not, with the sentence naming the run's own tasks and workers; undecided
// when the run was stopped early or timed out; predictions graded.
#include <QtTest/QtTest>
#include <atomic>

#include "lesson_test_support.h"
#include "lessons/prediction.h"

using namespace qs;
using namespace qs::lessons;

namespace {

// worker-1 starts alone and takes #1-#5 at 0.6 s of work each; at 1 s it
// crashes, holding at least #2-#5 unsettled (it cannot finish more than one;
// two if the crash came 0.2 s late).
const std::string kCrash = R"({"channel": "t.crash", "tasks": {"count": 10},
  "workers": [{"count": 1, "batch": 5, "waitSeconds": 1, "work": {"kind": "fixed", "ms": 600}},
              {"count": 2, "startAt": 0.3, "batch": 5, "waitSeconds": 1, "work": {"kind": "fixed", "ms": 50}}],
  "timeline": [{"at": 1.0, "action": "crash", "worker": "worker-1"}],
  "until": "drained", "timeoutSeconds": 30})";
// Task #3 is rejected by every worker: dead-lettered on its third receive.
const std::string kPoison = R"({"channel": "t.poison", "tasks": {"count": 6,
  "policy": {"maxReceiveCount": 3, "deadLetterQueue": "t.poison.dlq"}, "poison": [3]},
  "workers": {"count": 2, "batch": 1, "waitSeconds": 1, "work": {"kind": "fixed", "ms": 20}},
  "until": "drained", "timeoutSeconds": 30})";
const std::string kDelayed =
    R"({"channel": "t.delay", "tasks": {"count": 3, "policy": {"delaySeconds": 1}},
  "workers": {"count": 1, "batch": 1, "waitSeconds": 1, "work": 0},
  "until": "drained", "timeoutSeconds": 30})";
const std::string kUndelayed = R"({"channel": "t.nodelay", "tasks": {"count": 3},
  "workers": {"count": 1, "batch": 1, "waitSeconds": 1, "work": 0},
  "until": "drained", "timeoutSeconds": 30})";
const std::string kUndelayedClaim =
    R"({"channel": "t.nodelay", "tasks": {"count": 3, "policy": {"delaySeconds": 2}},
  "workers": {"count": 1, "batch": 1, "waitSeconds": 1, "work": 0},
  "until": "drained", "timeoutSeconds": 30})";
// worker-1 receives 3 tasks, never settles, stops; nobody else polls.
const std::string kHeld = R"({"channel": "t.held", "tasks": {"count": 3},
  "workers": {"count": 1, "batch": 3, "waitSeconds": 1, "settle": "never", "maxPolls": 1, "work": 0},
  "runForSeconds": 1.0})";
const std::string kNeverDrains = R"({"channel": "t.stuck", "tasks": {"count": 2},
  "workers": {"count": 1, "batch": 2, "waitSeconds": 1, "settle": "never", "work": 0},
  "until": "drained", "timeoutSeconds": 1})";

}  // namespace

class TstLessonChecks : public QObject {
    Q_OBJECT

    std::unique_ptr<RunFacts> crash_;
    std::unique_ptr<RunFacts> poison_;

    CheckResult check(const std::string& json, const std::string& scenario, const RunFacts& f) {
        return evaluateCheck(test::checkSpec(json, scenario), f);
    }
    void expect(const CheckResult& r, Verdict v, const char* needle) {
        const std::string text = std::string(verdictName(r.verdict)) + ": " + r.sentence;
        QVERIFY2(r.verdict == v, text.c_str());
        QVERIFY2(r.sentence.find(needle) != std::string::npos, text.c_str());
    }

private Q_SLOTS:
    void initTestCase() {
        crash_ = test::playScenario(kCrash);
        poison_ = test::playScenario(kPoison);
    }

    void ackedOnce() {
        expect(check(R"({"kind": "ackedOnce"})", kCrash, *crash_), Verdict::Pass,
               "All 10 tasks were acked exactly once");
        const CheckResult r = check(R"({"kind": "ackedOnce"})", kPoison, *poison_);
        expect(r, Verdict::Fail, "#3 was never acked: it ended dead-lettered after 3 hand-outs");
        QVERIFY(!r.evidence.empty());
    }

    void count() {
        expect(check(R"({"kind": "count", "measure": "lost", "equals": 0})", kCrash, *crash_),
               Verdict::Pass, "0 tasks were lost");
        expect(check(R"({"kind": "count", "measure": "acked", "equals": 9})", kCrash, *crash_),
               Verdict::Fail, "(expected exactly 9)");
        const CheckResult received =
            check(R"({"kind": "count", "measure": "received", "worker": "worker-1", "equals": 5})",
                  kCrash, *crash_);
        expect(received, Verdict::Pass, "worker-1 received 5 tasks (#1-#5)");
        // The evidence: every event of tasks #1-#5, each a valid index into the run.
        QVERIFY(!received.evidence.empty());
        QVERIFY(received.evidence.back() < crash_->run().eventCount());
        expect(check(R"({"kind": "count", "measure": "crashes", "worker": "worker-2", "min": 1})",
                     kCrash, *crash_),
               Verdict::Fail, "worker-2 never crashed");
    }

    void share() {
        expect(
            check(R"({"kind": "share", "counter": "received", "worker": "worker-1", "max": 0.5})",
                  kCrash, *crash_),
            Verdict::Pass, "worker-1 5 of");
        expect(check(R"({"kind": "share", "counter": "received", "worker": "each", "min": 0.6})",
                     kCrash, *crash_),
               Verdict::Fail, "Outside the share at least 0.6");
    }

    void redelivered() {
        expect(check(R"({"kind": "redelivered", "from": "worker-1", "min": 3})", kCrash, *crash_),
               Verdict::Pass, "handed out again after worker-1 had it");
        expect(check(R"({"kind": "redelivered", "tasks": [3, 4, 5], "from": "worker-1"})", kCrash,
                     *crash_),
               Verdict::Pass, "#3 was handed to worker-1 at");
        expect(check(R"({"kind": "redelivered", "tasks": [6]})", kCrash, *crash_), Verdict::Fail,
               "#6 did not come back as checked");
    }

    void cameBack() {
        expect(check(R"({"kind": "cameBack", "from": "worker-1", "min": 3})", kCrash, *crash_),
               Verdict::Pass, "worker-1 crashed at");
        expect(check(R"({"kind": "cameBack", "from": "worker-2"})", kCrash, *crash_), Verdict::Fail,
               "holding no unsettled task");
        const auto held = test::playScenario(kHeld);
        expect(check(R"({"kind": "cameBack", "from": "worker-1"})", kHeld, *held), Verdict::Fail,
               "not handed to another worker afterwards: #1 (waiting)");
    }

    void deadLettered() {
        const std::string ok =
            R"({"kind": "deadLettered", "task": 3, "afterReceives": 3, "channel": "t.poison.dlq"})";
        expect(check(ok, kPoison, *poison_), Verdict::Pass, "then it was moved to t.poison.dlq");
        expect(
            check(R"({"kind": "deadLettered", "task": 3, "afterReceives": 2})", kPoison, *poison_),
            Verdict::Fail, "(expected after 2 receives)");
        expect(check(R"({"kind": "deadLettered", "task": 1})", kPoison, *poison_), Verdict::Fail,
               "it ended acked, not dead-lettered");
    }

    void notBeforeDelay() {
        const auto delayed = test::playScenario(kDelayed);
        expect(check(R"({"kind": "notBeforeDelay"})", kDelayed, *delayed), Verdict::Pass,
               "No task was handed out before its 1 s delay");
        // The same check, told the tasks had a 2 s delay they were not sent with.
        const auto undelayed = test::playScenario(kUndelayed, nullptr, kUndelayedClaim);
        expect(check(R"({"kind": "notBeforeDelay"})", kUndelayedClaim, *undelayed), Verdict::Fail,
               "Handed out before the 2 s delay: #1 to worker-1");
    }

    void rejectedToTail() {
        expect(check(R"({"kind": "rejectedToTail", "min": 2})", kPoison, *poison_), Verdict::Pass,
               "#3 was rejected by");
        expect(check(R"({"kind": "rejectedToTail"})", kCrash, *crash_), Verdict::Fail,
               "0 rejects (expected at least 1)");
    }

    void undecidedWhenStoppedEarly() {
        std::atomic<bool> cancel{true};
        const auto stopped = test::playScenario(kUndelayed, &cancel);
        const CheckResult r = check(R"({"kind": "ackedOnce"})", kUndelayed, *stopped);
        expect(r, Verdict::Undecided, "Cannot be decided: the run was stopped early");
        Prediction p;
        p.kind = PredictionKind::Number;
        p.measure = {"acked", ""};
        QCOMPARE(gradePrediction(p, std::string("3"), *stopped).outcome, GradeOutcome::Undecided);
    }

    void undecidedWhenTimedOut() {
        const auto stuck = test::playScenario(kNeverDrains);
        expect(check(R"({"kind": "count", "measure": "acked", "equals": 0})", kNeverDrains, *stuck),
               Verdict::Undecided, "the run hit its time bound (1 s)");
    }

    void numberPrediction() {
        Prediction p;
        p.kind = PredictionKind::Number;
        p.measure = {"received", "worker-1"};
        Grade right = gradePrediction(p, std::string("5"), *crash_);
        QCOMPARE(right.outcome, GradeOutcome::Right);
        Grade wrong = gradePrediction(p, std::string("3"), *crash_);
        QCOMPARE(wrong.outcome, GradeOutcome::Wrong);
        QCOMPARE(wrong.actual, std::string("5"));
        QVERIFY2(wrong.explanation.find("worker-1 received 5 tasks (#1-#5)") != std::string::npos,
                 wrong.explanation.c_str());
        p.tolerance = 2;
        QCOMPARE(gradePrediction(p, std::string("3"), *crash_).outcome, GradeOutcome::Right);
        QCOMPARE(gradePrediction(p, std::nullopt, *crash_).outcome, GradeOutcome::NotAnswered);
    }

    void workerPrediction() {
        Prediction p;
        p.kind = PredictionKind::Worker;
        p.measure.name = "crashes";
        p.most = true;
        QCOMPARE(gradePrediction(p, std::string("worker-1"), *crash_).outcome, GradeOutcome::Right);
        QCOMPARE(gradePrediction(p, std::string("1"), *crash_).outcome, GradeOutcome::Right);
        const Grade wrong = gradePrediction(p, std::string("2"), *crash_);
        QCOMPARE(wrong.outcome, GradeOutcome::Wrong);
        QCOMPARE(wrong.actual, std::string("worker-1"));
        QVERIFY2(wrong.explanation.find("worker-2 never crashed") != std::string::npos,
                 wrong.explanation.c_str());
        // Nobody's visibility ran out: "which worker most" has no answer.
        p.measure.name = "visibilityExpired";
        const Grade none = gradePrediction(p, std::string("1"), *crash_);
        QCOMPARE(none.outcome, GradeOutcome::Undecided);
        QCOMPARE(none.actual, std::string("no worker"));
        QVERIFY2(none.explanation.starts_with("Cannot be decided: no worker did it"),
                 none.explanation.c_str());
    }

    void choicePrediction() {
        Prediction p;
        p.kind = PredictionKind::Choice;
        p.choices = {
            {"lost", test::checkSpec(R"({"kind": "count", "measure": "lost", "min": 1})", kPoison)},
            {"dead-lettered", test::checkSpec(R"({"kind": "deadLettered", "task": 3})", kPoison)}};
        QCOMPARE(gradePrediction(p, std::string("b"), *poison_).outcome, GradeOutcome::Right);
        const Grade wrong = gradePrediction(p, std::string("1"), *poison_);
        QCOMPARE(wrong.outcome, GradeOutcome::Wrong);
        QCOMPARE(wrong.actual, std::string("b"));
        QVERIFY2(wrong.explanation.find("(a) does not hold") != std::string::npos,
                 wrong.explanation.c_str());
        QVERIFY2(
            wrong.explanation.find("(b) holds: #3 was handed out 3 times") != std::string::npos,
            wrong.explanation.c_str());
        QVERIFY(!wrong.evidence.empty());
    }
};

QTEST_APPLESS_MAIN(TstLessonChecks)
#include "tst_lesson_checks.moc"
