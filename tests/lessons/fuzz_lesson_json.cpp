// Fuzz target for lesson files (core/lessons/lesson_json.h): arbitrary bytes
// parsed as a lesson must give an error that says something, leaving the
// output untouched, or a lesson whose steps' scenarios round-trip through the
// scenario JSON they are written in and whose needs have names that parse
// back. Seeds: the shipped lessons
// (resources/lessons). Built as a libFuzzer target with -DQUEUESCOPE_FUZZ=ON
// and clang, otherwise linked with fuzz_driver.cpp for the bounded ctest run.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "lessons/lesson_json.h"
#include "runner/scenario_json.h"

namespace {

void require(bool condition, const char* what) {
    if (!condition) {
        std::fprintf(stderr, "fuzz_lesson_json: %s\n", what);
        std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace qs;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    lessons::Lesson lesson;
    lesson.name = "fuzz";
    std::string error;
    if (!lessons::parseLessonJson(text, &lesson, &error)) {
        require(!error.empty(), "a refused lesson gave no reason");
        require(lesson.name == "fuzz" && lesson.title.empty() && lesson.steps.empty() &&
                    lesson.needs.empty(),
                "a refused lesson changed the output");
        return 0;
    }
    require(lesson.name == "fuzz", "a parsed lesson lost its name");
    for (const auto& step : lesson.steps) {
        const std::string json = runner::scenarioToJson(step.run);
        runner::Scenario again;
        std::string againError;
        require(runner::parseScenarioJson(json, &again, &againError),
                "the JSON of a step's scenario does not parse");
        require(runner::scenarioToJson(again) == json,
                "a step's scenario changed in a JSON round trip");
        require(lessons::runWorkerCount(step.run) >= 0, "a step's run has a negative worker count");
    }
    for (const auto need : lesson.needs) {
        lessons::Need back;
        require(lessons::parseNeed(lessons::needName(need), &back) && back == need,
                "a need's name does not parse back");
    }
    return 0;
}
