#include "subcommands.h"

#include <array>
#include <string_view>

#include "analysis/compare_command.h"
#include "analysis/parity_command.h"
#include "analysis/report_command.h"
#include "analysis/trace_command.h"
#include "lessons/lesson_command.h"
#include "runner/headless_command.h"
#include "runner/redrive_command.h"
#include "runner/summary_command.h"

namespace qs::app {

namespace {

struct Subcommand {
    std::string_view name;
    int (*run)(int argc, char** argv);
};

constexpr std::array<Subcommand, 8> kSubcommands{{
    {"run", &runner::runHeadless},
    {"summary", &runner::runSummary},
    {"redrive", &runner::runRedrive},
    {"trace", &analysis::runTrace},
    {"compare", &analysis::runCompare},
    {"parity", &analysis::runParity},
    {"report", &analysis::runReport},
    {"lesson", &lessons::runLessonCommand},
}};

}  // namespace

std::optional<int> runSubcommand(int argc, char** argv) {
    if (argc < 2) {
        return std::nullopt;
    }
    for (const Subcommand& command : kSubcommands) {
        if (command.name == argv[1]) {
            return command.run(argc, argv);
        }
    }
    return std::nullopt;
}

}  // namespace qs::app
