// qs_run_helper: `queuescope run` without the console, for the suites that
// need the headless runner in a process of its own (tst_recording_crash
// kills it with SIGKILL mid-run).
#include "runner/headless_command.h"

int main(int argc, char** argv) {
    return qs::runner::runHeadless(argc, argv);
}
