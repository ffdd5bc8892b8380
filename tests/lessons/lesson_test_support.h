#pragma once

#include <QtTest/QtTest>
#include <filesystem>
#include <memory>
#include <string>

#include "lessons/check.h"
#include "lessons/lesson_json.h"
#include "lessons/run_facts.h"
#include "runner/scenario_json.h"
#include "runner/scenario_runner.h"

namespace qs::test {

// Runs `scenarioJson` with the headless runner on its own embedded broker
// (ephemeral port), records it, and rebuilds the run from the recording as
// the lesson player does. `declared` replaces the scenario the checks are
// told about (to test a check against a claim the run did not make).
inline std::unique_ptr<lessons::RunFacts> playScenario(const std::string& scenarioJson,
                                                       const std::atomic<bool>* cancel = nullptr,
                                                       const std::string& declaredJson = {}) {
    runner::Scenario s;
    std::string error;
    if (!runner::parseScenarioJson(scenarioJson, &s, &error)) {
        qFatal("scenario: %s", error.c_str());
    }
    runner::Scenario declared = s;
    if (!declaredJson.empty() && !runner::parseScenarioJson(declaredJson, &declared, &error)) {
        qFatal("declared scenario: %s", error.c_str());
    }
    const std::string path =
        (std::filesystem::temp_directory_path() /
         ("qs-lesson-test-" + std::to_string(QRandomGenerator::global()->generate()) + ".qsrun"))
            .string();
    runner::RunOptions options;
    options.recordingPath = path;
    options.seed = 15;
    options.cancelFlag = cancel;
    runner::ScenarioRunner runner(s, options);
    runner::RunResult result = runner.run();
    if (!result.started || !result.error.empty()) {
        qFatal("run failed: %s", result.error.c_str());
    }
    auto facts = lessons::RunFacts::fromRecording(path, declared, std::move(result), &error);
    std::filesystem::remove(path);
    if (!facts) {
        qFatal("recording: %s", error.c_str());
    }
    return facts;
}

// A check written as in a lesson file, for a run of `scenario`.
inline lessons::CheckSpec checkSpec(const std::string& checkJson, const std::string& scenarioJson) {
    const std::string lesson = R"({"title": "t", "idea": "i", "steps": [{"prose": "p", "run": )" +
                               scenarioJson + R"(, "checks": [)" + checkJson + "]}]}";
    lessons::Lesson l;
    std::string error;
    if (!lessons::parseLessonJson(lesson, &l, &error)) {
        qFatal("check %s: %s", checkJson.c_str(), error.c_str());
    }
    return l.steps[0].checks[0];
}

}  // namespace qs::test
