// Fuzz target for scenario files (core/runner/scenario_json.h): arbitrary
// bytes parsed as a scenario must give an error that says something, leaving
// the output untouched, or a scenario that round-trips: its JSON parses again
// to a scenario with the same JSON (scenarioToJson writes every field). The
// same bytes also go through the command line's KEY=VALUE form of a "set"
// action. Seeds: the shipped scenarios (resources/scenarios). Built as a
// libFuzzer target with -DQUEUESCOPE_FUZZ=ON and clang, otherwise linked
// with fuzz_driver.cpp for the bounded ctest run.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "runner/scenario_json.h"

namespace {

void require(bool condition, const char* what) {
    if (!condition) {
        std::fprintf(stderr, "fuzz_scenario_json: %s\n", what);
        std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace qs::runner;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    static const std::string untouched = scenarioToJson(Scenario{});

    Scenario scenario;
    std::string error;
    if (!parseScenarioJson(text, &scenario, &error)) {
        require(!error.empty(), "a refused scenario gave no reason");
        require(scenarioToJson(scenario) == untouched, "a refused scenario changed the output");
    } else {
        const std::string json = scenarioToJson(scenario);
        Scenario again;
        std::string againError;
        require(parseScenarioJson(json, &again, &againError),
                "the JSON of a parsed scenario does not parse");
        require(scenarioToJson(again) == json, "a scenario changed in a JSON round trip");
    }

    ConfigPatch patch;
    std::string patchError;
    if (!parseConfigAssignments(text, &patch, &patchError))
        require(!patchError.empty(), "refused KEY=VALUE pairs gave no reason");
    return 0;
}
