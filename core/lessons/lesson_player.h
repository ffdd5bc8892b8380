#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/queues_client.h"
#include "lessons/check.h"
#include "lessons/lesson.h"
#include "lessons/prediction.h"
#include "lessons/run_facts.h"

// Plays a lesson: each step's scenario is run by the headless runner
// (runner::ScenarioRunner, the embedded broker unless an address is given),
// recorded, rebuilt into a qs::Run from its recording, and then its checks
// are decided and its prediction graded against that run.
namespace qs::lessons {

struct StepReport {
    std::size_t index = 0;
    const LessonStep* step = nullptr;  // into the played Lesson
    std::optional<std::string> answer;
    std::optional<Grade> grade;  // when the step has a prediction and the run gave facts
    std::vector<CheckResult> checks;
    std::string runError;                   // the run failed: no check was decided
    std::vector<std::string> warnings;      // the runner's (channel steps refused...)
    std::string recordingPath;              // where its recording was kept ("" = not kept)
    std::shared_ptr<const RunFacts> facts;  // the run, for a view that shows the evidence
};

struct LessonReport {
    // Why the lesson was not played here ("" = it was): a need the broker or
    // this build lacks.
    std::string unavailable;
    std::vector<StepReport> steps;

    // 0 every check passed; 1 a check failed or could not be decided;
    // 3 a run failed or the lesson cannot be played here.
    int exitCode() const;
};

struct PlayOptions {
    std::string address;    // "host:port" of a KubeMQ server; "" = the embedded broker
    std::string authToken;  // sent to a remote server
    std::map<std::size_t, std::string> answers;  // step index (0-based) -> answer
    // Keep each step's recording here as NAME-stepN.qsrun; "" = a temporary
    // file, removed once the step is decided.
    std::string recordingDirectory;
    const std::atomic<bool>* cancelFlag = nullptr;  // ends the current run early
    std::function<void(const std::string&)> log;    // the runner's progress lines
    // Called after each step is decided (on the calling thread).
    std::function<void(const StepReport&)> onStep;
};

// Why `lesson` cannot be played against options.address ("" = it can). Asks
// the server (channel management) when the lesson needs it; blocks.
std::string unavailableReason(const Lesson& lesson, const PlayOptions& options);

// The same without asking anything, for a caller that already knows the
// server's channel-management support (the console's connection, which may
// not block): "" when the lesson can be played or the support is not known yet.
std::string unavailableOn(const Lesson& lesson, client::QueuesClient::ChannelManagement support,
                          const std::string& address);

// Plays every step in order; blocks for the runs' duration. Threading: the
// calling thread; cancelFlag from any.
LessonReport playLesson(const Lesson& lesson, const PlayOptions& options);

// The seed a step's pool uses when the step names none: fixed, so a lesson's
// random draws (work times, failures) are the same every time it is played.
inline constexpr std::uint64_t kDefaultLessonSeed = 15;

}  // namespace qs::lessons
