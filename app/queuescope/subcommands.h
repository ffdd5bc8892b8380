#pragma once

#include <optional>

// `queuescope run|summary|redrive|trace|compare|parity|report|lesson ...`:
// the commands that need no window, dispatched before any QApplication exists
// (so they run on a machine without a display).
namespace qs::app {

// The exit code of the subcommand argv[1] names, run to its end; nullopt
// when argv[1] names none (the console is wanted).
std::optional<int> runSubcommand(int argc, char** argv);

}  // namespace qs::app
