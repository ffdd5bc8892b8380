#pragma once

#include "console_options.h"

// `queuescope --screenshot FILE ...`: waits for what the options ask to be on
// screen (a live run's --after seconds, a recording shown, a redrive ended, a
// comparison or parity check done), grabs the window (or the dialog or
// comparison window they open), writes the PNG, prints its absolute path and
// ends the event loop: exit 0 when written, 1 when not, 3 when the recording,
// comparison or parity check failed, 2 for a parity scenario not bundled.
//
// Threading: UI thread. The window must outlive the event loop.
namespace qs::ui {
class MainWindow;
}

namespace qs::app {

// Arms the grab; options.screenshot must be set. Call before the event loop runs.
void scheduleScreenshot(ui::MainWindow& window, const ConsoleOptions& options);

}  // namespace qs::app
