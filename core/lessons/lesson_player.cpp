#include "lessons/lesson_player.h"

#include <algorithm>
#include <filesystem>
#include <random>
#include <system_error>

#include "client/queues_client.h"
#include "runner/scenario_runner.h"

namespace qs::lessons {

namespace fs = std::filesystem;

namespace {

std::string channelManagementRefusal(const std::string& address) {
    return "it needs channel management (creating and deleting channels), which the server at " +
           address +
           " does not serve (KubeMQ community v2.4.0 answers no request on "
           "kubemq.cluster.internal.requests); play it on the embedded broker";
}

std::string channelManagementMissing(const PlayOptions& options) {
    if (options.address.empty()) {
        return {};  // the embedded broker serves it
    }
    client::ClientOptions co;
    co.address = options.address;
    co.authToken = options.authToken;
    co.clientId = "queuescope-lesson-probe";
    auto created = client::QueuesClient::create(co);
    if (!created.ok()) {
        return {};  // the run itself will say what is wrong with the address
    }
    auto& client = *created.value();
    if (!client.ping().ok()) {
        return {};
    }
    (void)client.listQueues();
    if (client.channelManagementSupport() == client::QueuesClient::ChannelManagement::Unsupported) {
        return channelManagementRefusal(options.address);
    }
    return {};
}

// A fresh temporary file name for one step's recording.
std::string temporaryRecording(const Lesson& lesson, std::size_t step) {
    std::random_device device;
    std::error_code ec;
    const fs::path dir = fs::temp_directory_path(ec);
    return (dir / ("queuescope-lesson-" + lesson.name + "-" + std::to_string(step + 1) + "-" +
                   std::to_string(device()) + ".qsrun"))
        .string();
}

StepReport playStep(const Lesson& lesson, std::size_t index, const PlayOptions& options) {
    const LessonStep& step = lesson.steps[index];
    StepReport report;
    report.index = index;
    report.step = &step;
    if (const auto it = options.answers.find(index); it != options.answers.end()) {
        report.answer = it->second;
    }
    const bool keep = !options.recordingDirectory.empty();
    const std::string path = keep ? (fs::path(options.recordingDirectory) /
                                     (lesson.name + "-step" + std::to_string(index + 1) + ".qsrun"))
                                        .string()
                                  : temporaryRecording(lesson, index);
    if (keep) {
        std::error_code ec;
        fs::create_directories(options.recordingDirectory, ec);  // the recorder says if it fails
        fs::remove(path, ec);  // a new run of the lesson replaces the last one's recording
    }
    runner::RunOptions ro;
    ro.address = options.address;
    ro.authToken = options.authToken;
    ro.recordingPath = path;
    ro.seed = step.seed != 0 ? step.seed : kDefaultLessonSeed;
    ro.cancelFlag = options.cancelFlag;
    ro.log = options.log;
    ro.keepMessageRecords = false;  // the Run rebuilt from the recording has them
    runner::ScenarioRunner runner(step.run, ro);
    runner::RunResult result = runner.run();
    report.warnings = result.warnings;
    if (!result.started || !result.error.empty()) {
        report.runError = result.error.empty() ? "the run did not start" : result.error;
    } else {
        std::string error;
        auto facts = RunFacts::fromRecording(path, step.run, std::move(result), &error);
        if (!facts) {
            report.runError = "cannot read the run's recording: " + error;
        } else {
            report.facts = std::move(facts);
            for (const CheckSpec& check : step.checks) {
                report.checks.push_back(evaluateCheck(check, *report.facts));
            }
            if (step.prediction) {
                report.grade = gradePrediction(*step.prediction, report.answer, *report.facts);
            }
        }
    }
    if (keep) {
        report.recordingPath = path;
    } else {
        std::error_code ec;
        fs::remove(path, ec);
    }
    return report;
}

}  // namespace

int LessonReport::exitCode() const {
    if (!unavailable.empty()) {
        return 3;
    }
    int code = 0;
    for (const StepReport& s : steps) {
        if (!s.runError.empty()) {
            return 3;
        }
        for (const CheckResult& c : s.checks) {
            if (c.verdict != Verdict::Pass) {
                code = 1;
            }
        }
    }
    return code;
}

std::string unavailableReason(const Lesson& lesson, const PlayOptions& options) {
    for (Need need : lesson.needs) {
        switch (need) {
            case Need::ChannelManagement:
                if (std::string why = channelManagementMissing(options); !why.empty()) {
                    return why;
                }
                break;
        }
    }
    return {};
}

std::string unavailableOn(const Lesson& lesson, client::QueuesClient::ChannelManagement support,
                          const std::string& address) {
    if (lesson.hasNeed(Need::ChannelManagement) &&
        support == client::QueuesClient::ChannelManagement::Unsupported) {
        return channelManagementRefusal(address);
    }
    return unavailableReason(lesson, {});  // the needs no server can change
}

LessonReport playLesson(const Lesson& lesson, const PlayOptions& options) {
    LessonReport report;
    report.unavailable = unavailableReason(lesson, options);
    if (!report.unavailable.empty()) {
        return report;
    }
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
        report.steps.push_back(playStep(lesson, i, options));
        if (options.onStep) {
            options.onStep(report.steps.back());
        }
        const bool cancelled = options.cancelFlag != nullptr && options.cancelFlag->load();
        if (!report.steps.back().runError.empty() || cancelled) {
            break;
        }
    }
    return report;
}

}  // namespace qs::lessons
